"""The ``Metric`` base's contract: the strategy gives the resampling, shard and sentence-context hooks,
``core.validation`` checks statistics from what a metric declares, and the hooks the documentation
named on ``Metric`` still answer for one release, with a ``DeprecationWarning``."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore.core import validation
from mtscore.core.metric import STRATEGY_HOOKS, Metric
from mtscore.errors import InputError
from mtscore.metrics import METRICS, metric_class

HYPS = ["the cat sat on the mat", "a dog ran", "it rains"]
REFS = [["the cat sat on a mat", "the dog ran", "it is raining"]]


def test_the_base_defines_none_of_the_strategys_hooks_as_methods():
    """The moved hooks are no ``def`` of the base: at most a deprecated alias that calls the strategy."""
    for name in STRATEGY_HOOKS:
        assert not callable(Metric.__dict__.get(name)), name


@pytest.mark.parametrize("name", ["shard_state", "score_shard_state", "shard_arrays", "sentence_context"])
@pytest.mark.parametrize("metric_name", ["bleu", "nist"])
def test_a_documented_hook_on_the_metric_warns_and_gives_the_strategys_answer(name, metric_name):
    metric = metric_class(metric_name)()
    strategy = metric.aggregation
    state = strategy.shard_state(metric, HYPS, REFS)
    arguments = {
        "shard_state": (HYPS, REFS),
        "score_shard_state": (state,),
        "shard_arrays": (HYPS, REFS),
        "sentence_context": (REFS,),
    }[name]
    with pytest.deprecated_call(match=rf"metric\.aggregation\.{name}\(metric, \.\.\.\)"):
        old = getattr(metric, name)(*arguments)
    new = getattr(strategy, name)(metric, *arguments)
    if name == "score_shard_state":
        assert old.score == new.score
    elif name == "shard_arrays":
        assert old.keys() == new.keys() and all(np.array_equal(old[k], new[k]) for k in old)
    elif isinstance(new, np.ndarray):
        assert np.array_equal(old, new)
    else:
        assert old == new


def test_resampled_scores_on_the_metric_warn_and_equal_the_strategys():
    metric = metric_class("nist")(REFS)
    statistics = metric.segment_statistics(HYPS)
    weights = np.array([[1, 1, 1], [2, 0, 1], [0, 3, 0]])
    with pytest.deprecated_call():
        old = metric.resampled_scores(statistics, weights)
    assert old.tobytes() == metric.aggregation.resampled_scores(metric, statistics, weights).tobytes()


def test_a_metric_class_defining_a_moved_hook_is_refused_at_once():
    """The strategy would never call it: a silent fallback would score resamples or shards wrongly."""
    with pytest.raises(TypeError, match=r"defines resampled_scores, which the metric's strategy gives now"):
        type("OwnResampling", (metric_class("chrf"),), {"resampled_scores": lambda self, s, w: s})


@pytest.mark.parametrize("name", list(METRICS))
def test_the_empty_state_has_one_more_column_than_the_statistics(name):
    metric = metric_class(name)()
    if not metric.aggregation.additive:
        pytest.skip("a corpus-weighted metric's state is its own")
    empty = metric.aggregation.empty_shard_state(metric)
    rows = metric.segment_statistics(HYPS, REFS)
    assert empty.shape == (rows.shape[1] + 1,) and not empty.any()
    assert (empty.dtype.kind in "iu") == (rows.dtype.kind in "iu")


def test_the_statistics_width_is_counted_once_per_metric(monkeypatch):
    metric = metric_class("chrf")()
    calls = []
    counted = metric.segment_statistics
    monkeypatch.setattr(metric, "segment_statistics", lambda *a, **k: calls.append(a) or counted(*a, **k))
    assert validation.statistics_width(metric) == validation.statistics_width(metric) == 18
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("name", "options", "column", "label"),
    [("bleu", {"max_order": 2}, 3, "matches2"), ("google_bleu", {}, 0, "n_match"), ("chrf", {}, 2, "char1_match")],
)
def test_a_broken_bound_is_named_by_the_metrics_column_labels(name, options, column, label):
    """BLEU declares its labels from its order, Google-BLEU's are fixed, chrF's are its statistic names."""
    metric = metric_class(name)(**options)
    rows = metric.segment_statistics(HYPS, REFS).copy()
    smaller, larger = metric.statistic_bounds[0] if name != "bleu" else metric.statistic_bounds[1]
    assert smaller == column
    rows[0, smaller] = rows[0, larger] + 1
    with pytest.raises(InputError, match=rf"with {label} above"):
        validation.check_statistics(metric, rows)
