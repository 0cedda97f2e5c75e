"""NIST through ``mtscore.dask`` on a real ``distributed.LocalCluster`` of 2 worker
processes: the partitions' n-gram tables merged by a tree reduction score a DataFrame and a Bag as
the in-memory API scores the whole corpus, both variants, with uneven and empty partitions and
references missing for some segments; and its sentence scores, in one graph of two passes (every
partition's references reduced to their n-gram counts by a tree, then every partition scored with those
weights), each row's the in-memory API's for the whole corpus. Skipped without Dask."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SHARDS

from mtscore.metrics.nist import NIST

dask = pytest.importorskip("dask", reason='Dask is optional: pip install "mtscore[dask]"')
distributed = pytest.importorskip("distributed", reason='Dask is optional: pip install "mtscore[dask]"')
dd = pytest.importorskip("dask.dataframe", reason='Dask is optional: pip install "mtscore[dask]"')
pd = pytest.importorskip("pandas")
import dask.bag as db  # noqa: E402

from mtscore.dask import corpus_score, sentence_scores, with_sentence_scores  # noqa: E402


@pytest.fixture(scope="module")
def collections(engine_corpus):
    """A DataFrame and a Bag of the corpus, one partition per shard (empty ones too), on 2 worker processes."""
    hypotheses, streams, rows = engine_corpus
    table = pd.DataFrame(rows)
    records = [(h, [a, b]) for h, a, b in zip(hypotheses, *streams, strict=True)]
    with (
        distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster),
    ):
        frame = dd.from_delayed([dask.delayed(table.iloc[a:b].copy)() for a, b in SHARDS], meta=table.iloc[:0])
        bag = db.from_delayed([dask.delayed(list)(records[a:b]) for a, b in SHARDS])
        yield frame, bag


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_nist_of_a_frame_and_a_bag_is_the_in_memory_score(collections, engine_corpus, variant):
    hypotheses, streams, _ = engine_corpus
    frame, bag = collections
    metric = NIST(variant=variant)
    whole = metric.corpus_score(hypotheses, streams)
    single = metric.aggregation.score_shard_state(metric, metric.aggregation.shard_state(metric, hypotheses, streams))
    for ours in (
        corpus_score(frame, "nist", references=["ref", "ref_b"], split_every=2, variant=variant),
        corpus_score(bag, metric, split_every=3),
    ):
        assert ours.score == pytest.approx(whole.score, rel=0, abs=1e-9)
        assert (ours.matches, ours.totals, ours.hyp_len, ours.ref_len) == (
            whole.matches,
            whole.totals,
            whole.hyp_len,
            whole.ref_len,
        )
        assert ours == single  # any tree of merges: the whole corpus's single state


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_sentence_scores_of_a_frame_and_a_bag_are_the_whole_corpus(collections, engine_corpus, variant):
    hypotheses, streams, _ = engine_corpus
    frame, bag = collections
    metric = NIST(variant=variant)
    expected = metric.sentence_scores(hypotheses, streams)
    scored = with_sentence_scores(
        frame, "nist", references=["ref", "ref_b"], column="s", split_every=2, variant=variant
    )
    computed = scored.compute()
    assert computed.hyp.tolist() == hypotheses and computed.dtypes["s"] == np.float64
    ours = computed.s.to_numpy()
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9)
    assert np.array_equal(ours, expected)  # to the bit: no segment here matches two long tokens in one place
    from_bag = np.array(sentence_scores(bag, metric, split_every=3).compute())
    np.testing.assert_allclose(from_bag, expected, rtol=0, atol=1e-9)
    kept = scored[scored.s >= 3].compute()  # filtering: the column as any other
    assert kept.id.tolist() == np.flatnonzero(expected >= 3).tolist()


def test_options_and_an_object_travel(collections, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    frame, bag = collections
    metric = NIST(variant="nltk", max_order=4, lowercase=False)
    expected = metric.sentence_scores(hypotheses, streams)
    for ours in (
        with_sentence_scores(frame, metric, references=["ref", "ref_b"]).compute().score.to_numpy(),
        np.array(sentence_scores(bag, "nist", variant="nltk", max_order=4, lowercase=False).compute()),
    ):
        np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9)
