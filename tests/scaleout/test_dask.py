"""``mtscore.dask`` on a real ``distributed.LocalCluster`` of 2 worker processes: corpus
scores of DataFrames and Bags split into uneven partitions, empty ones among them, with references
missing for some segments, identical to the in-memory API; sentence-score columns. Skipped
without Dask (``pip install "mtscore[dask]"``)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SHARDS, additive_metrics, assert_same, streams_for

from mtscore.errors import InputError
from mtscore.metrics import metric_class

dask = pytest.importorskip("dask", reason='Dask is optional: pip install "mtscore[dask]"')
distributed = pytest.importorskip("distributed", reason='Dask is optional: pip install "mtscore[dask]"')
dd = pytest.importorskip("dask.dataframe", reason='Dask is optional: pip install "mtscore[dask]"')
pd = pytest.importorskip("pandas")
import dask.bag as db  # noqa: E402

from mtscore.dask import corpus_score, sentence_scores, with_sentence_scores  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def frame(client, engine_corpus):
    """One partition per shard: uneven sizes and empty partitions."""
    table = pd.DataFrame(engine_corpus[2])
    parts = [dask.delayed(table.iloc[a:b].copy)() for a, b in SHARDS]
    return dd.from_delayed(parts, meta=table.iloc[:0], verify_meta=False)


@pytest.fixture(scope="module")
def bag(client, engine_corpus):
    """``(hypothesis, references)`` records, one partition per shard (empty ones too)."""
    hypotheses, streams, _ = engine_corpus
    records = [(h, [a, b]) for h, a, b in zip(hypotheses, *streams, strict=True)]
    return db.from_delayed([dask.delayed(list)(records[a:b]) for a, b in SHARDS])


def test_partitions_are_uneven_and_some_empty(frame, bag, engine_corpus):
    sizes = frame.map_partitions(len).compute().tolist()
    assert sizes == [b - a for a, b in SHARDS] and 0 in sizes
    assert bag.map_partitions(lambda part: [len(list(part))]).compute() == sizes


@pytest.mark.parametrize("name", additive_metrics())
def test_frame_corpus_score_is_the_in_memory_score(frame, engine_corpus, name):
    hypotheses, streams, _ = engine_corpus
    streams, columns = streams_for(name, streams)
    whole = metric_class(name)().corpus_score(hypotheses, streams)
    assert_same(name, corpus_score(frame, name, references=columns, split_every=2), whole)


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_bag_corpus_score_is_the_in_memory_score(bag, engine_corpus, name):
    hypotheses, streams, _ = engine_corpus
    assert_same(name, corpus_score(bag, name, split_every=3), metric_class(name)().corpus_score(hypotheses, streams))


def test_options_metric_objects_and_what_is_refused(frame, bag, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    chrf_pp = metric_class("chrf")(word_order=2)
    expected = chrf_pp.corpus_score(hypotheses, streams)
    assert corpus_score(frame, "chrf", references=["ref", "ref_b"], word_order=2) == expected
    assert corpus_score(frame, chrf_pp, references=["ref", "ref_b"]) == expected  # an object travels too
    with pytest.raises(InputError, match="nothing to score"):
        corpus_score(frame[frame.id < 0], "bleu", references=["ref", "ref_b"])


@pytest.mark.parametrize("name", ["bleu", "chrf", "meteor"])
def test_sentence_score_column_is_sentence_scores(frame, bag, engine_corpus, name):
    hypotheses, streams, _ = engine_corpus
    expected = metric_class(name)().sentence_scores(hypotheses, streams)
    expected = np.asarray(getattr(expected, "scores", expected), dtype=np.float64)
    scored = with_sentence_scores(frame, name, references=["ref", "ref_b"], column="s").compute()
    assert scored.hyp.tolist() == hypotheses and scored.dtypes["s"] == np.float64
    np.testing.assert_array_equal(scored.s.to_numpy(), expected)
    np.testing.assert_array_equal(np.array(sentence_scores(bag, name).compute()), expected)


def test_filtering_on_the_score_column(frame, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    scored = with_sentence_scores(frame, "chrf", references=["ref", "ref_b"])
    kept = scored[scored.score >= 50].compute()
    scores = metric_class("chrf")().sentence_scores(hypotheses, streams)
    assert kept.id.tolist() == np.flatnonzero(scores >= 50).tolist()


@pytest.mark.parametrize("split_every", [1, 0, -2, 2.5])
def test_split_every_below_two_is_refused(frame, split_every):
    """A merge of fewer than two states at a time would never finish (1) or merge nothing (-2)."""
    with pytest.raises(InputError, match="split_every must be an integer of at least 2"):
        corpus_score(frame, "bleu", references=["ref", "ref_b"], split_every=split_every)
