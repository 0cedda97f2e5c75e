"""NIST's segment scores of a shard: its segments scored with the information weights of
every shard's reference counts merged (``NIST.sentence_context``, ``NIST.in_context``) are those of
the in-memory API on the whole corpus, both variants: on WMT22 with references missing for some
segments and uneven, empty shards (to the bit but for a segment matching two long tokens in one
place, which the in-memory API orders as they first occur in the corpus), on generated corpora
with the token ``0``, case and empty lines; and what the weighted metric refuses."""

from __future__ import annotations

from functools import reduce
from itertools import pairwise

import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from nist_corpora import CUTS, VARIANTS, en_de_with_gaps, split_corpora

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST
from mtscore.metrics.nist.aggregation import NIST_AGGREGATION
from mtscore.metrics.nist.state import NISTState

TOLERANCE = 1e-9


def shard_rows(metric: NIST, hypotheses: list, streams: list, cuts: list[int]) -> np.ndarray:
    """Every shard's rows, weighed with the merge of every shard's references (two passes)."""
    shards = [(hypotheses[a:b], [s[a:b] for s in streams]) for a, b in pairwise(cuts)]
    context = reduce(NISTState.__add__, [metric.aggregation.sentence_context(metric, refs) for _, refs in shards[::-1]])
    weighted = metric.aggregation.in_context(metric, context)
    return np.concatenate([weighted.segment_statistics(hyps, refs) for hyps, refs in shards])


@pytest.fixture(scope="module")
def en_de():
    return en_de_with_gaps()


@pytest.mark.parametrize("variant", VARIANTS)
def test_shards_score_their_segments_as_the_whole_corpus(en_de, variant):
    hypotheses, streams = en_de
    metric = NIST(variant=variant)
    whole = metric.segment_statistics(hypotheses, streams)
    rows = shard_rows(metric, hypotheses, streams, CUTS)
    np.testing.assert_allclose(rows, whole, rtol=0, atol=TOLERANCE)
    different = np.flatnonzero((rows != whole).any(axis=1))
    assert len(different) <= 2  # segments 1190 and 1532 match two long tokens in one place
    assert (rows[:, :10] == whole[:, :10]).all() and (rows[:, -2:] == whole[:, -2:]).all()  # counts, lengths
    scores = metric.scores_of_sums(rows)
    np.testing.assert_allclose(scores, metric.sentence_scores(hypotheses, streams), rtol=0, atol=TOLERANCE)
    # The weighted metric's corpus score of the whole corpus is NIST's.
    weighted = metric.aggregation.in_context(metric, metric.aggregation.sentence_context(metric, streams))
    ours, expected = weighted.corpus_score(hypotheses, streams), metric.corpus_score(hypotheses, streams)
    assert ours.score == pytest.approx(expected.score, rel=0, abs=TOLERANCE) and ours.signature == expected.signature


def test_what_the_weighted_metric_refuses(en_de):
    hypotheses, streams = en_de
    part = (hypotheses[:20], [s[:20] for s in streams])
    context = NIST_AGGREGATION.sentence_context(NIST(), [s[:10] for s in streams])
    weighted = NIST_AGGREGATION.in_context(NIST(), context)
    with pytest.raises(InputError, match="not among those of the corpus"):
        weighted.sentence_scores(*part)  # segments 10-19's references were not counted
    with pytest.raises(InputError, match="other options"):
        NIST_AGGREGATION.in_context(NIST(max_order=4), context)
    with pytest.raises(InputError, match="no references"):
        weighted.sentence_scores(part[0][:10])
    assert (
        weighted.aggregation.empty_sentence_context(weighted) is None
        and NIST_AGGREGATION.empty_sentence_context(NIST()) is not None
    )
    assert weighted.sentence_scores([], [[], []]).shape == (0,)


@fixed(max_examples=150)
@given(split_corpora())
def test_generated_corpora_split_anywhere(corpus):
    metric, hypotheses, streams, cuts = corpus
    whole = metric.sentence_scores(hypotheses, streams)
    ours = metric.scores_of_sums(shard_rows(metric, hypotheses, streams, cuts))
    np.testing.assert_allclose(ours, whole, rtol=0, atol=TOLERANCE)
