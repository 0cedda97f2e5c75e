"""``mtscore stats -m nist`` and ``mtscore merge`` (issue 16): NIST shards hold n-gram tables that
merge exactly, so merged shards print what ``mtscore -m nist`` prints for the whole files, both
variants, one system or several; shards made differently, and resampling merged tables, are refused."""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import run, write
from shared_data import read_lines, references, system_output

from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE

PAIR, SEGMENTS, CUTS = "en-de", 240, (0, 1, 150, 240)  # uneven shards, one of a single segment
SYSTEMS = ("Online-A", "Online-B")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Whole files and their shards: two systems, references A and B."""
    folder = tmp_path_factory.mktemp("nist_shards")
    streams = [read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")]
    files: dict = {"folder": folder, "parts": []}
    files["refs"] = [write(folder / f"ref{number}", stream) for number, stream in enumerate(streams)]
    outputs = {name: read_lines(system_output(PAIR, name))[:SEGMENTS] for name in SYSTEMS}
    files["systems"] = {name: write(folder / name, lines) for name, lines in outputs.items()}
    for part, (start, end) in enumerate(itertools.pairwise(CUTS)):
        refs = [write(folder / f"ref{number}.{part}", stream[start:end]) for number, stream in enumerate(streams)]
        hyps = {name: write(folder / f"{name}.{part}", lines[start:end]) for name, lines in outputs.items()}
        files["parts"].append((refs, hyps))
    return files


def shards(capsys, corpus, *options: str, systems=SYSTEMS[:1]) -> list[str]:
    out = []
    for part, (refs, hyps) in enumerate(corpus["parts"]):
        for name in systems:
            path = str(corpus["folder"] / f"{name}.{part}.{'_'.join(options)}.npz")
            argv = ["stats", *refs, "-i", hyps[name], "-m", "nist", *options, "--name", name, "-o", path]
            code, _, err = run(capsys, *argv)
            assert code == EXIT_OK, err
            out.append(path)
    return out


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_merged_nist_shards_score_as_the_whole_files(capsys, corpus, variant):
    options = ("--nist-variant", variant)
    parts = shards(capsys, corpus, *options)
    code, merged, err = run(capsys, "merge", *parts[::-1], "-f", "json", "-w", "20")  # any order of shards
    assert code == EXIT_OK, err
    hyps = corpus["systems"]["Online-A"]
    whole = run(capsys, *corpus["refs"], "-i", hyps, "-m", "nist", *options, "-f", "json", "-w", "20")
    ours, theirs = json.loads(merged), json.loads(whole[1])
    assert ours.pop("score") == pytest.approx(theirs.pop("score"), rel=0, abs=1e-9)
    assert ours == theirs  # the signature, the precisions per order and the lengths alike


def test_several_systems_and_what_is_refused(capsys, corpus, tmp_path):
    parts = shards(capsys, corpus, systems=SYSTEMS)
    code, out, err = run(capsys, "merge", *parts, "-f", "json", "-w", "15")
    assert code == EXIT_OK, err
    table = json.loads(out)
    assert [row["system"] for row in table] == list(SYSTEMS)
    for row, name in zip(table, SYSTEMS, strict=True):
        whole = run(capsys, *corpus["refs"], "-i", corpus["systems"][name], "-m", "nist", "-f", "json", "-w", "15")
        assert float(row["NIST"]) == pytest.approx(json.loads(whole[1])["score"], rel=0, abs=1e-9)
    code, _, err = run(capsys, "merge", *parts, "--paired-bs")
    assert code == EXIT_USAGE and "n-gram tables" in err
    refs, hyps = corpus["parts"][0]
    other = str(tmp_path / "order4.npz")
    argv = ["stats", *refs, "-i", hyps["Online-A"], "-m", "nist", "--nist-max-order", "4", "-o", other]
    assert run(capsys, *argv)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", parts[0], other)
    assert code == EXIT_INPUT and "counted with options" in err
    code, _, err = run(capsys, "merge", *parts[:2], *parts[3:])  # Online-B lacks a shard
    assert code == EXIT_INPUT and "different numbers of segments" in err
