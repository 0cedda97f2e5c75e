"""WER (with MER, WIL, WIP) and CER equal jiwer 4.0's: hits, substitutions, deletions and insertions
exactly (rapidfuzz's alignment), measures to 1e-9, with both word transformations, on WMT22
data and on generated text; one reference per segment; clear input errors."""

from __future__ import annotations

import math

import jiwer
import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from shared_data import read_lines, references, system_output

from mtscore.core.signature import TOOL_VERSION
from mtscore.errors import InputError
from mtscore.metrics import metric_class
from mtscore.metrics.cer import CER, corpus_cer, sentence_cer, sentence_cers
from mtscore.metrics.wer import WER, align, corpus_wer, sentence_wer, sentence_wers
from mtscore.metrics.wer.metric import jiwer_measures

TOLERANCE = 1e-9
SYSTEMS = ["Online-B", "JDExploreAcademy", "PROMT", "Lan-Bridge"]
KINDS = {"equal": align.HIT, "replace": align.SUBSTITUTION, "delete": align.DELETION, "insert": align.INSERTION}


def jiwer_words(refs, hyps, standardize=False):
    transform = jiwer.wer_standardize if standardize else jiwer.wer_default
    return jiwer.process_words(refs, hyps, reference_transform=transform, hypothesis_transform=transform)


def counts(result) -> tuple[int, int, int, int]:
    return result.hits, result.substitutions, result.deletions, result.insertions


def same_words(ours, theirs) -> None:
    assert counts(ours) == counts(theirs)
    for name in ("wer", "mer", "wil", "wip"):
        assert math.isclose(getattr(ours, name), getattr(theirs, name), rel_tol=0, abs_tol=TOLERANCE), name
    assert math.isclose(ours.score, 100 * theirs.wer, rel_tol=0, abs_tol=1e-7)


def same_characters(ours, theirs) -> None:
    assert counts(ours) == counts(theirs)
    assert math.isclose(ours.cer, theirs.cer, rel_tol=0, abs_tol=TOLERANCE)
    assert math.isclose(ours.score, 100 * theirs.cer, rel_tol=0, abs_tol=1e-7)


# WMT22 en-de: several systems, corpus and every segment.


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("standardize", [False, True], ids=["default", "standardize"])
def test_wmt22_wer_equals_jiwer(system, standardize):
    refs = read_lines(references("en-de", "A")[0])
    hyps = read_lines(system_output("en-de", system))
    metric = WER([refs], standardize=standardize)
    same_words(metric.corpus_score(hyps), jiwer_words(refs, hyps, standardize))
    rows = metric.segment_statistics(hyps)
    expected = [counts(jiwer_words(r, h, standardize)) for r, h in zip(refs, hyps, strict=True)]
    assert rows.tolist() == [list(row) for row in expected]


@pytest.mark.parametrize("system", SYSTEMS)
def test_wmt22_cer_equals_jiwer(system):
    refs = read_lines(references("en-de", "A")[0])
    hyps = read_lines(system_output("en-de", system))
    metric = CER([refs])
    same_characters(metric.corpus_score(hyps), jiwer.process_characters(refs, hyps))
    rows = metric.segment_statistics(hyps)
    expected = [counts(jiwer.process_characters(r, h)) for r, h in zip(refs, hyps, strict=True)]
    assert rows.tolist() == [list(row) for row in expected]
    scores = metric.sentence_scores(hyps)
    assert np.allclose(scores, [100 * jiwer.cer(r, h) for r, h in zip(refs, hyps, strict=True)], rtol=0, atol=1e-7)


def test_wmt22_reference_b_as_hypothesis():
    refs = read_lines(references("en-de", "A")[0])
    other = read_lines(references("en-de", "B")[0])
    same_words(corpus_wer(other, [refs]), jiwer_words(refs, other))
    same_characters(corpus_cer(other, [refs]), jiwer.process_characters(refs, other))


# Generated text: adversarial spacing, repeats, unicode, very different lengths.

WORDS = st.sampled_from(["a", "b", "c", "the", "The", "cat", "won't", "it's", "[laugh]", "<unk>", "Ünï", "猫", "x."])
SPACES = st.sampled_from([" ", "  ", "\t", " \t", "\n", "\u00a0", "\u3000", " \r\n "])
TEXT = st.one_of(
    st.lists(st.tuples(WORDS, SPACES), max_size=25).map(lambda parts: "".join(w + s for w, s in parts)),
    st.text(alphabet=st.sampled_from("ab \t\u00a0é"), max_size=40),
    st.text(max_size=30),
)
PAIRS = st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=8)


@fixed(max_examples=300)
@given(PAIRS, st.booleans())
def test_generated_words_equal_jiwer(pairs, standardize):
    refs, hyps = [list(x) for x in zip(*pairs, strict=True)]
    metric = WER(standardize=standardize)
    same_words(metric.corpus_score(hyps, [refs]), jiwer_words(refs, hyps, standardize))
    for row, (r, h) in zip(metric.segment_statistics(hyps, [refs]), pairs, strict=True):
        assert tuple(row) == counts(jiwer_words(r, h, standardize))


@fixed(max_examples=300)
@given(PAIRS)
def test_generated_characters_equal_jiwer(pairs):
    refs, hyps = [list(x) for x in zip(*pairs, strict=True)]
    same_characters(corpus_cer(hyps, [refs]), jiwer.process_characters(refs, hyps))
    for row, (r, h) in zip(CER().segment_statistics(hyps, [refs]), pairs, strict=True):
        assert tuple(row) == counts(jiwer.process_characters(r, h))


SEQUENCES = st.lists(st.integers(0, 3), max_size=150)


@fixed(max_examples=300)
@given(st.lists(st.tuples(SEQUENCES, SEQUENCES), min_size=1, max_size=10))
def test_alignment_is_rapidfuzz_opcodes(pairs):
    """Small alphabets and long sequences (past 64 tokens: rapidfuzz's multi-word matrices) give
    many equally short paths: the one taken must be rapidfuzz's."""
    found = align.edit_counts(align.Pairs.of([np.array(r) for r, _ in pairs], [np.array(h) for _, h in pairs]))
    for row, (ref, hyp) in zip(found, pairs, strict=True):
        expected = [(KINDS[tag], *span) for tag, *span in Levenshtein.opcodes(ref, hyp)]
        assert align.opcodes(np.array(ref), np.array(hyp)) == expected
        assert row.tolist() == rapidfuzz_counts(ref, hyp)


def rapidfuzz_counts(ref: list[int], hyp: list[int]) -> list[int]:
    """[H, S, D, I] of rapidfuzz's opcodes, as jiwer counts them."""
    tally = [0, 0, 0, 0]
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(ref, hyp):
        tally[KINDS[tag]] += j2 - j1 if tag == "insert" else i2 - i1
    return tally


@pytest.mark.parametrize("steps_kept", [1, 10**6])
def test_match_vectors_looked_up_and_steps_counted(monkeypatch, steps_kept):
    """Match vectors looked up per token (Hyyrö's pattern-match vectors) whatever the reference's
    words, and the walk-back's steps counted at every step or at the end: rapidfuzz's
    counts either way, unknown hypothesis tokens (-1) included."""
    monkeypatch.setattr(align, "_STEPS_KEPT", steps_kept)
    rng = np.random.default_rng(2)
    refs = [rng.integers(0, 4, size=int(n)) for n in rng.integers(0, 200, size=30)]
    hyps = [rng.integers(-1, 4, size=int(n)) for n in rng.integers(0, 200, size=30)]
    found = align.edit_counts(align.Pairs.of(refs, hyps))
    for row, ref, hyp in zip(found, refs, hyps, strict=True):
        assert row.tolist() == rapidfuzz_counts(list(ref), list(hyp))


def test_long_pairs_in_many_batches(monkeypatch):
    monkeypatch.setattr(align, "_BATCH_BUDGET", 200)
    rng = np.random.default_rng(1)
    refs = [rng.integers(0, 3, size=int(n)) for n in rng.integers(0, 300, size=40)]
    hyps = [rng.integers(0, 3, size=int(n)) for n in rng.integers(0, 300, size=40)]
    found = align.edit_counts(align.Pairs.of(refs, hyps))
    for row, ref, hyp in zip(found, refs, hyps, strict=True):
        assert row.tolist() == rapidfuzz_counts(list(ref), list(hyp))


# Edge cases: jiwer's answers for empty references and hypotheses, never NaN.


@pytest.mark.parametrize(
    "refs,hyps",
    [
        ([""], ["a b c"]),
        ([""], [""]),
        (["", ""], ["", "a"]),
        (["a b"], [""]),
        (["", "a"], ["a b", "a"]),
        ([" "], ["\t"]),
    ],
)
def test_empty_sides_as_jiwer(refs, hyps):
    same_words(corpus_wer(hyps, [refs]), jiwer_words(refs, hyps))
    same_characters(corpus_cer(hyps, [refs]), jiwer.process_characters(refs, hyps))


def test_no_reference_words_scores_the_insertions():
    """jiwer's WER with no reference words is the number of insertions (3 here): 300 percent."""
    assert corpus_wer(["a b c"], [[""]]).score == 300.0
    assert sentence_wers(["a b c", ""], [["", ""]]).tolist() == [300.0, 0.0]


def test_jiwer_measures_formulas():
    result = jiwer.process_words("a b c d e", "a x c e y")
    ours = jiwer_measures(result.hits, result.substitutions, result.deletions, result.insertions)
    assert ours == {"wer": result.wer, "mer": result.mer, "wil": result.wil, "wip": result.wip}


# The API: functions, signature, statistics and options.


def test_functions_and_sentence_scores():
    refs, hyps = ["the cat sat on the mat", "a b c"], ["the cat sit on mat", "a b c d"]
    assert corpus_wer(hyps, [refs]) == WER([refs]).corpus_score(hyps)
    assert sentence_wer(hyps[0], [refs[0]]).wer == pytest.approx(jiwer.wer(refs[0], hyps[0]), abs=TOLERANCE)
    assert sentence_cer(hyps[1], [refs[1]]).cer == pytest.approx(jiwer.cer(refs[1], hyps[1]), abs=TOLERANCE)
    assert np.allclose(sentence_wers(hyps, [refs]), [100 * jiwer.wer(r, h) for r, h in zip(refs, hyps, strict=True)])
    assert np.allclose(sentence_cers(hyps, [refs]), [100 * jiwer.cer(r, h) for r, h in zip(refs, hyps, strict=True)])


def test_signature_records_the_transform():
    assert str(WER().signature()) == f"nrefs:1|tf:default|version:{TOOL_VERSION}"
    assert str(WER(standardize=True).signature()) == f"nrefs:1|tf:standardize|version:{TOOL_VERSION}"
    assert str(CER().signature()) == f"nrefs:1|tf:default|version:{TOOL_VERSION}"


def test_registry_and_direction():
    assert metric_class("wer") is WER and metric_class("cer") is CER
    assert not WER.higher_is_better and not CER.higher_is_better


def test_statistics_merge_and_resample():
    refs = ["a b c d", "e f g", "h i"]
    hyps = ["a x c d", "e g", "h i j k"]
    metric = WER([refs])
    statistics = metric.statistics(hyps)
    merged = metric.statistics(hyps[:1], [refs[:1]]) + metric.statistics(hyps[1:], [refs[1:]])
    assert metric.score_statistics(merged) == metric.score_statistics(statistics) == metric.corpus_score(hyps)
    assert metric.scores_of_sums(statistics.matrix.sum(axis=0).astype(np.float32)) == pytest.approx(
        100 * jiwer.wer(refs, hyps)
    )


def test_text_and_json_forms():
    result = corpus_wer(["the cat sit"], [["the cat sat"]])
    assert result.format() == "WER = 33.33 (H 2, S 1, D 0, I 0)"
    assert result.to_dict() == {
        "name": "WER",
        "score": 100 * (1 / 3),
        "wer": 1 / 3,
        "mer": 1 / 3,
        "wil": 1 - (2 / 3) * (2 / 3),
        "wip": (2 / 3) * (2 / 3),
        "hits": 2,
        "substitutions": 1,
        "deletions": 0,
        "insertions": 0,
    }
    assert corpus_cer(["ab"], [["abc"]]).to_dict()["cer"] == pytest.approx(1 / 3)


# Bad input: clear messages.


def test_several_references_are_refused():
    with pytest.raises(InputError, match="one reference, as jiwer does; got 2 reference streams"):
        corpus_wer(["a"], [["a"], ["b"]])
    with pytest.raises(InputError, match="one reference"):
        CER([["a"], ["b"]])


def test_missing_reference_is_refused():
    with pytest.raises(InputError, match="segment 1 has no reference"):
        corpus_wer(["a", "b"], [["a", None]])


def test_pair_beyond_rapidfuzz_full_matrix_is_scored_as_jiwer():
    """rapidfuzz aligns middles of 2048 x 2048 characters and more with Hirschberg's algorithm: such
    a pair is aligned by rapidfuzz itself, and counted as jiwer counts it."""
    rng = np.random.default_rng(0)
    ref = "".join(rng.choice(list("abc"), size=2100))
    hyp = "".join(rng.choice(list("abc"), size=2100))
    same_characters(corpus_cer(["a", hyp], [["a", ref]]), jiwer.process_characters(["a", ref], ["a", hyp]))
    assert corpus_cer([ref[:2000]], [[hyp[:2000]]]).cer == pytest.approx(jiwer.cer(hyp[:2000], ref[:2000]))
    assert align.full_matrix(np.array([2047, 64, 5000]), np.array([2048, 10**6, 9])).tolist() == [True, True, True]
    assert align.full_matrix(np.array([2048, 65]), np.array([2048, 64528])).tolist() == [False, False]
