"""The NLTK drop-in's Google-BLEU and NIST (``mtscore.nltk.corpus_gleu``, ``sentence_gleu``,
``corpus_nist``, ``sentence_nist``) take NLTK's token lists and give NLTK's floats: a few segments
counted in plain Python (to the bit), more by the vectorised engine (Google-BLEU to the bit, NIST
within 1e-9: its sums of information weights are added in another order)."""

from __future__ import annotations

import math

import pytest
from nltk.translate import gleu_score, nist_score
from shared_data import read_lines, references, system_output

import mtscore.nltk as drop_in
from mtscore.errors import InputError
from mtscore.metrics.bleu.small import SMALL_SEGMENTS


@pytest.fixture(scope="module")
def corpus():
    """Every WMT22 de-en Online-A segment (whitespace tokens) against both references."""
    hypotheses = [line.split() for line in read_lines(system_output("de-en", "Online-A"))]
    streams = [read_lines(path) for path in references("de-en", "all")]
    return hypotheses, [[stream[index].split() for stream in streams] for index in range(len(hypotheses))]


def _nltk_nist(function, *args, **kwargs):
    """NLTK's NIST, or "refused" where it divides by zero (a hypothesis shorter than n)."""
    try:
        return function(*args, **kwargs)
    except ZeroDivisionError:
        return "refused"


def _our_nist(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except InputError:
        return "refused"


@pytest.mark.parametrize("orders", [(1, 4), (2, 3), (1, 1), (3, 6)])
def test_sentence_gleu_of_every_de_en_segment_is_nltks_to_the_bit(corpus, orders):
    hypotheses, segment_references = corpus
    for hypothesis, refs in zip(hypotheses, segment_references, strict=True):
        expected = gleu_score.sentence_gleu(refs, hypothesis, *orders)
        assert drop_in.sentence_gleu(refs, hypothesis, *orders) == expected
        assert drop_in.sentence_gleu(refs[:1], hypothesis, *orders) == gleu_score.sentence_gleu(
            refs[:1], hypothesis, *orders
        )


@pytest.mark.parametrize("size", [1, 7, SMALL_SEGMENTS, SMALL_SEGMENTS + 1, 2000])
def test_corpus_gleu_of_a_few_segments_and_of_many_is_nltks_to_the_bit(corpus, size):
    hypotheses, segment_references = corpus
    for start in range(0, min(len(hypotheses), 3 * size), size):
        refs, hyps = segment_references[start : start + size], hypotheses[start : start + size]
        assert drop_in.corpus_gleu(refs, hyps) == gleu_score.corpus_gleu(refs, hyps)


@pytest.mark.parametrize("n", [5, 4, 2, 1])
def test_sentence_nist_of_every_de_en_segment_is_nltks_to_the_bit(corpus, n):
    hypotheses, segment_references = corpus
    refused = 0
    for hypothesis, refs in zip(hypotheses, segment_references, strict=True):
        expected = _nltk_nist(nist_score.sentence_nist, refs, hypothesis, n)
        assert _our_nist(drop_in.sentence_nist, refs, hypothesis, n) == expected
        refused += expected == "refused"
    assert refused < len(hypotheses) / 10


@pytest.mark.parametrize("size", [3, SMALL_SEGMENTS])
def test_corpus_nist_of_a_few_segments_is_nltks_to_the_bit(corpus, size):
    hypotheses, segment_references = corpus
    for start in range(0, 6 * size, size):
        refs, hyps = segment_references[start : start + size], hypotheses[start : start + size]
        assert _our_nist(drop_in.corpus_nist, refs, hyps) == _nltk_nist(nist_score.corpus_nist, refs, hyps)


def test_corpus_nist_of_many_segments_is_nltks_within_1e_9(corpus):
    hypotheses, segment_references = corpus
    for refs in (segment_references, [segment[:1] for segment in segment_references]):
        expected = nist_score.corpus_nist(refs, hypotheses)
        assert math.isclose(drop_in.corpus_nist(refs, hypotheses), expected, rel_tol=0, abs_tol=1e-9)


def test_tokens_that_are_not_str_are_counted_as_nltk_counts_them():
    references = [[1, 2, 3, 4, 5, 6, 7], [1, 2.0, 3, True, 5, 9, 7]]
    hypothesis = [1, 2, 3, 1, 5, 6, 7, 8]
    assert drop_in.sentence_gleu(references, hypothesis) == gleu_score.sentence_gleu(references, hypothesis)
    assert drop_in.sentence_nist(references, hypothesis) == nist_score.sentence_nist(references, hypothesis)
    many = ([references] * (SMALL_SEGMENTS + 1), [hypothesis] * (SMALL_SEGMENTS + 1))
    assert drop_in.corpus_gleu(*many) == gleu_score.corpus_gleu(*many)
    assert math.isclose(drop_in.corpus_nist(*many), nist_score.corpus_nist(*many), abs_tol=1e-9)


def test_nist_refuses_hypotheses_shorter_than_n_where_nltk_divides_by_zero():
    with pytest.raises(ZeroDivisionError):
        nist_score.sentence_nist([["a", "b", "c"]], ["a", "b"], 3)
    with pytest.raises(InputError, match=r"n=3 needs a hypothesis of at least 3 tokens.*use n=2 or less"):
        drop_in.sentence_nist([["a", "b", "c"]], ["a", "b"], 3)
    with pytest.raises(InputError, match="every reference is empty"):
        drop_in.corpus_nist([[[]], [[]]], [["a"], ["b"]], 1)


def test_bad_arguments_are_input_errors_that_name_them():
    with pytest.raises(InputError, match="corpus_gleu takes a list of reference lists"):
        drop_in.corpus_gleu("the cat", ["the", "cat"])
    with pytest.raises(InputError, match="hypothesis 0 is a str"):
        drop_in.sentence_gleu([["the", "cat"]], "the cat")
    with pytest.raises(InputError, match="segment 0, reference 0 holds a token of type list"):
        drop_in.sentence_nist([[1, [2], 3]], [1, 2, 3], 1)
    with pytest.raises(InputError, match="max_len \\(1\\) is below min_len \\(2\\)"):
        drop_in.sentence_gleu([["a", "b"]], ["a", "b"], 2, 1)
    with pytest.raises(InputError, match="max_order must be a positive integer up to 9, got 10"):
        drop_in.sentence_nist([["a", "b"]], ["a", "b"], 10)
    with pytest.raises(InputError, match="1 hypothesis but 2 reference lists"):
        drop_in.corpus_nist([[["a"]], [["b"]]], [["a"]], 1)


def test_systems_scored_one_after_another_and_references_changed_in_place_are_nltks(corpus):
    """References prepared for one call serve the next with equal references, never changed ones."""
    hypotheses, segment_references = corpus
    refs = [[list(reference) for reference in segment] for segment in segment_references[:300]]
    systems = [hypotheses[:300], hypotheses[300:600], hypotheses[:300]]
    for system in systems:
        assert drop_in.corpus_gleu(refs, system) == gleu_score.corpus_gleu(refs, system)
        assert math.isclose(drop_in.corpus_nist(refs, system), nist_score.corpus_nist(refs, system), abs_tol=1e-9)
    refs[5][0][0] = "changed"
    refs[7][1].append("more")
    for system in systems[:2]:
        assert drop_in.corpus_gleu(refs, system) == gleu_score.corpus_gleu(refs, system)
        assert math.isclose(drop_in.corpus_nist(refs, system), nist_score.corpus_nist(refs, system), abs_tol=1e-9)


def test_tokens_with_nul_or_beyond_ascii_are_single_tokens_as_in_nltk():
    references = [["a\x00b", "ü", "日本", "c", "a", "b"] * 12, ["x", "a\x00b", "ü"] * 20]
    hypothesis = ["a\x00b", "ü", "日本", "a", "b", "c", "x"] * 10
    many = ([references] * (SMALL_SEGMENTS + 1), [hypothesis, hypothesis[::-1]] * (SMALL_SEGMENTS // 2) + [["a"]])
    assert drop_in.corpus_gleu(*many) == gleu_score.corpus_gleu(*many)
    assert math.isclose(drop_in.corpus_nist(*many, n=1), nist_score.corpus_nist(*many, n=1), abs_tol=1e-9)
    plain = ([[["a", "b", "ü", "日本"]]] * (SMALL_SEGMENTS + 1), [["a", "ü", "日本", "b"]] * (SMALL_SEGMENTS + 1))
    assert drop_in.corpus_gleu(*plain) == gleu_score.corpus_gleu(*plain)


def test_corpus_gleu_on_the_engine_counts_awkward_tokens_as_nltk_does():
    """Past the plain-Python size, tokens are numbered by a dict of the references' tokens: empty,
    NUL-holding, long, non-ASCII and case-differing tokens, and tokens no reference has (one shared
    key that matches nothing), count as NLTK counts them."""
    words = ["", "\x00", "a\x00b", "Haus", "haus", "Straße", "日本語", "x" * 40, "a", "b", "c", "."]
    hyps, refs = [], []
    for i in range(SMALL_SEGMENTS * 3):
        reference = [words[(i * 7 + k) % len(words)] for k in range(i % 9 + 1)]
        hypothesis = [*reference[: i % 5], f"unseen-{i % 3}", *reference[i % 5 :], "unseen-0"]
        hyps.append(hypothesis if i % 4 else hypothesis[::-1])
        refs.append([reference, reference[::-1]] if i % 2 else [reference])
    assert drop_in.corpus_gleu(refs, hyps) == gleu_score.corpus_gleu(refs, hyps)
    assert drop_in.corpus_gleu(refs, hyps, 2, 3) == gleu_score.corpus_gleu(refs, hyps, 2, 3)
    others = [hypothesis[1:] for hypothesis in hyps]  # references kept from the last call
    assert drop_in.corpus_gleu(refs, others, 2, 3) == gleu_score.corpus_gleu(refs, others, 2, 3)
