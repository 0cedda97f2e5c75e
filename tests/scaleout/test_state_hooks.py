"""The mergeable-state seam every engine uses (``Metric.shard_state`` and its companions),
for every metric without an engine: states of uneven and empty shards, merged in any grouping,
score the corpus as the in-memory API does; the shard-file seam of ``mtscore stats``/``merge``
(``Metric.shard_arrays``, ``joined_statistics``): shards' arrays saved in a ``.npz`` and joined give
the whole corpus's statistics to the bit; and the two-pass seam of per-shard sentence scores
(``Metric.sentence_context``, ``in_context``): every shard's context reduced when the metric needs
one (NIST: its reference counts), then each shard scored in it, gives the in-memory sentence scores
of the whole corpus."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from helpers import references_taken

from mtscore.core.sums import (
    context_of,
    merge_states,
    needs_context,
    score_state,
    sentence_score_array,
    state_bytes,
    state_from_bytes,
)
from mtscore.errors import InputError
from mtscore.metrics import METRICS, metric_class

HYPS = ["the cat sat on the mat", "a dog", "hello world", "0 cats sat", "the mat"]
REFS = [
    ["the cat sat on a mat", "a dog ran", "hello", "0 cats sat down", "a mat"],
    ["the cat", None, "world", "0 cats", "the mat"],
]
CUTS = [0, 2, 2, 3, 5, 5]


@pytest.mark.parametrize("name", list(METRICS))
def test_states_merge_in_any_grouping_to_the_corpus_score(name):
    metric = metric_class(name)()
    refs = references_taken(name, REFS)
    whole = metric.corpus_score(HYPS, refs)
    parts = [metric.aggregation.shard_state(metric, HYPS[a:b], [s[a:b] for s in refs]) for a, b in pairwise(CUTS)]
    assert [metric.aggregation.state_segments(metric, part) for part in parts] == [b - a for a, b in pairwise(CUTS)]
    left, right = merge_states(parts), merge_states([parts[0], merge_states(parts[1:])])
    for total in (left, right, merge_states([state_from_bytes(state_bytes(part)) for part in parts[::-1]])):
        assert score_state(metric, total).score == pytest.approx(whole.score, rel=0, abs=1e-9)
    with pytest.raises(InputError, match="nothing to score"):
        score_state(metric, parts[1])  # an empty shard


@pytest.mark.parametrize("name", list(METRICS))
def test_shard_arrays_join_to_the_whole_corpus_statistics(name, tmp_path):
    """Every metric's shard arrays, written and read as ``mtscore stats`` and ``merge`` do, joined in
    order: the statistics of the whole corpus, to the bit, and its score and resamples alike."""
    metric = metric_class(name)()
    refs = references_taken(name, REFS)
    systems = [HYPS, HYPS[::-1]]
    joined = []
    for number, hyps in enumerate(systems):
        parts = []
        for a, b in pairwise(CUTS):
            np.savez(
                tmp_path / f"{number}.{a}.{b}.npz",
                **metric.aggregation.shard_arrays(metric, hyps[a:b], [s[a:b] for s in refs]),
            )
            with np.load(tmp_path / f"{number}.{a}.{b}.npz", allow_pickle=False) as data:
                parts.append(dict(data))
        joined.append(parts)
    whole = metric_class(name)(refs)
    for ours, theirs in zip(
        metric.aggregation.joined_statistics(metric, joined), whole.systems_statistics(systems), strict=True
    ):
        assert np.array_equal(ours, theirs)
        assert metric.score_statistics(ours).score == whole.score_statistics(theirs).score
        weights = np.random.default_rng(3).integers(0, 3, size=(4, len(HYPS)))
        assert np.array_equal(
            metric.aggregation.resampled_scores(metric, ours, weights),
            whole.aggregation.resampled_scores(whole, theirs, weights),
        )


def test_a_metric_not_additive_without_its_own_state_is_refused():
    """Sums of rows would score such a metric wrongly: the default state and shard file refuse it, for a
    shard with segments and for an empty one, instead of giving a plausible number."""
    from mtscore.core.aggregation import CorpusWeighted

    base = metric_class("bleu")
    Whole = type("Whole", (base,), {"aggregation": CorpusWeighted()})
    metric = Whole()
    for hyps in (HYPS, []):
        with pytest.raises(InputError, match="depend on the whole corpus and it defines no mergeable state"):
            metric.aggregation.shard_state(metric, hyps, [stream[: len(hyps)] for stream in REFS])
        with pytest.raises(InputError, match="depend on the whole corpus and it defines no mergeable state"):
            metric.aggregation.shard_arrays(metric, hyps, [stream[: len(hyps)] for stream in REFS])


@pytest.mark.parametrize("name", list(METRICS))
def test_shards_scored_in_context_are_the_whole_corpus(name):
    metric = metric_class(name)()
    refs = references_taken(name, REFS)
    shards = [(HYPS[a:b], [s[a:b] for s in refs]) for a, b in pairwise(CUTS)]
    assert needs_context(metric) == (name == "nist")
    scorer = metric
    if needs_context(metric):
        scorer = metric.aggregation.in_context(
            metric, merge_states([context_of(metric, streams) for _, streams in shards])
        )
        assert not needs_context(scorer)
    ours = np.concatenate([sentence_score_array(scorer, hyps, streams) for hyps, streams in shards])
    expected = sentence_score_array(metric, HYPS, refs)
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9)
