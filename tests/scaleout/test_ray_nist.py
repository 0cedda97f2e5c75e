"""NIST through ``mtscore.ray`` (issue 16) on a real local Ray runtime (2 CPUs): every block's
n-gram tables merged, as the driver streams them or by Ray's aggregation, score the dataset as the
in-memory API scores the whole corpus, both variants, with uneven and empty blocks and references
missing for some segments. Skipped without ``ray[data]``."""

from __future__ import annotations

import pytest
from conftest import SHARDS

from mtscore.errors import BleuInputError
from mtscore.metrics.nist import NIST

ray = pytest.importorskip("ray", reason='Ray is optional: pip install "mtscore[ray]"')
pytest.importorskip("ray.data", reason='Ray Data is optional: pip install "mtscore[ray]"')
pa = pytest.importorskip("pyarrow")
from mtscore.ray import corpus_score, sentence_scores_fn  # noqa: E402


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
    assert (ours.matches, ours.totals, ours.sys_len, ours.ref_len) == (
        whole.matches,
        whole.totals,
        whole.sys_len,
        whole.ref_len,
    )
    # Whatever order the blocks came in, the very numbers of the whole corpus's single state.
    assert ours == metric.score_shard_state(metric.shard_state(hypotheses, streams))


def test_nist_objects_travel_and_sentence_scores_need_the_dataset(dataset, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    metric = NIST(variant="nltk", max_order=4, case_sensitive=True)
    ours = corpus_score(dataset, metric, references=["ref", "ref_b"])
    assert ours.score == pytest.approx(metric.corpus_score(hypotheses, streams).score, rel=0, abs=1e-9)
    with pytest.raises(BleuInputError, match="whole reference corpus"):  # given it: test_ray_nist_sentences
        sentence_scores_fn("nist", references=["ref", "ref_b"])
