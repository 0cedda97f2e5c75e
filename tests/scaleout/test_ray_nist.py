"""NIST through ``mtscore.ray`` on a real local Ray runtime (2 CPUs): every block's
n-gram tables merged, as the driver streams them or by Ray's aggregation, score the dataset as the
in-memory API scores the whole corpus, both variants, with uneven and empty blocks and references
missing for some segments; and its sentence scores in two passes (the reference columns reduced to
their n-gram counts, then every batch scored with those weights), each row's the in-memory API's for
the whole corpus, with batches of another size than the blocks. Skipped without ``ray[data]``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SHARDS

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST

ray = pytest.importorskip("ray", reason='Ray is optional: pip install "mtscore[ray]"')
pytest.importorskip("ray.data", reason='Ray Data is optional: pip install "mtscore[ray]"')
pa = pytest.importorskip("pyarrow")
from mtscore.ray import corpus_score, sentence_scores_fn, with_sentence_scores  # noqa: E402

REFERENCES = ["ref", "ref_b"]


@pytest.fixture(scope="module")
def dataset(engine_corpus):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    table = pa.Table.from_pylist(engine_corpus[2])
    yield ray.data.from_arrow([table.slice(a, b - a) for a, b in SHARDS])
    ray.shutdown()


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
@pytest.mark.parametrize("merge", ["stream", "aggregate"])
def test_nist_of_a_dataset_is_the_in_memory_score(dataset, engine_corpus, variant, merge):
    hypotheses, streams, _ = engine_corpus
    metric = NIST(variant=variant)
    ours = corpus_score(dataset, "nist", references=["ref", "ref_b"], merge=merge, variant=variant)
    whole = metric.corpus_score(hypotheses, streams)
    assert ours.score == pytest.approx(whole.score, rel=0, abs=1e-9)
    assert (ours.matches, ours.totals, ours.hyp_len, ours.ref_len) == (
        whole.matches,
        whole.totals,
        whole.hyp_len,
        whole.ref_len,
    )
    # Whatever order the blocks came in, the very numbers of the whole corpus's single state.
    assert ours == metric.aggregation.score_shard_state(
        metric, metric.aggregation.shard_state(metric, hypotheses, streams)
    )


def test_nist_objects_travel_and_sentence_scores_need_the_dataset(dataset, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    metric = NIST(variant="nltk", max_order=4, lowercase=False)
    ours = corpus_score(dataset, metric, references=["ref", "ref_b"])
    assert ours.score == pytest.approx(metric.corpus_score(hypotheses, streams).score, rel=0, abs=1e-9)
    with pytest.raises(InputError, match="whole reference corpus"):  # given it: below
        sentence_scores_fn("nist", references=["ref", "ref_b"])


def column(rows: list[dict], name: str) -> np.ndarray:
    """The column ``name`` of rows in the corpus's order (Ray keeps none unless asked)."""
    return np.array([row[name] for row in sorted(rows, key=lambda row: row["id"])], dtype=np.float64)


@pytest.mark.parametrize(("variant", "merge"), [("mteval", "stream"), ("nltk", "aggregate")])
def test_sentence_scores_of_a_dataset_are_the_whole_corpus(dataset, engine_corpus, variant, merge):
    hypotheses, streams, _ = engine_corpus
    expected = NIST(variant=variant).sentence_scores(hypotheses, streams)
    rows = with_sentence_scores(dataset, "nist", references=REFERENCES, merge=merge, variant=variant).take_all()
    assert len(rows) == len(hypotheses)
    ours = column(rows, "score")
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-9)
    assert np.array_equal(ours, expected)  # to the bit: no segment here matches two long tokens in one place


@pytest.mark.parametrize("batch_format", ["pandas", "numpy"])
def test_the_function_carries_the_weights_for_any_batch(dataset, engine_corpus, batch_format):
    hypotheses, streams, _ = engine_corpus
    metric = NIST(variant="nltk", max_order=4, lowercase=False)  # an object travels too
    fn = sentence_scores_fn(metric, references=REFERENCES, column="s", dataset=dataset)
    rows = dataset.map_batches(fn, batch_format=batch_format, batch_size=50).take_all()  # not the blocks
    ours = column(rows, "s")
    np.testing.assert_allclose(ours, metric.sentence_scores(hypotheses, streams), rtol=0, atol=1e-9)
    kept = dataset.map_batches(fn, batch_format=batch_format).filter(lambda row: row["s"] >= 3)
    assert kept.count() == int((ours >= 3).sum())


def test_without_the_dataset_nist_is_refused():
    with pytest.raises(InputError, match="pass the dataset"):
        sentence_scores_fn("nist", references=REFERENCES)
