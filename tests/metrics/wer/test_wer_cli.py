"""``-m wer`` and ``-m cer`` on the command line: corpus scores (JSON and text), several systems,
``-sl``, ``--confidence``, ``--paired-bs``, streamed blocks, the one-reference rule, and
``mtscore explain -m wer/cer`` with the alignment jiwer's counts come from."""

from __future__ import annotations

import json

import jiwer
import pytest
from helpers import run, write

from mtscore.cli.common import EXIT_INPUT, EXIT_OK
from mtscore.metrics.wer.explanation import AlignmentExplanation

REFS = ["the cat sat on the mat", "it's a  small   world", "", "hello there"]
SYS_1 = ["the cat sit on mat please", "it is a small world", "a b", "hello there"]
SYS_2 = ["the cat sat on the mat", "its a small world", "", "hello"]


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "ref", REFS), write(tmp_path / "sys1", SYS_1), write(tmp_path / "sys2", SYS_2)


def test_json_scores_equal_jiwer(capsys, files):
    ref, sys1, _ = files
    code, out, err = run(capsys, ref, "-i", sys1, "-m", "wer", "cer", "-w", "6")
    assert (code, err) == (EXIT_OK, "")
    wer, cer = json.loads(out)
    assert wer["name"] == "WER" and wer["tf"] == "default"
    assert wer["score"] == pytest.approx(100 * jiwer.wer(REFS, SYS_1), abs=1e-6)
    assert cer["score"] == pytest.approx(100 * jiwer.cer(REFS, SYS_1), abs=1e-6)
    words = jiwer.process_words(REFS, SYS_1)
    assert (
        wer["verbose_score"] == f"(H {words.hits}, S {words.substitutions}, D {words.deletions}, I {words.insertions})"
    )


def test_standardize_option(capsys, files):
    ref, sys1, _ = files
    code, out, _ = run(capsys, ref, "-i", sys1, "-m", "wer", "--wer-standardize", "-w", "6")
    transform = jiwer.wer_standardize
    expected = jiwer.wer(REFS, SYS_1, reference_transform=transform, hypothesis_transform=transform)
    result = json.loads(out)
    assert code == EXIT_OK and result["tf"] == "standardize"
    assert result["score"] == pytest.approx(100 * expected, abs=1e-6)


def test_several_systems_table(capsys, files):
    ref, sys1, sys2 = files
    code, out, _ = run(capsys, ref, "-i", sys1, sys2, "-m", "wer", "cer", "-f", "text")
    assert code == EXIT_OK
    cells = [[cell.strip() for cell in line.strip("│").split("│")] for line in out.splitlines()]
    rows = {row[0]: row[1:] for row in cells if row[0] in (sys1, sys2)}  # sacrebleu's grid
    for path, hyps in ((sys1, SYS_1), (sys2, SYS_2)):
        assert rows[path] == [f"{100 * jiwer.wer(REFS, hyps):.1f}", f"{100 * jiwer.cer(REFS, hyps):.1f}"]


def test_segment_scores(capsys, files):
    ref, sys1, _ = files
    code, out, _ = run(capsys, ref, "-i", sys1, "-m", "wer", "-sl", "-f", "json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == EXIT_OK and [line["name"] for line in lines] == ["WER"] * 5
    expected = [100 * jiwer.wer(r, h) for r, h in zip(REFS, SYS_1, strict=True)]
    assert [line["score"] for line in lines[:4]] == pytest.approx(expected)
    assert expected[2] == 200.0  # no reference words: jiwer's WER is the number of insertions


def test_confidence_and_paired_bootstrap(capsys, files):
    ref, sys1, sys2 = files
    code, out, _ = run(capsys, ref, "-i", sys1, "-m", "cer", "--confidence", "-cin", "50", "-f", "text")
    assert code == EXIT_OK and "bs:50" in out and "μ =" in out
    code, out, _ = run(capsys, ref, "-i", sys1, sys2, "-m", "wer", "cer", "--paired-bs", "--no-progress", "-f", "json")
    assert code == EXIT_OK
    assert "WER" in out and "CER" in out and "p_value" in out


def test_several_references_are_an_input_error(capsys, files):
    ref, sys1, _ = files
    code, out, err = run(capsys, ref, ref, "-i", sys1, "-m", "wer")
    assert code == EXIT_INPUT and out == ""
    assert "WER compares each hypothesis with one reference, as jiwer does; got 2 reference streams" in err


def test_explain_words(capsys):
    code, out, err = run(
        capsys, "explain", "-m", "wer", "--hyp", "cat sit on the mat today", "--ref", "the cat sat on the mat"
    )
    assert (code, err) == (EXIT_OK, "")
    lines = out.splitlines()
    assert lines[1:4] == [
        "  REF: the cat sat on the mat *****",
        "  HYP: *** cat sit on the mat today",
        "       D       S              I",
    ]
    assert "hits H = 4, substitutions S = 1, deletions D = 1, insertions I = 1" in out
    assert "WER = (S + D + I) / (H + S + D) = 3/6 = 50.00%" in out


def test_explain_counts_are_jiwers(capsys, tmp_path):
    ref = write(tmp_path / "ref", REFS)
    hyp = write(tmp_path / "hyp", SYS_1)
    code, out, _ = run(capsys, "explain", "-m", "cer", ref, "-i", hyp)
    chars = jiwer.process_characters(REFS, SYS_1)
    totals = (
        f"hits H = {chars.hits}, substitutions S = {chars.substitutions}, "
        f"deletions D = {chars.deletions}, insertions I = {chars.insertions}"
    )
    assert code == EXIT_OK and "Corpus (4 segments)" in out and totals in out
    for r, h in zip(REFS, SYS_1, strict=True):
        one = jiwer.process_characters(r, h)
        assert f"hits H = {one.hits}, substitutions S = {one.substitutions}, deletions D = {one.deletions}" in out


def test_explain_alignment_is_jiwers():
    from mtscore.metrics.wer import WER

    result = WER().explain(SYS_1, [REFS])
    assert isinstance(result, AlignmentExplanation)
    theirs = jiwer.process_words(REFS, SYS_1).alignments
    for segment, chunks in zip(result.segments, theirs, strict=True):
        kinds = ["equal", "substitute", "delete", "insert"]
        assert [(kinds[k], *span) for k, *span in segment.runs] == [
            (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in chunks
        ]


def test_explain_other_metrics_say_so(capsys):
    code, _, err = run(capsys, "explain", "-m", "chrf", "--hyp", "a", "--ref", "a")
    assert code == EXIT_INPUT and "mtscore explain does not cover chrF2" in err
