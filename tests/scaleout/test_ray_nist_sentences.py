"""NIST's sentence scores through ``mtscore.ray`` (issue 16) on a real local Ray runtime (2 CPUs), in
two passes: the dataset's reference columns reduced to their n-gram counts (streamed to the driver
or by Ray's aggregation), then every batch scored with those weights. Each row's score is the
in-memory API's for the whole corpus, both variants, with uneven and empty blocks, batches of
another size than the blocks and references missing for some segments. Skipped without
``ray[data]``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SHARDS

from mtscore.errors import BleuInputError
from mtscore.metrics.nist import NIST

ray = pytest.importorskip("ray", reason='Ray is optional: pip install "mtscore[ray]"')
pytest.importorskip("ray.data", reason='Ray Data is optional: pip install "mtscore[ray]"')
pa = pytest.importorskip("pyarrow")
from mtscore.ray import sentence_scores_fn, with_sentence_scores  # noqa: E402

REFERENCES = ["ref", "ref_b"]


@pytest.fixture(scope="module")
def dataset(engine_corpus):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    table = pa.Table.from_pylist(engine_corpus[2])
    yield ray.data.from_arrow([table.slice(a, b - a) for a, b in SHARDS])
    ray.shutdown()


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
    metric = NIST(variant="nltk", max_order=4, case_sensitive=True)  # an object travels too
    fn = sentence_scores_fn(metric, references=REFERENCES, column="s", dataset=dataset)
    rows = dataset.map_batches(fn, batch_format=batch_format, batch_size=50).take_all()  # not the blocks
    ours = column(rows, "s")
    np.testing.assert_allclose(ours, metric.sentence_scores(hypotheses, streams), rtol=0, atol=1e-9)
    kept = dataset.map_batches(fn, batch_format=batch_format).filter(lambda row: row["s"] >= 3)
    assert kept.count() == int((ours >= 3).sum())


def test_without_the_dataset_nist_is_refused():
    with pytest.raises(BleuInputError, match="pass the dataset"):
        sentence_scores_fn("nist", references=REFERENCES)
