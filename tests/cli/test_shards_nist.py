"""``mtscore stats -m nist`` and ``mtscore merge``: NIST shards keep their segments'
tokens, so merged shards print what ``mtscore -m nist`` prints for the whole files, to the bit: the
scores, both variants, one system or several, ``--confidence`` and the paired tests. Shards made
differently, and paired tests of shards counted against other references, are refused."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from helpers import run, write
from shared_data import read_lines, references, system_output

from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE

PAIR, SEGMENTS, CUTS = "en-de", 240, (0, 1, 150, 240)  # uneven shards, one of a single segment
SYSTEMS = ("Online-A", "Online-B")


def written(folder, streams: list[list[str]], outputs: dict[str, list[str]], cuts) -> dict:
    """Whole files and their shards (cut at ``cuts``) of reference ``streams`` and systems' ``outputs``."""
    files: dict = {"folder": folder, "parts": []}
    files["refs"] = [write(folder / f"ref{number}", stream) for number, stream in enumerate(streams)]
    files["systems"] = {name: write(folder / name, lines) for name, lines in outputs.items()}
    for part, (start, end) in enumerate(itertools.pairwise(cuts)):
        refs = [write(folder / f"ref{number}.{part}", stream[start:end]) for number, stream in enumerate(streams)]
        hyps = {name: write(folder / f"{name}.{part}", lines[start:end]) for name, lines in outputs.items()}
        files["parts"].append((refs, hyps))
    return files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Whole files and their shards: two systems, references A and B."""
    streams = [read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")]
    outputs = {name: read_lines(system_output(PAIR, name))[:SEGMENTS] for name in SYSTEMS}
    return written(tmp_path_factory.mktemp("nist_shards"), streams, outputs, CUTS)


WORDS = ["a", "0", "Der", "the", "cat", "Kontinental", "überraschend", "Donaudampfschifffahrt", "Über-Ich,", "x" * 40]
GENERATED_CUTS = (0, 1, 30, 31, 80)


def generated_lines(rng: random.Random, pool: int, segments: int) -> list[str]:
    """Lines of short, medium (8-15 bytes) and long tokens, upper case, mteval's "0", drawn from a
    pool so that lines repeat (NIST then tokenizes each once)."""
    lines = [" ".join(rng.choices(WORDS, k=rng.randrange(13))) for _ in range(pool)]
    return rng.choices(lines, k=segments)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A small generated corpus in the form of ``corpus``: two systems, two references."""
    folder, rng = tmp_path_factory.mktemp("nist_generated"), random.Random(16)
    segments = GENERATED_CUTS[-1]
    streams = [generated_lines(rng, 20, segments) for _ in range(2)]
    outputs = {name: generated_lines(rng, 60, segments) for name in SYSTEMS}
    return written(folder, streams, outputs, GENERATED_CUTS)


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
    hyps = corpus["systems"]["Online-A"]
    whole = json.loads(run(capsys, *corpus["refs"], "-i", hyps, "-m", "nist", *options, "-f", "json", "-w", "20")[1])
    code, merged, err = run(capsys, "merge", *parts, "-f", "json", "-w", "20")
    assert code == EXIT_OK, err
    assert json.loads(merged) == whole  # to the bit: the score, the signature, the precisions and the lengths
    code, reordered, err = run(capsys, "merge", *parts[::-1], "-f", "json", "-w", "20")  # the segments reordered
    assert code == EXIT_OK, err
    ours = json.loads(reordered)
    assert ours.pop("score") == pytest.approx(whole.pop("score"), rel=0, abs=1e-9)  # sums in another order
    assert ours == whole


def test_several_systems_and_what_is_refused(capsys, corpus, tmp_path):
    parts = shards(capsys, corpus, systems=SYSTEMS)
    code, out, err = run(capsys, "merge", *parts, "-f", "json", "-w", "15")
    assert code == EXIT_OK, err
    table = json.loads(out)
    assert [row["system"] for row in table] == list(SYSTEMS)
    for row, name in zip(table, SYSTEMS, strict=True):
        whole = run(capsys, *corpus["refs"], "-i", corpus["systems"][name], "-m", "nist", "-f", "json", "-w", "15")
        assert float(row["NIST"]) == pytest.approx(json.loads(whole[1])["score"], rel=0, abs=1e-9)
    code, _, err = run(capsys, "merge", *parts, "--paired-bs", "--confidence")
    assert code == EXIT_USAGE and "--confidence goes with single-system scores" in err
    refs, hyps = corpus["parts"][0]
    other = str(tmp_path / "order4.npz")
    argv = ["stats", *refs, "-i", hyps["Online-A"], "-m", "nist", "--nist-max-order", "4", "-o", other]
    assert run(capsys, *argv)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", parts[0], other)
    assert code == EXIT_INPUT and "counted with options" in err
    code, _, err = run(capsys, "merge", *parts[:2], *parts[3:])  # Online-B lacks a shard
    assert code == EXIT_INPUT and "different numbers of segments" in err


def whole_and_merged(capsys, corpus, variant, parts, *options: str, systems=SYSTEMS[:1]):
    """The parsed JSON of ``mtscore REFS -i SYSTEMS -m nist OPTIONS`` and of ``mtscore merge PARTS OPTIONS``."""
    hyps = [corpus["systems"][name] for name in systems]
    argv = [*corpus["refs"], "-i", *hyps, "-m", "nist", "--nist-variant", variant, *options]
    code, whole, err = run(capsys, *argv, "-f", "json", "-w", "20")
    assert code == EXIT_OK, err
    code, merged, err = run(capsys, "merge", *parts, *options, "-f", "json", "-w", "20")
    assert code == EXIT_OK, err
    return json.loads(whole), json.loads(merged)


def named(capsys, corpus, variant: str, systems=SYSTEMS) -> list[str]:
    """Shards whose systems are named as the whole files are (the names the outputs print)."""
    parts = []
    for part, (refs, hyps) in enumerate(corpus["parts"]):
        for name in systems:
            path = str(corpus["folder"] / f"named.{name}.{part}.{variant}.npz")
            argv = ["stats", *refs, "-i", hyps[name], "-m", "nist", "--nist-variant", variant]
            assert run(capsys, *argv, "--name", corpus["systems"][name], "-o", path)[0] == EXIT_OK
            parts.append(path)
    return parts


@pytest.mark.parametrize("data", ["corpus", "generated"])
@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_merged_nist_shards_resample_as_the_whole_files(capsys, request, data, variant):
    """--confidence (one system, then two) and both paired tests: the whole files' output, every
    number to the bit; the shards joined in another order resample other segments."""
    corpus = request.getfixturevalue(data)
    parts = named(capsys, corpus, variant)
    one = parts[::2]  # Online-A's
    whole, merged = whole_and_merged(capsys, corpus, variant, one, "--confidence", "-cin", "300", "--seed", "7")
    assert merged == whole and "μ = " in merged["confidence"]
    swapped = [one[0], *one[:0:-1]]  # the same segments, in another order: other resamples
    _, other = whole_and_merged(capsys, corpus, variant, swapped, "--confidence", "-cin", "300", "--seed", "7")
    assert other["score"] == pytest.approx(whole["score"], rel=0, abs=1e-9)
    assert other["confidence_mean"] != whole["confidence_mean"]
    several = whole_and_merged(capsys, corpus, variant, parts, "--confidence", "-cin", "200", systems=SYSTEMS)
    assert several[1] == several[0]
    for test in (("--paired-bs", "--paired-bs-n", "300"), ("--paired-ar", "--paired-ar-n", "300")):
        whole, merged = whole_and_merged(capsys, corpus, variant, parts, *test, "--seed", "3", systems=SYSTEMS)
        assert merged == whole
        assert merged[1]["NIST" if variant == "mteval" else "NIST-nltk"]["p_value"] is not None


def test_paired_tests_need_one_reference_corpus(capsys, corpus, tmp_path):
    """Online-B's first shard counted against a reference with one line changed: the confidence
    intervals take each system's own references, a paired test refuses."""
    parts = named(capsys, corpus, "mteval")
    refs, hyps = corpus["parts"][0]
    changed = write(tmp_path / "ref1.changed", ["a changed reference"])
    other = str(tmp_path / "other.npz")
    argv = ["stats", refs[0], changed, "-i", hyps["Online-B"], "-m", "nist", "-o", other]
    assert run(capsys, *argv, "--name", corpus["systems"]["Online-B"])[0] == EXIT_OK
    parts[1] = other
    code, _, err = run(capsys, "merge", *parts, "--paired-bs", "--paired-bs-n", "10")
    assert code == EXIT_INPUT and "different references" in err
    code, out, err = run(capsys, "merge", *parts, "--confidence", "-cin", "10")
    assert code == EXIT_OK, err
    assert [row["system"] for row in json.loads(out)] == [corpus["systems"][name] for name in SYSTEMS]


def test_old_shards_are_refused_clearly(capsys, tmp_path):
    import numpy as np

    path = tmp_path / "old.npz"
    meta = {"format": 1, "metric": "nist", "kind": "state", "options": {}, "nrefs": "1", "system": "s"}
    np.savez(path, meta=np.array(json.dumps(meta)))
    code, _, err = run(capsys, "merge", str(path))
    assert code == EXIT_INPUT and "a shard of format 1, this mtscore reads 4" in err and "again" in err


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_shard_tokens_with_empty_shards_and_missing_references(variant):
    """What ``merge`` runs, through the API (the command line has no empty shard nor missing
    reference): shards' tokens joined give the in-memory rows, intervals and paired test to the bit."""
    from mtscore.metrics.nist.metric import NIST
    from mtscore.metrics.nist.tokens import ShardTokens
    from mtscore.report.confidence import with_confidence
    from mtscore.significance.paired import paired_test_statistics

    rng, cuts = random.Random(7), (0, 0, 9, 10, 10, 50)
    refs: list[list[str | None]] = [generated_lines(rng, 15, cuts[-1]) for _ in range(3)]
    refs[1] = [None if number % 3 == 0 else line for number, line in enumerate(refs[1])]
    refs[2][12] = None
    systems = [generated_lines(rng, 40, cuts[-1]) for _ in SYSTEMS]
    whole = NIST(refs, variant=variant)
    merged = NIST(variant=variant)
    parts = [
        [
            merged.aggregation.shard_arrays(merged, hyps[a:b], [s[a:b] for s in refs])
            for a, b in itertools.pairwise(cuts)
        ]
        for hyps in systems
    ]
    for system in parts:  # as written and read
        system[1:] = [ShardTokens.from_arrays(part).to_arrays() for part in system[1:]]
    rows = merged.aggregation.joined_statistics(merged, parts)
    expected = whole.systems_statistics(systems)
    for ours, theirs in zip(rows, expected, strict=True):
        assert np.array_equal(ours, theirs)
        score = merged.score_statistics(ours, nrefs="var")
        ours_ci = with_confidence(merged, score, ours, 100, 5).to_json(20)
        assert ours_ci == with_confidence(whole, whole.score_statistics(theirs), theirs, 100, 5).to_json(20)
    for test in ("bs", "ar"):
        ours_test = paired_test_statistics({"NIST": merged}, {"NIST": rows}, list(SYSTEMS), test, 100, 5)
        theirs_test = paired_test_statistics({"NIST": whole}, {"NIST": expected}, list(SYSTEMS), test, 100, 5)
        assert (ours_test.results, ours_test.comparisons) == (theirs_test.results, theirs_test.comparisons)
