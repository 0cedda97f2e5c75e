"""``mtscore stats`` and ``mtscore merge``: shards of a corpus counted apart, merged and
scored exactly as the whole files, with confidence intervals and paired tests; shards made
differently are refused."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from helpers import run, write
from shared_data import read_lines, references, system_output

from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_OUTPUT, EXIT_USAGE
from mtscore.metrics import METRICS, metric_class

PAIR, SEGMENTS, CUTS = "en-de", 240, (0, 17, 150, 240)  # uneven shards


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Whole files and their shards: two systems, references A and B."""
    folder = tmp_path_factory.mktemp("shards")
    files: dict = {"refs": [], "systems": {}, "parts": []}
    streams = [read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")]
    for number, stream in enumerate(streams):
        files["refs"].append(write(folder / f"ref{number}", stream))
    for name in ("Online-A", "Online-B"):
        files["systems"][name] = write(folder / name, read_lines(system_output(PAIR, name))[:SEGMENTS])
    for part, (start, end) in enumerate(itertools.pairwise(CUTS)):
        refs = [write(folder / f"ref{number}.{part}", stream[start:end]) for number, stream in enumerate(streams)]
        hyps = {
            name: write(folder / f"{name}.{part}", read_lines(path)[start:end])
            for name, path in files["systems"].items()
        }
        files["parts"].append((refs, hyps))
    files["folder"] = folder
    return files


def shards(capsys, corpus, metric: str, systems=("Online-A",), n_refs: int = 2) -> list[str]:
    out = []
    for part, (refs, hyps) in enumerate(corpus["parts"]):
        for name in systems:
            path = str(corpus["folder"] / f"{metric}.{name}.{part}.npz")
            code, _, err = run(
                capsys, "stats", *refs[:n_refs], "-i", hyps[name], "-m", metric, "--name", name, "-o", path
            )
            assert code == EXIT_OK, err
            out.append(path)
    return out


@pytest.mark.parametrize("metric", [name for name in METRICS if metric_class(name).aggregation.additive])
def test_merged_shards_score_as_the_whole_files(capsys, corpus, metric):
    n_refs = min(2, metric_class(metric).max_references or 2)  # two streams, or as many as the metric takes
    parts = shards(capsys, corpus, metric, n_refs=n_refs)
    merged = run(capsys, "merge", *parts, "-f", "text", "-w", "6")
    whole = run(
        capsys, *corpus["refs"][:n_refs], "-i", corpus["systems"]["Online-A"], "-m", metric, "-f", "text", "-w", "6"
    )
    assert merged[0] == EXIT_OK and merged[1] == whole[1]


def test_confidence_and_paired_tests_on_merged_shards(capsys, corpus):
    parts = shards(capsys, corpus, "chrf", systems=("Online-A", "Online-B"))
    whole = [*corpus["refs"], "-i", *corpus["systems"].values(), "-m", "chrf", "-f", "text"]
    merged = run(capsys, "merge", *parts, "--paired-bs", "-f", "text")
    expected = run(capsys, *whole, "--paired-bs")
    assert merged[0] == EXIT_OK
    named = expected[1].replace(corpus["systems"]["Online-A"], "Online-A")
    named = named.replace(corpus["systems"]["Online-B"], "Online-B")

    def words(text: str) -> list[str]:  # the same table, its rules and columns as wide as the names
        return [word for word in text.split() if not set(word) <= set("-─═│╒╤╕╞╪╡├┼┤╘╧╛")]

    assert words(merged[1]) == words(named)
    one = [path for path in parts if ".Online-A." in path]
    confident = run(capsys, "merge", *one, "--confidence", "-f", "text")
    alone = run(
        capsys, *corpus["refs"], "-i", corpus["systems"]["Online-A"], "-m", "chrf", "--confidence", "-f", "text"
    )
    assert confident[1] == alone[1]


def test_shards_made_differently_are_refused(capsys, corpus, tmp_path):
    bleu = shards(capsys, corpus, "bleu")
    refs, hyps = corpus["parts"][0]
    lowercased = str(tmp_path / "lc.npz")
    assert run(capsys, "stats", *refs, "-i", hyps["Online-A"], "-lc", "-o", lowercased)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", bleu[0], lowercased)
    assert code == EXIT_INPUT and "counted with options" in err and "merge only when made the same way" in err
    one_ref = str(tmp_path / "one.npz")
    assert run(capsys, "stats", refs[0], "-i", hyps["Online-A"], "-o", one_ref)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", bleu[0], one_ref)
    assert code == EXIT_INPUT and "counted with nrefs" in err
    other = str(tmp_path / "other.npz")
    assert run(capsys, "stats", *refs, "-i", hyps["Online-B"], "--name", "B", "-o", other)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", *bleu, other)
    assert code == EXIT_INPUT and "different numbers of segments" in err
    code, _, err = run(capsys, "merge", corpus["refs"][0])
    assert code == EXIT_INPUT and err.strip().endswith("not a shard written by 'mtscore stats' (not a .npz file)")
    code, _, err = run(capsys, "merge", str(tmp_path))
    assert code == EXIT_INPUT and "is a directory" in err and "Traceback" not in err
    nist = str(tmp_path / "n.npz")
    assert run(capsys, "stats", *refs, "-i", hyps["Online-A"], "-m", "nist", "-o", nist)[0] == EXIT_OK
    code, _, err = run(capsys, "merge", bleu[0], nist)  # NIST's resamples: test_shards_nist.py
    assert code == EXIT_INPUT and "counted with metric" in err
    code, _, err = run(capsys, "merge", nist, "--paired-bs")
    assert code == EXIT_USAGE and "paired tests need two or more systems" in err


def test_a_shard_that_cannot_be_written_is_an_output_error(capsys, corpus, tmp_path):
    """``stats -o`` into a missing folder: exit 3 with the reason, no traceback and no file."""
    refs, hyps = corpus["parts"][0]
    target = tmp_path / "missing" / "part.npz"
    code, _, err = run(capsys, "stats", *refs, "-i", hyps["Online-A"], "-o", str(target))
    assert code == EXIT_OUTPUT and f"mtscore stats: error: cannot write {target}: No such file" in err
    assert "Traceback" not in err and not target.exists()


def test_a_shard_written_through_a_link_or_to_a_pipe(capsys, corpus, tmp_path):
    """``-o`` names a link: the file it points to gets the shard (its mode kept), the link stays;
    ``-o`` names a named pipe: the shard is written into it, not renamed over it."""
    import os
    import threading

    refs, hyps = corpus["parts"][0]
    real, link = tmp_path / "real.npz", tmp_path / "link.npz"
    real.write_bytes(b"old")
    real.chmod(0o640)
    link.symlink_to(real)
    assert run(capsys, "stats", *refs, "-i", hyps["Online-A"], "-o", str(link))[0] == EXIT_OK
    assert link.is_symlink() and (real.stat().st_mode & 0o777) == 0o640
    code, _, err = run(capsys, "merge", str(real))
    assert code == EXIT_OK, err
    pipe, received = tmp_path / "pipe", []
    os.mkfifo(pipe)
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    assert run(capsys, "stats", *refs, "-i", hyps["Online-A"], "-o", str(pipe))[0] == EXIT_OK
    reader.join(timeout=60)
    assert received == [real.read_bytes()] and pipe.is_fifo()


def test_damaged_shards_are_input_errors(capsys, corpus, tmp_path):
    """A shard cut short or with a flipped byte: exit 2 saying it is not a shard, no traceback."""
    path = shards(capsys, corpus, "bleu")[0]
    data = Path(path).read_bytes()
    cut, flipped = tmp_path / "cut.npz", tmp_path / "flipped.npz"
    cut.write_bytes(data[: len(data) // 2])
    flipped.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    for damaged in (cut, flipped):
        code, _, err = run(capsys, "merge", str(damaged))
        assert code == EXIT_INPUT and "not a shard written by 'mtscore stats'" in err and "Traceback" not in err


def test_paired_tests_take_systems_split_differently_and_refuse_other_references(capsys, corpus, tmp_path):
    """Each system's shards joined hold the same references however each was cut: a paired test runs
    and equals the whole files'; one reference line changed in one system's shard: refused."""
    streams = [read_lines(path)[:SEGMENTS] for path in corpus["refs"]]
    outputs = {name: read_lines(path) for name, path in corpus["systems"].items()}

    def shard(name: str, start: int, end: int, refs=streams) -> str:
        path = tmp_path / f"{name}.{start}.npz"
        ref_files = [write(tmp_path / f"r{n}.{name}.{start}", s[start:end]) for n, s in enumerate(refs)]
        hyp = write(tmp_path / f"h.{name}.{start}", outputs[name][start:end])
        assert run(capsys, "stats", *ref_files, "-i", hyp, "-m", "bleu", "--name", name, "-o", str(path))[0] == 0
        return str(path)

    a = [shard("Online-A", 0, 100), shard("Online-A", 100, SEGMENTS)]
    b = [shard("Online-B", 0, 31), shard("Online-B", 31, 200), shard("Online-B", 200, SEGMENTS)]
    code, out, err = run(capsys, "merge", *a, *b, "--paired-bs", "--paired-bs-n", "50", "-f", "json")
    assert code == EXIT_OK, err
    whole = run(capsys, *corpus["refs"], "-i", *corpus["systems"].values(), "--paired-bs", "--paired-bs-n", "50")
    assert json.loads(out)[1]["BLEU"] == json.loads(whole[1])[1]["BLEU"]
    changed = [list(stream) for stream in streams]
    changed[1][150] = "a changed reference"
    b[1] = shard("Online-B", 31, 200, changed)
    code, _, err = run(capsys, "merge", *a, *b, "--paired-bs", "--paired-bs-n", "50")
    assert code == EXIT_INPUT and "different references" in err


def test_parts_of_one_system_written_without_a_name_are_told_to_take_one(capsys, tmp_path):
    """Splitting a file, counting each part and merging the parts: without --name each part is a
    system named after its file, and the refusal says exactly how to make them one system."""
    refs, hyps = ["a b c", "d e f", "g h", "i j k"], ["a b c", "d e", "g h", "i j x"]
    parts = []
    for number, (start, stop) in enumerate([(0, 3), (3, 4)], 1):
        ref = write(tmp_path / f"ref.part{number}", refs[start:stop])
        hyp = write(tmp_path / f"hyp.part{number}", hyps[start:stop])
        parts.append((ref, hyp, str(tmp_path / f"part{number}.npz")))
    for ref, hyp, shard in parts:
        assert run(capsys, "stats", ref, "-i", hyp, "-o", shard)[0] == EXIT_OK
    code, out, err = run(capsys, "merge", *(shard for _, _, shard in parts))
    assert code == EXIT_INPUT and out == ""
    assert "each is a system of its own" in err and "--name SYSTEM" in err and "hyp.part1" in err
    for ref, hyp, shard in parts:
        assert run(capsys, "stats", ref, "-i", hyp, "--name", "hyp", "-o", shard)[0] == EXIT_OK
    code, out, _ = run(capsys, "merge", *(shard for _, _, shard in parts), "-b")
    whole = run(capsys, write(tmp_path / "ref", refs), "-i", write(tmp_path / "hyp", hyps), "-b")[1]
    assert code == EXIT_OK and out == whole


def test_equal_parts_of_one_system_written_without_a_name_are_warned_about(capsys, tmp_path):
    """Parts of the same length print as several systems (each scored right); the warning says how to
    make them one system."""
    refs, hyps = ["a b c", "d e f", "g h", "i j k"], ["a b c", "d e", "g h", "i j x"]
    shards = []
    for number, (start, stop) in enumerate([(0, 2), (2, 4)], 1):
        ref = write(tmp_path / f"ref.part{number}", refs[start:stop])
        hyp = write(tmp_path / f"hyp.part{number}", hyps[start:stop])
        shards.append(str(tmp_path / f"part{number}.npz"))
        assert run(capsys, "stats", ref, "-i", hyp, "-o", shards[-1])[0] == EXIT_OK
    code, out, err = run(capsys, "merge", *shards)
    assert code == EXIT_OK and [row["system"] for row in json.loads(out)] == [
        f"{tmp_path}/hyp.part1",
        f"{tmp_path}/hyp.part2",
    ]
    assert "warning: the systems hold different references" in err and "--name SYSTEM" in err


def test_merge_help_names_its_baseline_without_an_i_option(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "merge", "--help")
    out = capsys.readouterr().out
    assert "-i file" not in out and "the system of the first shard is the baseline" in " ".join(out.split())
