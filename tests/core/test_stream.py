"""Block-by-block reading and scoring: the same lines, errors and scores as one in-memory pass."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys

import pytest
from helpers import fixed, run, write
from hypothesis import given
from hypothesis import strategies as st
from shared_data import references, system_output

from mtscore import BLEU, TER
from mtscore.cli import EXIT_INPUT, EXIT_OK
from mtscore.cli import score as cli
from mtscore.core import stream
from mtscore.core.stream import aligned_blocks, stream_scores
from mtscore.errors import InputError
from mtscore.files.read import read_blocks, read_lines
from mtscore.metrics.ter import metric as ter_metric
from mtscore.progress import Progress

PIECES = ["a", "b c", "\r", "\n", "\r\n", "é", "中文", "\u2028", "\x85", "\x0c", " ", "."]


def blocks_as_lines(path, block_bytes):
    return [line for lines, _ in read_blocks(path, block_bytes) for line in lines]


@fixed(max_examples=150)
@given(
    pieces=st.lists(st.sampled_from(PIECES), max_size=40),
    bom=st.booleans(),
    packed=st.booleans(),
    block=st.integers(4, 40),
)
def test_blocks_hold_the_lines_of_read_lines(tmp_path_factory, pieces, bom, packed, block):
    data = ("\ufeff" if bom else "").encode() + "".join(pieces).encode()
    path = tmp_path_factory.mktemp("blocks") / "file"
    path.write_bytes(gzip.compress(data) if packed else data)
    assert blocks_as_lines(path, block) == read_lines(path)


@pytest.mark.parametrize("block", [4, 7, 64, 1 << 20])
def test_invalid_utf8_in_a_later_block_is_reported_the_same(tmp_path, block):
    path = tmp_path / "bad.txt"
    path.write_bytes("\ufeffline one\nline two\nthird é line\n".encode() + b"fourth \xff here\n")
    with pytest.raises(InputError) as in_memory:
        read_lines(path)
    with pytest.raises(InputError) as blocks:
        blocks_as_lines(path, block)
    assert str(blocks.value) == str(in_memory.value) and "line 4, column 8" in str(blocks.value)


def test_invalid_gzip_and_missing_file(tmp_path):
    path = tmp_path / "broken.gz"
    path.write_bytes(gzip.compress(b"a\nb\n" * 1000)[:-20])
    with pytest.raises(InputError, match="not a valid gzip file"):
        blocks_as_lines(path, 64)
    with pytest.raises(InputError, match="no such file"):
        blocks_as_lines(tmp_path / "missing", 64)


def test_aligned_blocks_and_counts_on_mismatch(tmp_path):
    a, b = write(tmp_path / "a", [f"a{i}" for i in range(10)]), write(tmp_path / "b", [f"b{i}" for i in range(13)])
    seen = []
    blocks = list(aligned_blocks([a, a], seen.append, segments=3))
    assert [len(block[0]) for block in blocks] == [3, 3, 3, 1] and seen == [[10, 10]]
    assert [line for block in blocks for line in block[1]] == read_lines(a)
    counts = []
    list(aligned_blocks([a, b], counts.append, segments=4))
    assert counts == [[10, 13]]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"smooth": "floor"},
        {"smooth": "add-k", "lowercase": True},
        {"tokenize": "intl", "max_order": 2},
        {"effective_order": True, "smooth": "none"},
    ],
)
@pytest.mark.parametrize("segments", [1, 97, 5000])
def test_streamed_scores_equal_in_memory_on_wmt22(options, segments):
    refs = [str(path) for path in references("en-de", "all")]
    hyp = str(system_output("en-de", "PROMT"))
    streamed = stream_scores(lambda r: [BLEU(r, **options)], hyp, refs, lambda counts: None, segments=segments)[0]
    in_memory = BLEU([read_lines(path) for path in refs], **options).corpus_score(read_lines(hyp))
    assert streamed == in_memory and streamed.signature == in_memory.signature


@pytest.mark.parametrize(
    "segments, words, counted",
    [(0, 10**9, [1] * 21), (250, 10**9, [3] * 7), (10**9, 12_000, [2] * 10 + [1]), (10**9, 10**9, [21])],
)
def test_ter_counts_gathered_blocks_at_once_with_the_same_score(monkeypatch, segments, words, counted):
    """TER gathers streamed blocks' pairs and counts them together: blocks of 100 segments (6,200 to
    9,400 words with both references) counted one by one, three at a time (250 segments), two at a
    time (12,000 words), or all at the end."""
    monkeypatch.setattr(ter_metric, "STREAM_BATCH_SEGMENTS", segments)
    monkeypatch.setattr(ter_metric, "STREAM_BATCH_WORDS", words)
    gathered = []
    count = TER.count_stream_parts
    monkeypatch.setattr(
        TER, "count_stream_parts", lambda self, parts: gathered.append(len(parts)) or count(self, parts)
    )
    refs = [str(path) for path in references("en-de", "all")]
    hyp = str(system_output("en-de", "PROMT"))
    options = {"normalized": True, "lowercase": False}
    streamed = stream_scores(lambda r: [TER(r, **options)], hyp, refs, lambda counts: None, segments=100)[0]
    in_memory = TER([read_lines(path) for path in refs], **options).corpus_score(read_lines(hyp))
    assert streamed == in_memory and streamed.signature == in_memory.signature
    assert gathered == counted


@pytest.mark.parametrize("extra", [[], ["-f", "text"], ["-f", "tsv"], ["-b", "-w", "6"], ["-lc", "-tok", "intl"]])
def test_cli_streams_large_inputs_with_the_same_output(capsys, monkeypatch, extra):
    refs = [references("en-de", name)[0] for name in ("A", "B")]
    systems = [system_output("en-de", name) for name in ("PROMT", "Online-A")]
    expected = run(capsys, *refs, "-i", *systems, *extra)
    monkeypatch.setattr(cli, "STREAM_BYTES", 0)
    monkeypatch.setattr(stream, "BLOCK_SEGMENTS", 100)
    calls = []
    monkeypatch.setattr(stream, "aligned_blocks", lambda *a, **k: calls.append(1) or aligned_blocks(*a, **k))
    assert run(capsys, *refs, "-i", *systems, *extra) == expected and expected[0] == EXIT_OK
    assert calls  # it did stream


def test_cli_streaming_reports_mismatches_and_empty_files_as_in_memory(capsys, monkeypatch, tmp_path):
    ref = write(tmp_path / "ref", ["a b"] * 250)
    cases = [
        write(tmp_path / "short", ["a b"] * 249),
        write(tmp_path / "long", ["a b"] * 251),
        write(tmp_path / "empty", []),
    ]
    expected = [run(capsys, ref, "-i", hyp) for hyp in cases]
    monkeypatch.setattr(cli, "STREAM_BYTES", 0)
    monkeypatch.setattr(stream, "BLOCK_SEGMENTS", 100)
    for hyp, (code, out, err) in zip(cases, expected, strict=False):
        assert code == EXIT_INPUT and run(capsys, ref, "-i", hyp) == (code, out, err)
    assert "249 lines" in expected[0][2] and "251 lines" in expected[1][2] and "is empty" in expected[2][2]


def test_standard_input_is_streamed(tmp_path):
    ref = write(tmp_path / "ref", [f"line {i} of the reference text" for i in range(3000)])
    hyp = "".join(f"line {i} of a hypothesis text\n" for i in range(3000))
    command = [sys.executable, "-m", "mtscore", ref]
    piped = subprocess.run(command, input=hyp.encode(), capture_output=True, check=True)
    from_file = subprocess.run(
        [*command, "-i", write(tmp_path / "hyp", hyp.splitlines())], capture_output=True, check=True
    )
    assert json.loads(piped.stdout) == json.loads(from_file.stdout) and piped.stderr == b""


def test_progress_shows_units():
    out = io.StringIO()
    with Progress("scoring x:", 10 << 20, stream=out, delay=0, force=True, unit="MiB", scale=1 << 20) as bar:
        bar.advance(5 << 20)
    assert "scoring x:  50%" in out.getvalue() and out.getvalue().endswith("5/10 MiB\n")


def test_lines_are_read_only_as_needed(tmp_path):
    """A reader holds about one block: it reads the next only when its buffer runs short."""
    path = write(tmp_path / "a", [f"line {i}" for i in range(1000)])
    reader = stream._Lines(path, block_bytes=64)
    assert reader.take(3) == ["line 0", "line 1", "line 2"]
    assert len(reader.buffer) < 10
    assert reader.take(995)[-1] == "line 997" and len(reader.buffer) < 10


def test_block_segments_is_read_at_each_call(tmp_path, monkeypatch):
    """The command line's tests shrink ``BLOCK_SEGMENTS`` to stream small files in many blocks."""
    path = write(tmp_path / "a", [f"line {i} of the file" for i in range(10)])
    monkeypatch.setattr(stream, "BLOCK_SEGMENTS", 3)
    sizes = []

    def make(references):
        metric = BLEU(references)
        scored = metric.statistics
        metric.statistics = lambda hypotheses: sizes.append(len(hypotheses)) or scored(hypotheses)
        return [metric]

    in_memory = BLEU([read_lines(path)]).corpus_score(read_lines(path))
    assert stream_scores(make, path, [path], lambda counts: None)[0] == in_memory
    assert sizes == [3, 3, 3, 1]


def test_progress_bar_closes_after_gathered_blocks_are_counted(tmp_path, monkeypatch):
    """TER counts gathered blocks after the last is read: the bar stays up until they are counted."""
    path = write(tmp_path / "a", [f"line {i} of the file" for i in range(10)])
    events = []
    count = TER.count_stream_parts
    monkeypatch.setattr(TER, "count_stream_parts", lambda self, parts: events.append("count") or count(self, parts))
    monkeypatch.setattr(Progress, "close", lambda self: events.append("close"))
    stream_scores(lambda r: [TER(r)], path, [path], lambda counts: None, segments=3, progress=True)
    assert events == ["count", "close"]
