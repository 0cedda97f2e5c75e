"""Each metric declares how its rows score resamples, streamed blocks and shards (``Metric.aggregation``);
the old flags still work, with a deprecation warning, for code written against them."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore.core.aggregation import ADDITIVE, CORPUS_WEIGHTED, Additive, CorpusWeighted
from mtscore.errors import InputError
from mtscore.metrics import METRICS, metric_class
from mtscore.significance.resampling import bootstrap_confidence

HYPS = ["the cat sat on the mat", "a dog ran", "it rains"]
REFS = [["the cat sat on a mat", "the dog ran", "it is raining"]]


@pytest.mark.parametrize("name", list(METRICS))
def test_only_nist_is_corpus_weighted_and_every_other_metric_streams(name):
    """NIST's information weights come from the whole corpus: its rows neither stream nor add up, and its
    strategy is a ``CorpusWeighted`` holding NIST's own resampling and shard state."""
    aggregation = metric_class(name)().aggregation
    if name == "nist":
        assert isinstance(aggregation, CorpusWeighted) and type(aggregation) is not CorpusWeighted
    else:
        assert aggregation == ADDITIVE
    assert aggregation.streams == aggregation.additive == (name != "nist")


def test_bleu_with_nltk_corpus_smoothing_adds_up_but_does_not_stream():
    bleu = metric_class("bleu")
    assert bleu(smooth="nltk-method1").aggregation == Additive(streams=False)
    assert bleu(smooth="nltk-method1").aggregation.additive
    assert bleu().aggregation == ADDITIVE  # the class's declaration is left alone
    assert bleu.aggregation == ADDITIVE


def test_without_streaming_keeps_the_strategy():
    assert ADDITIVE.without_streaming() == Additive(streams=False)
    assert CORPUS_WEIGHTED.without_streaming() == CorpusWeighted()


@pytest.mark.parametrize("name", ["chrf", "nist"])
def test_a_confidence_interval_is_the_strategys_scores_of_the_resamples(name):
    """Additive: float32 scores of the resamples' summed rows; corpus-weighted: the metric's own
    float64 ``resampled_scores`` of the same draws. Either way, the same seed, the same interval."""
    metric = metric_class(name)(REFS)
    statistics = metric.segment_statistics(HYPS)
    first = bootstrap_confidence(metric, statistics, 40, seed=7)
    assert first == bootstrap_confidence(metric, statistics, 40, seed=7)
    rng = np.random.default_rng(7)
    weights = np.bincount(
        (rng.integers(0, 3, size=(40, 3)) + 3 * np.arange(40)[:, None]).ravel(), minlength=120
    ).reshape(40, 3)
    if name == "nist":
        scores = metric.aggregation.resampled_scores(metric, statistics, weights)
    else:
        scores = metric.scores_of_sums((weights @ statistics).astype(np.float32))
    ordered = np.sort(scores)
    assert first[0] == pytest.approx(float(np.mean(ordered.astype(np.float64))), rel=1e-6)


def test_reading_the_old_flags_warns_and_answers_from_the_strategy():
    nist, chrf = metric_class("nist"), metric_class("chrf")
    with pytest.deprecated_call(match="aggregation.additive"):
        assert nist.additive is False
    with pytest.deprecated_call(match="aggregation.additive"):
        assert chrf().additive is True
    with pytest.deprecated_call(match="aggregation.streams"):
        assert nist().can_stream() is False
    with pytest.deprecated_call(match="aggregation.streams"):
        assert metric_class("bleu")(smooth="nltk-method1").can_stream() is False


def test_a_subclass_declaring_the_old_additive_flag_gets_the_matching_strategy():
    base = metric_class("chrf")
    with pytest.deprecated_call(match=r"declare aggregation = CorpusWeighted\(\)"):
        Whole = type("Whole", (base,), {"additive": False})
    assert Whole.aggregation == CORPUS_WEIGHTED and base.aggregation == ADDITIVE
    with pytest.raises(InputError, match="depend on the whole corpus"):
        Whole.aggregation.shard_state(Whole(), HYPS, REFS)
    with pytest.deprecated_call(match=r"declare aggregation = Additive\(\)"):
        Summed = type("Summed", (base,), {"additive": True})
    assert Summed.aggregation == ADDITIVE


def test_a_subclass_with_its_own_can_stream_is_asked_when_made():
    base = metric_class("ter")
    with pytest.deprecated_call(match="can_stream is deprecated"):
        InMemory = type("InMemory", (base,), {"can_stream": lambda self: False})
    assert InMemory().aggregation == Additive(streams=False)
    with pytest.deprecated_call(match="can_stream is deprecated"):
        Streaming = type("Streaming", (base,), {"can_stream": lambda self: True})
    assert Streaming().aggregation == ADDITIVE
