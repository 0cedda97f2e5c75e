"""How a metric's per-segment rows score other corpora than the one they were counted in.

A metric declares one strategy, ``Metric.aggregation``, and whoever resamples, streams or shards
its rows asks that strategy instead of branching on the metric:

- ``Additive``: the rows of any segments, summed, are what those segments' score is a function of
  (``scores_of_sums``). A resample's score is that of its rows summed with the resample's weights
  (float32, sacrebleu's arithmetic), a large corpus may be scored block by block, and a shard's
  state is its rows' column sums.
- ``CorpusWeighted``: the rows carry weights taken from the whole corpus (NIST's information
  weights), so they sum to the score of that corpus only. The metric scores resamples itself
  (``Metric.resampled_scores``, in float64), the corpus is scored at once, and a shard keeps the
  metric's own state (``Metric.shard_state``, ``Metric.shard_arrays``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class ResampledMetric(Protocol):
    """What a strategy reads of a metric (``Metric`` has it)."""

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The score of each row of summed statistics."""
        ...

    def resampled_scores(self, statistics: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The score of each resample (a row of ``weights``: segment multiplicities) of ``statistics``."""
        ...

    def shared_resampled_scores(self, systems: Sequence[np.ndarray], weights: np.ndarray) -> np.ndarray:
        """``resampled_scores`` of each system's statistics on the same resamples (systems x resamples)."""
        ...


class Resampling(Protocol):
    """Bootstrap resamples of one system's segments, as the caller draws them (``significance``)."""

    def sums(self, statistics: np.ndarray) -> np.ndarray:
        """Every resample's column sums of ``statistics`` (resamples x columns, float64)."""
        ...

    def weights(self, n_segments: int) -> Iterable[np.ndarray]:
        """The resamples as segment multiplicities, chunk by chunk (resamples x segments)."""
        ...


@dataclass(frozen=True)
class SharedDraws:
    """A chunk of bootstrap resamples drawn once for several systems (and metrics).

    Attributes:
        weights: Each resample's segment multiplicities (resamples x segments).
        sums: Each resample's column sums of every system's rows, side by side (resamples x columns).
        columns: Each system's column numbers in ``sums`` (systems x columns of one system).
        batches: The groups of systems whose summed rows are scored in one call.
    """

    weights: np.ndarray
    sums: np.ndarray
    columns: np.ndarray
    batches: Sequence[slice]


class Aggregation(ABC):
    """How a metric's rows score resamples, streamed blocks and shards (see the module's docstring)."""

    # Whether the rows of any segments, summed, give those segments' score: per-segment breakdowns,
    # states that are column sums and shard files that keep rows rely on it.
    additive: bool
    # Whether a corpus may be scored block by block, the blocks' rows summed.
    streams: bool

    @abstractmethod
    def bootstrap_scores(self, metric: ResampledMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
        """The score of each bootstrap resample of one system's ``statistics``.

        Args:
            metric: The metric that counted ``statistics``.
            statistics: The system's per-segment rows (``Metric.segment_statistics``).
            resampling: The resamples, drawn by the caller.

        Returns:
            One score per resample, in the type the strategy scores in.
        """

    @abstractmethod
    def shared_bootstrap_scores(
        self, metric: ResampledMetric, systems: Sequence[np.ndarray], draws: SharedDraws
    ) -> np.ndarray:
        """Every system's score on each resample of a chunk drawn for all of them.

        Args:
            metric: The metric that counted the systems' rows.
            systems: Each system's per-segment rows.
            draws: The chunk of resamples, with the column sums of every system's rows.

        Returns:
            Scores, systems x resamples.
        """

    def without_streaming(self) -> Aggregation:
        """This strategy for options whose corpus score must be computed in one pass."""
        return self


@dataclass(frozen=True)
class Additive(Aggregation):
    """Rows that add up: resamples, blocks and shards are sums of rows.

    Attributes:
        streams: Whether a corpus may be scored block by block (False for options whose corpus
            score also looks at something other than the sums, as NLTK's corpus smoothing of BLEU).
    """

    streams: bool = True
    additive: bool = field(default=True, init=False)

    def bootstrap_scores(self, metric: ResampledMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
        """``scores_of_sums`` of the resamples' sums in float32, as sacrebleu scores them."""
        return metric.scores_of_sums(resampling.sums(statistics).astype(np.float32))

    def shared_bootstrap_scores(
        self, metric: ResampledMetric, systems: Sequence[np.ndarray], draws: SharedDraws
    ) -> np.ndarray:
        """``scores_of_sums`` of the shared sums in float32, a batch of systems per call."""
        rows, width = len(draws.sums), draws.columns.shape[1]
        scores = []
        for group in draws.batches:
            picked = draws.sums[:, draws.columns[group]].reshape(-1, width)  # resamples x systems, flat
            scores.append(metric.scores_of_sums(picked.astype(np.float32, copy=False)).reshape(rows, -1).T)
        return np.concatenate(scores)

    def without_streaming(self) -> Additive:
        return Additive(streams=False)


@dataclass(frozen=True)
class CorpusWeighted(Aggregation):
    """Rows weighed with the whole corpus: the metric rescores resamples and keeps its own shard state."""

    additive: bool = field(default=False, init=False)
    streams: bool = field(default=False, init=False)

    def bootstrap_scores(self, metric: ResampledMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
        """The metric's own ``resampled_scores`` (float64), chunk by chunk of the resamples."""
        chunks = [metric.resampled_scores(statistics, weights) for weights in resampling.weights(len(statistics))]
        return np.concatenate(chunks)

    def shared_bootstrap_scores(
        self, metric: ResampledMetric, systems: Sequence[np.ndarray], draws: SharedDraws
    ) -> np.ndarray:
        """The metric's own ``resampled_scores`` of each system (float64), all systems in one call."""
        return metric.shared_resampled_scores(systems, draws.weights)


ADDITIVE = Additive()
CORPUS_WEIGHTED = CorpusWeighted()
