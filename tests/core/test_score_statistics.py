"""``Metric.score_statistics(statistics, nrefs=)``: statistics scored without the references (merged
shards, files) carry the number of references in their signature, for every metric."""

from __future__ import annotations

import pytest

from mtscore import BLEU, CHRF, TER

HYPS = ["the cat sat on the mat", "a dog barked loudly", "it rains"]
REFS = [["the cat is on the mat", "a dog barked", "it is raining"], ["a cat sat on a mat", "the dog barks", "rain"]]


@pytest.mark.parametrize("make", [BLEU, CHRF, TER], ids=["bleu", "chrf", "ter"])
def test_nrefs_given_with_statistics_signs_as_the_references_would(make):
    with_references = make(REFS)
    statistics = with_references.statistics(HYPS)
    expected = with_references.corpus_score(HYPS)
    shards = statistics[:1] + statistics[1:]
    scored = make().score_statistics(shards, nrefs=2)
    assert scored.score == expected.score
    assert str(scored.signature) == str(expected.signature)
    assert "nrefs:1|" in str(make().score_statistics(shards).signature)
