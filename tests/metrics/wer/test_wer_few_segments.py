"""A call of a few WER or CER segments is aligned one pair at a time in plain Python, on rapidfuzz's path
(jiwer's engine): its counts, rates and signature are jiwer's and the vectorised engine's."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from shared_data import read_lines, references, system_output

import mtscore
from mtscore.metrics.wer.align import DELETION, HIT, INSERTION, SUBSTITUTION
from mtscore.metrics.wer.metric import SMALL_SEGMENTS
from mtscore.metrics.wer.small import edit_row

TRICKY_PAIRS = [
    ("", "a b"),
    ("a b", ""),
    ("", ""),
    ("   ", "a"),
    ("a  b\tc", "a b c"),
    ("the the the", "the"),
    ("a b", "b c"),
    ("lone \ud800 surrogate", "lone surrogate"),
]


def _counts(result):
    return result.hits, result.substitutions, result.deletions, result.insertions


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output("de-en", "Online-B"))[:600]
    return hypotheses, read_lines(references("de-en", "A")[0])[:600]


@pytest.mark.parametrize("standardize", [False, True])
def test_every_segments_wer_is_jiwers(corpus, standardize):
    transform = jiwer.wer_standardize if standardize else jiwer.wer_default
    for hypothesis, reference in zip(*corpus, strict=True):
        ours = mtscore.sentence_wer(hypothesis, [reference], standardize=standardize)
        theirs = jiwer.process_words(
            reference, hypothesis, reference_transform=transform, hypothesis_transform=transform
        )
        assert _counts(ours) == _counts(theirs)
        assert (ours.wer, ours.mer, ours.wil, ours.wip) == (theirs.wer, theirs.mer, theirs.wil, theirs.wip)


def test_every_segments_cer_is_jiwers(corpus):
    for hypothesis, reference in zip(*corpus, strict=True):
        ours = mtscore.sentence_cer(hypothesis, [reference])
        theirs = jiwer.process_characters(reference, hypothesis)
        assert _counts(ours) == _counts(theirs)
        assert ours.cer == theirs.cer


@pytest.mark.parametrize("metric", [mtscore.WER, mtscore.CER])
@pytest.mark.parametrize("size", [1, 5, SMALL_SEGMENTS, SMALL_SEGMENTS + 1])
def test_a_few_segments_count_as_the_vectorised_engine(corpus, metric, size):
    """References given at creation take the vectorised path; given with the call, the small one up to
    ``SMALL_SEGMENTS``."""
    hypotheses, reference_lines = corpus
    for start in range(0, 200, size):
        chunk, refs = hypotheses[start : start + size], [reference_lines[start : start + size]]
        ours, engine = metric().corpus_score(chunk, refs), metric(refs).corpus_score(chunk)
        assert (_counts(ours), ours.score, str(ours.signature)) == (
            _counts(engine),
            engine.score,
            str(engine.signature),
        )
        assert metric().sentence_scores(chunk, refs).tolist() == metric(refs).sentence_scores(chunk).tolist()


@pytest.mark.parametrize(("reference", "hypothesis"), TRICKY_PAIRS)
@pytest.mark.parametrize(
    ("metric", "options"), [(mtscore.WER, {}), (mtscore.WER, {"standardize": True}), (mtscore.CER, {})]
)
def test_tricky_pairs_count_as_the_vectorised_engine(reference, hypothesis, metric, options):
    ours = metric(**options).corpus_score([hypothesis], [[reference]])
    expected = metric([[reference]], **options).corpus_score([hypothesis])
    assert (_counts(ours), ours.score) == (_counts(expected), expected.score)


def test_two_reference_streams_and_missing_references_are_refused_as_before():
    with pytest.raises(mtscore.InputError, match="one reference"):
        mtscore.corpus_wer(["a"], [["a"], ["b"]])
    with pytest.raises(mtscore.InputError, match="segment 0 has no reference"):
        mtscore.corpus_cer(["a"], [[None]])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=80),
    st.lists(st.sampled_from("abcd"), max_size=80),
)
def test_plain_alignment_counts_are_rapidfuzzs(ref, hyp):
    """Few symbols, so that many paths tie: the counts are those of rapidfuzz's own opcodes (jiwer's)."""
    expected = [0, 0, 0, 0]
    kinds = {"equal": HIT, "replace": SUBSTITUTION, "delete": DELETION, "insert": INSERTION}
    for run in Levenshtein.opcodes(ref, hyp):
        kind = kinds[run.tag]
        expected[kind] += run.dest_end - run.dest_start if kind == INSERTION else run.src_end - run.src_start
    assert edit_row(ref, hyp) == expected
