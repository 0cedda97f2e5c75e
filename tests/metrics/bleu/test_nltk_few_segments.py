"""The NLTK drop-in counts a call of a few segments in plain Python (``metrics.bleu.small``) and more
with the vectorised engine: either way every score is NLTK's, to the last bit."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import nltk.translate.bleu_score as nltk_bleu
import pytest
from shared_data import read_lines, references, system_output

import mtscore.nltk
from mtscore.metrics.bleu.small import SMALL_SEGMENTS

METHODS = range(8)


@pytest.fixture(scope="module")
def corpus():
    hypotheses = [line.split() for line in read_lines(system_output("de-en", "Online-B"))[:400]]
    streams = [read_lines(path)[:400] for path in references("de-en", "all")]
    return hypotheses, [[stream[index].split() for stream in streams] for index in range(len(hypotheses))]


def _score_or_error(function, *args, **kwargs):
    """The score, or "refused" where the function raises (NLTK's method 6 without a trigram match)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(*args, **kwargs)
    except (ValueError, ZeroDivisionError, AssertionError):
        return "refused"


@pytest.mark.parametrize("method", METHODS)
def test_every_segments_sentence_bleu_is_nltks(corpus, method):
    hypotheses, segment_references = corpus
    ours = getattr(mtscore.nltk.SmoothingFunction(), f"method{method}")
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    for hypothesis, refs in zip(hypotheses, segment_references, strict=True):
        expected = _score_or_error(nltk_bleu.sentence_bleu, refs, hypothesis, smoothing_function=theirs)
        assert _score_or_error(mtscore.nltk.sentence_bleu, refs, hypothesis, smoothing_function=ours) == expected


@pytest.mark.parametrize("size", [1, 5, SMALL_SEGMENTS, SMALL_SEGMENTS + 1])
@pytest.mark.parametrize("method", METHODS)
def test_corpus_bleu_of_a_few_segments_and_of_more_is_nltks(corpus, size, method):
    """``corpus_bleu_as_nltk`` is NLTK's corpus_bleu; ``corpus_bleu`` is too for methods 0-4 and one segment."""
    hypotheses, segment_references = corpus
    ours = getattr(mtscore.nltk.SmoothingFunction(), f"method{method}")
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    for start in range(0, 200, size):
        refs, hyps = segment_references[start : start + size], hypotheses[start : start + size]
        expected = _score_or_error(nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=theirs)
        assert _score_or_error(mtscore.nltk.corpus_bleu_as_nltk, refs, hyps, smoothing_function=ours) == expected
        if method <= 4 or size == 1:
            assert _score_or_error(mtscore.nltk.corpus_bleu, refs, hyps, smoothing_function=ours) == expected


@pytest.mark.parametrize("weights", [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.2, 0.2)])
def test_other_weights_and_auto_reweigh_are_nltks(corpus, weights):
    hypotheses, segment_references = corpus
    smoothing = mtscore.nltk.SmoothingFunction().method1, nltk_bleu.SmoothingFunction().method1
    for hypothesis, refs in zip(hypotheses[:100], segment_references[:100], strict=True):
        for auto_reweigh in (False, True):
            for candidate in (hypothesis, hypothesis[:2]):
                expected = nltk_bleu.sentence_bleu(refs, candidate, weights, smoothing[1], auto_reweigh)
                assert mtscore.nltk.sentence_bleu(refs, candidate, weights, smoothing[0], auto_reweigh) == expected


def test_an_int_and_a_float_smoothing_value_each_give_nltks_score(corpus):
    """NLTK keeps fractions exact with an int alpha (method 6) and not with a float: scored one after the
    other, each call is NLTK's own."""
    hypotheses, segment_references = corpus
    for hypothesis, refs in zip(hypotheses[:100], segment_references[:100], strict=True):
        for alpha in (5, 5.0, 5, 3, 3.0):
            ours = mtscore.nltk.SmoothingFunction(alpha=alpha).method6
            theirs = nltk_bleu.SmoothingFunction(alpha=alpha).method6
            expected = _score_or_error(nltk_bleu.sentence_bleu, refs, hypothesis, smoothing_function=theirs)
            assert _score_or_error(mtscore.nltk.sentence_bleu, refs, hypothesis, smoothing_function=ours) == expected


@pytest.fixture(scope="module")
def every_segment():
    """Every WMT22 de-en Online-A segment against both references."""
    hypotheses = [line.split() for line in read_lines(system_output("de-en", "Online-A"))]
    streams = [read_lines(path) for path in references("de-en", "all")]
    return hypotheses, [[stream[index].split() for stream in streams] for index in range(len(hypotheses))]


@pytest.mark.parametrize("method", METHODS)
def test_sentence_bleu_of_every_de_en_segment_is_nltks_to_the_bit(every_segment, method):
    """One call per segment (the plain-Python counting and NLTK's arithmetic on integers and floats)."""
    hypotheses, segment_references = every_segment
    ours = getattr(mtscore.nltk.SmoothingFunction(), f"method{method}")
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    for hypothesis, refs in zip(hypotheses, segment_references, strict=True):
        expected = _score_or_error(nltk_bleu.sentence_bleu, refs, hypothesis, smoothing_function=theirs)
        assert _score_or_error(mtscore.nltk.sentence_bleu, refs, hypothesis, smoothing_function=ours) == expected


@pytest.mark.parametrize("weights", [(0.5, 0.5), (0.4, 0.3, 0.2, 0.1), (0.2, 0.2, 0.2, 0.2, 0.2), (1, 0, 0)])
@pytest.mark.parametrize("method", METHODS)
def test_every_method_with_other_weights_is_nltks(corpus, method, weights):
    """Methods 5 and 7 average each order with the next one (after the last: the 5-gram precision), for
    any number of orders; int weights are NLTK's too."""
    if method == 6 and len(weights) < 3:
        pytest.skip("method 6 needs three orders: NLTK fails with an IndexError, the drop-in refuses it clearly")
    hypotheses, segment_references = corpus
    ours = getattr(mtscore.nltk.SmoothingFunction(), f"method{method}")
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    for hypothesis, refs in zip(hypotheses[:150], segment_references[:150], strict=True):
        expected = _score_or_error(nltk_bleu.sentence_bleu, refs, hypothesis, weights, theirs)
        assert _score_or_error(mtscore.nltk.sentence_bleu, refs, hypothesis, weights, ours) == expected


class _Tokens(Sequence):
    """A sequence that is neither a list nor a tuple: checked and converted, not taken as it is."""

    def __init__(self, tokens):
        self._tokens = list(tokens)

    def __getitem__(self, index):
        return self._tokens[index]

    def __len__(self):
        return len(self._tokens)


@pytest.mark.parametrize("wrap", [list, tuple, _Tokens], ids=["lists", "tuples", "other sequences"])
def test_lists_tuples_and_other_sequences_of_tokens_score_alike(corpus, wrap):
    hypotheses, segment_references = corpus
    smoothing = mtscore.nltk.SmoothingFunction().method7, nltk_bleu.SmoothingFunction().method7
    for hypothesis, refs in zip(hypotheses[:50], segment_references[:50], strict=True):
        expected = nltk_bleu.sentence_bleu(refs, hypothesis, smoothing_function=smoothing[1])
        wrapped = wrap([wrap(reference) for reference in refs]), wrap(hypothesis)
        assert mtscore.nltk.sentence_bleu(*wrapped, smoothing_function=smoothing[0]) == expected


def test_a_repeated_n_gram_is_clipped_to_its_count_in_the_reference_that_has_most():
    references = [["the", "the", "cat", "the", "cat"], ["the", "cat", "the", "cat", "the", "cat"]]
    hypothesis = ["the", "cat", "the", "cat", "the", "cat", "the", "cat", "the"]
    for method in METHODS:
        ours = getattr(mtscore.nltk.SmoothingFunction(), f"method{method}")
        theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
        expected = _score_or_error(nltk_bleu.sentence_bleu, references, hypothesis, smoothing_function=theirs)
        assert _score_or_error(mtscore.nltk.sentence_bleu, references, hypothesis, smoothing_function=ours) == expected
    oracle = nltk_bleu.modified_precision(references, hypothesis, 2)
    assert (oracle.numerator, oracle.denominator) == (5, 8)  # "the cat" 3 + "cat the" 2 of the 8 bigrams
