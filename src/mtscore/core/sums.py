"""Summed states: what an engine moves between workers to score a corpus split anywhere.

A state is one row: the column sums of a shard's per-segment statistics, then the shard's number
of segments (int64 where the statistics are integers, so sums stay exact however many shards are
added; float64 otherwise). States add with ``+``; the corpus result is the metric's score of the
one row they sum to. ``mtscore.torch``, ``mtscore.ray`` and ``mtscore.dask`` build on these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import BleuInputError
from .metric import Metric


def summable(metric: Metric) -> Metric:
    """``metric`` itself, if sums of its shards' statistics score the corpus (``Metric.additive``);
    a ``BleuInputError`` for a metric whose statistics depend on the whole corpus (NIST)."""
    if not metric.additive:
        raise BleuInputError(
            f"{metric.name}'s statistics depend on the whole reference corpus, so sums of batches do not "
            "score it; score the whole corpus at once instead"
        )
    return metric


def empty_state(metric: Metric) -> np.ndarray:
    """A zero state for ``metric``: as many columns as its statistics have (found on a one-word
    segment), of their type, and one for the number of segments."""
    probe = metric.segment_statistics(["a"], [["a"]])
    return np.zeros(probe.shape[1] + 1, dtype=np.int64 if probe.dtype.kind in "iu" else np.float64)


def state_of(metric: Metric, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
    """The state of one shard: its statistics' column sums, then its number of segments (the zero
    state for a shard without segments)."""
    if len(hypotheses) == 0:
        return empty_state(metric)
    rows = np.asarray(metric.segment_statistics(hypotheses, references))
    kind = np.int64 if rows.dtype.kind in "iu" else np.float64
    return np.append(rows.sum(axis=0, dtype=kind), len(rows)).astype(kind, copy=False)


def score_state(metric: Metric, state: np.ndarray, nothing: str = "nothing to score: no segments") -> Any:
    """The corpus result of a state (column sums, then the number of segments); ``nothing``: the
    message of the error raised when the state counts no segment."""
    if state[-1] == 0:
        raise BleuInputError(nothing)
    return metric.score_statistics(np.asarray(state)[None, :-1])


def sentence_score_array(metric: Metric, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
    """Every segment's own score (``metric.sentence_scores``) as a float64 array (empty for no segments)."""
    if len(hypotheses) == 0:
        return np.zeros(0, dtype=np.float64)
    scores = metric.sentence_scores(hypotheses, references)
    return np.asarray(getattr(scores, "scores", scores), dtype=np.float64)
