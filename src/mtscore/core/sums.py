"""Mergeable states: what an engine moves between workers to score a corpus split anywhere.

A metric says what a shard's state is (``metric.aggregation.shard_state``): for most, one row, the column sums
of its per-segment statistics, then its number of segments (int64 where the statistics are
integers, so sums stay exact however many shards are added; float64 otherwise); for NIST, n-gram
tables (``metrics.nist.state``). States merge with ``+`` (exact and associative); the corpus
result is the metric's score of their merge. Sentence scores that depend on the whole corpus
(NIST's) take two passes: every shard's context (NIST: its reference counts) merged the same way,
then each shard scored by the metric in that context. ``mtscore.torch``, ``mtscore.ray`` and
``mtscore.dask`` build on these, with no branch per metric.
"""

from __future__ import annotations

import operator
import pickle
from collections.abc import Iterable, Sequence
from functools import reduce
from typing import Any

import numpy as np

from ..errors import InputError
from .metric import Metric


def needs_context(metric: Metric) -> bool:
    """Whether a shard's sentence scores need something of the whole corpus, reduced over every
    shard first (``Aggregation.empty_sentence_context``: NIST's reference counts, for its weights)."""
    return metric.aggregation.empty_sentence_context(metric) is not None


def context_of(metric: Metric, references: Sequence[Sequence[Any]]) -> Any:
    """A shard's part of what the sentence scores need from the whole corpus (``Aggregation.sentence_context``),
    merged with ``merge_states``; the empty context for a shard without segments."""
    if len(references) == 0 or len(references[0]) == 0:
        return metric.aggregation.empty_sentence_context(metric)
    return metric.aggregation.sentence_context(metric, references)


def merge_states(states: Iterable[Any]) -> Any:
    """The sum of states (at least one): how every engine merges them, whatever the metric."""
    return reduce(operator.add, states)


def score_state(metric: Metric, state: Any, nothing: str = "nothing to score: no segments") -> Any:
    """The corpus result of a state; ``nothing``: the message of the error raised when the state
    counts no segment."""
    if metric.aggregation.state_segments(metric, state) == 0:
        raise InputError(nothing)
    return metric.aggregation.score_shard_state(metric, state)


def state_bytes(state: Any) -> bytes:
    """A state as bytes, for engines that move binary columns (pickle: engines run trusted code)."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def state_from_bytes(data: bytes) -> Any:
    """The state ``state_bytes`` gave."""
    return pickle.loads(data)


def sentence_score_array(metric: Metric, hypotheses: Sequence[Any], references: Sequence[Sequence[Any]]) -> np.ndarray:
    """Every segment's own score (``metric.sentence_scores``) as a float64 array (empty for no segments)."""
    if len(hypotheses) == 0:
        return np.zeros(0, dtype=np.float64)
    scores = metric.sentence_scores(hypotheses, references)
    return np.asarray(getattr(scores, "scores", scores), dtype=np.float64)
