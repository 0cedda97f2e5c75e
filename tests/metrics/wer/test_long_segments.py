"""WER and CER of long segments (paragraphs) equal jiwer 4.0's: past 2048 x 2048 differing tokens,
where rapidfuzz (jiwer's engine) aligns with Hirschberg's algorithm instead of one full matrix, every
count and measure is still jiwer's, through the API, the command line and ``mtscore explain``. Only
pairs beyond the documented bounds (``align.MAX_LONG_CELLS``, ``align.MAX_LONG_TOKENS``) are
refused, naming the segment, before any time or memory is spent on them."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import jiwer
import numpy as np
import pytest
from helpers import run, write

from mtscore.cli.common import EXIT_INPUT, EXIT_OK
from mtscore.errors import InputError
from mtscore.metrics.cer import corpus_cer, sentence_cers
from mtscore.metrics.wer import WER, align, corpus_wer, sentence_wers

TOLERANCE = 1e-9
WORDS = "der die das und ist nicht ein eine zu den von mit sich des auf für im dem Haus über".split()
LETTERS = "abcdefghij klmnöü"


def random_text(rng: random.Random, size: int, alphabet: list[str] | str, separator: str) -> str:
    return separator.join(rng.choice(alphabet) for _ in range(size))


def edited(rng: random.Random, tokens: list[str], alphabet: list[str] | str, rate: float) -> list[str]:
    """``tokens`` with about ``rate`` of them substituted, deleted or followed by an insertion."""
    out = []
    for token in tokens:
        roll = rng.random()
        if roll < rate / 3:
            out.append(rng.choice(alphabet))
        elif roll < 2 * rate / 3:
            continue
        elif roll < rate:
            out += [token, rng.choice(alphabet)]
        else:
            out.append(token)
    return out


def character_pair(seed: int, size: int, near: bool) -> tuple[str, str]:
    """(reference, hypothesis) of about ``size`` characters: unrelated, or a copy with 5% edits."""
    rng = random.Random(seed)
    reference = random_text(rng, size, LETTERS, "")
    if near:
        return reference, "".join(edited(rng, list(reference), LETTERS, 0.05))
    return reference, random_text(rng, size + rng.randrange(-size // 10, size // 10), LETTERS, "")


def word_pair(seed: int, size: int, near: bool) -> tuple[str, str]:
    """(reference, hypothesis) of about ``size`` words, as ``character_pair``."""
    rng = random.Random(seed)
    reference = random_text(rng, size, WORDS, " ")
    if near:
        return reference, " ".join(edited(rng, reference.split(), WORDS, 0.05))
    return reference, random_text(rng, size + rng.randrange(-size // 10, size // 10), WORDS, " ")


CHARACTER_CASES = {
    "2500-random": (2500, False),
    "2500-near": (2500, True),
    "10000-random": (10_000, False),
    "10000-near": (10_000, True),
}
WORD_CASES = {
    "400-random": (400, False),  # several hundred words: within the full matrix
    "400-near": (400, True),
    "3000-random": (3000, False),  # beyond it: rapidfuzz's Hirschberg path
    "3000-near": (3000, True),
}


def counts(result) -> tuple[int, int, int, int]:
    return result.hits, result.substitutions, result.deletions, result.insertions


@pytest.mark.parametrize("size, near", CHARACTER_CASES.values(), ids=CHARACTER_CASES.keys())
def test_cer_of_long_pairs_equals_jiwer(size, near):
    reference, hypothesis = character_pair(size, size, near)
    ours = corpus_cer(["short one", hypothesis, "x"], [["short on", reference, "y"]])
    theirs = jiwer.process_characters(["short on", reference, "y"], ["short one", hypothesis, "x"])
    assert counts(ours) == counts(theirs)
    assert math.isclose(ours.cer, theirs.cer, rel_tol=0, abs_tol=TOLERANCE)
    alone = jiwer.process_characters(reference, hypothesis)
    assert sentence_cers([hypothesis], [[reference]])[0] == pytest.approx(100 * alone.cer, abs=1e-7)


@pytest.mark.parametrize("size, near", WORD_CASES.values(), ids=WORD_CASES.keys())
def test_wer_and_its_measures_of_long_pairs_equal_jiwer(size, near):
    reference, hypothesis = word_pair(size, size, near)
    refs, hyps = ["a b c", reference], ["a c", hypothesis]
    ours = corpus_wer(hyps, [refs])
    theirs = jiwer.process_words(refs, hyps)
    assert counts(ours) == counts(theirs)
    for name in ("wer", "mer", "wil", "wip"):
        assert math.isclose(getattr(ours, name), getattr(theirs, name), rel_tol=0, abs_tol=TOLERANCE), name
    alone = jiwer.process_words(reference, hypothesis)
    assert sentence_wers([hypothesis], [[reference]])[0] == pytest.approx(100 * alone.wer, abs=1e-7)


def test_long_and_short_pairs_mixed_in_one_corpus():
    """Long pairs between short ones keep every segment's own counts (each as jiwer counts it alone)."""
    pairs = [character_pair(seed, 2600, seed % 2 == 0) for seed in range(4)]
    refs = [text for pair in pairs for text in (pair[0], "the cat")]
    hyps = [text for pair in pairs for text in (pair[1], "a cat")]
    statistics = corpus_cer(hyps, [refs])
    assert counts(statistics) == counts(jiwer.process_characters(refs, hyps))
    from mtscore.metrics.cer import CER

    per_segment = CER().segment_statistics(hyps, [refs])
    for row, reference, hypothesis in zip(per_segment, refs, hyps, strict=True):
        assert tuple(row) == counts(jiwer.process_characters(reference, hypothesis))


def test_alignment_of_a_long_pair_is_jiwers():
    """``explain`` shows the path the counts come from: jiwer's chunks, run for run."""
    reference, hypothesis = word_pair(7, 2500, True)
    result = WER().explain([hypothesis], [[reference]])
    chunks = jiwer.process_words(reference, hypothesis).alignments[0]
    kinds = ["equal", "substitute", "delete", "insert"]
    assert [(kinds[k], *span) for k, *span in result.segments[0].runs] == [
        (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in chunks
    ]


@pytest.mark.parametrize("metric", ["wer", "cer"])
def test_command_line_scores_long_pairs_as_jiwer(capsys, tmp_path, metric):
    reference, hypothesis = character_pair(11, 2500, False) if metric == "cer" else word_pair(11, 2500, False)
    refs, hyps = ["a b", reference], ["a c", hypothesis]
    ref_file, hyp_file = write(tmp_path / "ref", refs), write(tmp_path / "hyp", hyps)
    code, out, err = run(capsys, ref_file, "-i", hyp_file, "-m", metric, "-w", "6")
    assert (code, err) == (EXIT_OK, "")
    theirs = jiwer.process_characters(refs, hyps) if metric == "cer" else jiwer.process_words(refs, hyps)
    score = theirs.cer if metric == "cer" else theirs.wer
    assert json.loads(out)["score"] == pytest.approx(100 * score, abs=1e-6)
    h, s, d, i = counts(theirs)
    assert json.loads(out)["verbose_score"] == f"(H {h}, S {s}, D {d}, I {i})"


def test_explain_on_the_command_line_counts_a_long_pair_as_jiwer(capsys, tmp_path):
    reference, hypothesis = word_pair(5, 2200, False)
    ref_file, hyp_file = write(tmp_path / "ref", [reference]), write(tmp_path / "hyp", [hypothesis])
    code, out, _ = run(capsys, "explain", "-m", "wer", ref_file, "-i", hyp_file)
    h, s, d, i = counts(jiwer.process_words(reference, hypothesis))
    assert code == EXIT_OK
    assert f"hits H = {h}, substitutions S = {s}, deletions D = {d}, insertions I = {i}" in out


def test_pairs_beyond_the_bounds_are_refused_by_name(monkeypatch, capsys, tmp_path):
    """The bounds are lowered here, so that the refusal is tested without a pair of hours."""
    monkeypatch.setattr(align, "MAX_LONG_CELLS", 2000 * 2000)
    reference, hypothesis = character_pair(3, 3100, False)
    with pytest.raises(InputError, match=r"segment 2 is too long for CER: .* 3,\d{3} x \d,\d{3} tokens"):
        corpus_cer(["a", hypothesis], [["a", reference]])
    ref_file, hyp_file = write(tmp_path / "ref", ["a", reference]), write(tmp_path / "hyp", ["a", hypothesis])
    code, out, err = run(capsys, ref_file, "-i", hyp_file, "-m", "cer")
    assert code == EXIT_INPUT and out == "" and "segment 2 is too long for CER" in err and "Traceback" not in err
    monkeypatch.setattr(align, "MAX_LONG_TOKENS", 2999)
    monkeypatch.setattr(align, "MAX_LONG_CELLS", 1 << 40)
    reference, hypothesis = word_pair(3, 3100, False)
    with pytest.raises(InputError, match="segment 1 is too long for WER"):
        corpus_wer([hypothesis], [[reference]])


def test_the_bounds_refuse_what_rapidfuzz_cannot_do_in_time_or_memory():
    """A 50 MB line against another: 2.5e15 cells, refused at once; a thin long pair (few tokens on a
    side) stays within the full matrix, as before; 2**23 x 2**12 cells pass the cell bound but not
    the token bound."""
    assert align.MAX_LONG_CELLS == 1 << 36 and align.MAX_LONG_TOKENS == 1 << 22
    n_ref = np.array([50_000_000, 50_000_000, 250_000, 1 << 23, 2500])
    n_hyp = np.array([50_000_000, 9, 250_000, 1 << 12, 2500])
    assert align.within_bounds(n_ref, n_hyp).tolist() == [False, True, True, False, True]
    assert align.within_bounds(np.array([1 << 62]), np.array([1 << 62])).tolist() == [False]  # no int64 wrap


def test_import_mtscore_does_not_load_rapidfuzz_and_the_first_score_does():
    """rapidfuzz (jiwer's engine) aligns every CER pair and a WER call of a few segments: it is imported
    on the first score, never by ``import mtscore`` or the metrics' modules."""
    code = (
        "import sys, mtscore\n"
        "from mtscore.metrics.wer import corpus_wer\n"
        "from mtscore.metrics.cer import corpus_cer\n"
        "print('rapidfuzz' in sys.modules)\n"
        "corpus_wer(['a b c ' * 300], [['a b d ' * 300]]); corpus_cer(['abc' * 600], [['abd' * 600]])\n"
        "print('rapidfuzz' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "True"]
