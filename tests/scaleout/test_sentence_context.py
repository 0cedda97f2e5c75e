"""The two-pass seam of per-shard sentence scores (``Metric.sentence_context``, ``in_context``;
issue 16), for every metric without an engine: reduce every shard's context when the metric needs
one (NIST: its reference counts), then score each shard in it; uneven and empty shards give the
in-memory sentence scores of the whole corpus."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from mtscore.core.sums import context_of, merge_states, needs_context, sentence_score_array
from mtscore.metrics import METRICS, metric_class

HYPS = ["the cat sat on the mat", "a dog", "hello world", "0 cats sat", "the mat"]
REFS = [
    ["the cat sat on a mat", "a dog ran", "hello", "0 cats sat down", "a mat"],
    ["the cat", None, "world", "0 cats", "the mat"],
]
CUTS = [0, 2, 2, 3, 5, 5]


@pytest.mark.parametrize("name", list(METRICS))
def test_shards_scored_in_context_are_the_whole_corpus(name):
    metric = metric_class(name)()
    refs = REFS[:1] if name in ("wer", "cer") else REFS
    shards = [(HYPS[a:b], [s[a:b] for s in refs]) for a, b in pairwise(CUTS)]
    assert needs_context(metric) == (name == "nist")
    scorer = metric
    if needs_context(metric):
        scorer = metric.in_context(merge_states([context_of(metric, streams) for _, streams in shards]))
        assert not needs_context(scorer)
    ours = np.concatenate([sentence_score_array(scorer, hyps, streams) for hyps, streams in shards])
    expected = sentence_score_array(metric, HYPS, refs)
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9)
