"""CER's corpus path aligns every pair of characters by rapidfuzz, one pair at a time (``align``): its
counts are jiwer's ``process_characters`` counts, segment by segment and summed over whole systems."""

from __future__ import annotations

import jiwer
import pytest
from shared_data import read_lines, references, system_output

import mtscore

TRICKY_PAIRS = [
    ("", "abc"),
    ("abc", ""),
    ("", ""),
    ("   ", "a"),
    ("a  b\tc", "a b c"),
    ("lone \ud800 surrogate \udfff", "lone surrogate"),
    ("漢字とかなの文 🙂👍🏽", "漢字と仮名の文 🙂👍"),
    ("e\u0301te\u0301", "\u00e9t\u00e9"),
    ("aaaaaaaaaa", "aaaaa"),
    ("abcabcabc", "cbacbacba"),
]


def _counts(result):
    return result.hits, result.substitutions, result.deletions, result.insertions


@pytest.mark.parametrize("system", ["Online-A", "Online-B"])
def test_a_whole_systems_counts_are_jiwers(system):
    hypotheses = read_lines(system_output("de-en", system))
    reference_lines = read_lines(references("de-en", "A")[0])
    ours = mtscore.CER([reference_lines]).corpus_score(hypotheses)
    theirs = jiwer.process_characters(reference_lines, hypotheses)
    assert _counts(ours) == _counts(theirs)
    assert ours.cer == theirs.cer


def test_every_segments_counts_are_jiwers_on_the_corpus_path():
    """References given at creation: the corpus path, each segment scored alone and every segment at once."""
    hypotheses = read_lines(system_output("de-en", "Online-B"))
    reference_lines = read_lines(references("de-en", "A")[0])
    rows = mtscore.CER([reference_lines]).segment_statistics(hypotheses)
    for index, (hypothesis, reference) in enumerate(zip(hypotheses, reference_lines, strict=True)):
        theirs = jiwer.process_characters(reference, hypothesis)
        expected = [theirs.hits, theirs.substitutions, theirs.deletions, theirs.insertions]
        assert list(_counts(mtscore.CER([[reference]]).corpus_score([hypothesis]))) == expected
        assert [int(value) for value in rows[index]] == expected


@pytest.mark.parametrize(("reference", "hypothesis"), TRICKY_PAIRS)
def test_tricky_pairs_count_as_jiwer(reference, hypothesis):
    ours = mtscore.CER([[reference]]).corpus_score([hypothesis])
    theirs = jiwer.process_characters(reference, hypothesis)
    assert _counts(ours) == _counts(theirs)


def test_several_tricky_pairs_in_one_call_count_as_each_alone():
    pairs = TRICKY_PAIRS
    together = mtscore.CER([[reference for reference, _ in pairs]]).corpus_score([hyp for _, hyp in pairs])
    alone = [_counts(mtscore.CER([[reference]]).corpus_score([hypothesis])) for reference, hypothesis in pairs]
    assert _counts(together) == tuple(map(sum, zip(*alone, strict=True)))
