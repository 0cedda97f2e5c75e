"""How a metric's per-segment rows score other corpora than the one they were counted in.

A metric declares one strategy, ``Metric.aggregation``, and whoever resamples, streams or shards
its rows asks that strategy instead of branching on the metric:

- ``Additive``: the rows of any segments, summed, are what those segments' score is a function of
  (``scores_of_sums``). A resample's score is that of its rows summed with the resample's weights
  (float32, sacrebleu's arithmetic), a large corpus may be scored block by block, and a shard's
  state is its rows' column sums.
- ``CorpusWeighted``: the rows carry weights taken from the whole corpus (NIST's information
  weights), so they sum to the score of that corpus only. Resamples are rescored in float64
  (``resampled_scores``), the corpus is scored at once, and a metric that shards declares a
  subclass holding its own state (``shard_state``, ``shard_arrays``: NIST's ``metrics.nist.aggregation``).

A strategy also answers for the metric what engines, shard files and significance tests ask:
``metric.aggregation.shard_state(metric, hypotheses, references)`` and the like.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

import numpy as np

from ..errors import InputError
from .validation import CheckedMetric, check_array_names, check_statistics, statistics_width

MetricT = TypeVar("MetricT")


class AggregatedMetric(CheckedMetric, Protocol):
    """What a strategy reads of a metric (``Metric`` has it)."""

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The score of each row of summed statistics."""
        ...

    def score_statistics(self, statistics: np.ndarray, nrefs: int | str | None = None) -> Any:
        """The corpus result of per-segment statistics."""
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
    """How a metric's rows score resamples, streamed blocks and shards (see the module's docstring).

    Every method takes the metric it works for first: a strategy is shared by every metric that
    declares it, and holds nothing of any one of them."""

    # Whether the rows of any segments, summed, give those segments' score: per-segment breakdowns,
    # states that are column sums and shard files that keep rows rely on it.
    additive: bool
    # Whether a corpus may be scored block by block, the blocks' rows summed.
    streams: bool

    @abstractmethod
    def bootstrap_scores(self, metric: AggregatedMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
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
        self, metric: AggregatedMetric, systems: Sequence[np.ndarray], draws: SharedDraws
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

    def resampled_scores(self, metric: AggregatedMetric, statistics: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The score of each resample of per-segment ``statistics`` (float64).

        Args:
            metric: The metric that counted ``statistics``.
            statistics: Its per-segment rows (``Metric.segment_statistics``).
            weights: Each resample's multiplicity of every segment (resamples x segments).

        Returns:
            One score per resample: by default that of the rows summed with the resample's weights.
        """
        return metric.scores_of_sums(np.asarray(weights, dtype=np.float64) @ np.asarray(statistics, dtype=np.float64))

    def shared_resampled_scores(
        self, metric: AggregatedMetric, systems: Sequence[np.ndarray], weights: np.ndarray
    ) -> np.ndarray:
        """``resampled_scores`` of each system's rows on the same resamples (systems x resamples); a
        strategy may give its own that shares work between the systems."""
        return np.stack([self.resampled_scores(metric, statistics, weights) for statistics in systems])

    # Mergeable states: what scale-out engines (``core.sums``) move between workers and add with ``+``.

    @abstractmethod
    def shard_state(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> Any:
        """A shard's mergeable state, added to other shards' with ``+``.

        Args:
            metric: The metric that scores the shard.
            hypotheses: The shard's hypotheses.
            references: The shard's reference streams.

        Returns:
            A state that ``score_shard_state`` scores once every shard's is added.
        """

    @abstractmethod
    def empty_shard_state(self, metric: AggregatedMetric) -> Any:
        """The state of no segments (``+``'s neutral element), of the type ``shard_state`` gives."""

    @abstractmethod
    def state_segments(self, metric: AggregatedMetric, state: Any) -> int:
        """The number of segments a state counts."""

    @abstractmethod
    def score_shard_state(self, metric: AggregatedMetric, state: Any) -> Any:
        """The corpus result of a (merged) state."""

    # Shard files (``mtscore stats`` writes, ``mtscore merge`` joins): what a shard keeps of its
    # segments, and the whole corpus's statistics from shards joined in order.

    @abstractmethod
    def shard_arrays(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> dict[str, np.ndarray]:
        """What a shard file keeps of its segments, arrays by name."""

    @abstractmethod
    def check_shard_arrays(self, metric: AggregatedMetric, arrays: Mapping[str, np.ndarray]) -> None:
        """Raise ``InputError`` saying what is wrong unless ``arrays`` could be ``shard_arrays``' of ``metric``."""

    @abstractmethod
    def joined_statistics(
        self, metric: AggregatedMetric, systems: Sequence[Sequence[Mapping[str, np.ndarray]]]
    ) -> list[np.ndarray]:
        """Each system's ``segment_statistics`` of the whole corpus, from its shards' ``shard_arrays``
        joined in order (what resampling needs included)."""

    # Sentence scores of a shard that depend on the whole corpus: engines reduce every shard's
    # ``sentence_context`` with ``+`` first, then score shards with ``in_context(merged)``.

    def empty_sentence_context(self, metric: AggregatedMetric) -> Any:
        """The context of no references (``+``'s neutral element); ``None``, the default: the sentence
        scores need nothing from the corpus, a shard alone gives its segments' scores."""
        return None

    def sentence_context(self, metric: AggregatedMetric, references: Any) -> Any:
        """What the sentence scores need from the whole corpus, of a shard's reference streams:
        merged with ``+`` over every shard (``None`` when ``empty_sentence_context`` is)."""
        return None

    def in_context(self, metric: MetricT, context: Any) -> MetricT:
        """The metric whose ``sentence_scores`` of a shard are ``metric``'s of the same segments within
        the whole corpus, ``context`` being every shard's ``sentence_context`` merged (``metric`` by default)."""
        return metric


@dataclass(frozen=True)
class Additive(Aggregation):
    """Rows that add up: resamples, blocks and shards are sums of rows.

    Attributes:
        streams: Whether a corpus may be scored block by block (False for options whose corpus
            score also looks at something other than the sums, as NLTK's corpus smoothing of BLEU).
    """

    streams: bool = True
    additive: bool = field(default=True, init=False)

    def bootstrap_scores(self, metric: AggregatedMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
        """``scores_of_sums`` of the resamples' sums in float32, as sacrebleu scores them."""
        return metric.scores_of_sums(resampling.sums(statistics).astype(np.float32))

    def shared_bootstrap_scores(
        self, metric: AggregatedMetric, systems: Sequence[np.ndarray], draws: SharedDraws
    ) -> np.ndarray:
        """``scores_of_sums`` of the shared sums in float32, a batch of systems per call."""
        rows, width = len(draws.sums), draws.columns.shape[1]
        scores = []
        for group in draws.batches:
            picked = draws.sums[:, draws.columns[group]].reshape(-1, width)  # resamples x systems, flat
            scores.append(metric.scores_of_sums(picked.astype(np.float32, copy=False)).reshape(rows, -1).T)
        return np.concatenate(scores)

    def without_streaming(self) -> Additive:
        return replace(self, streams=False)

    def shard_state(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> np.ndarray:
        """One row: the shard's column sums (int64 where the statistics are integers: exact however
        many shards are added), then its number of segments."""
        if len(hypotheses) == 0:
            return self.empty_shard_state(metric)
        rows = np.asarray(metric.segment_statistics(hypotheses, references))
        kind = np.int64 if rows.dtype.kind in "iu" else np.float64
        return np.append(rows.sum(axis=0, dtype=kind), len(rows)).astype(kind, copy=False)

    def empty_shard_state(self, metric: AggregatedMetric) -> np.ndarray:
        """Zero sums and a count of 0 (the columns found on a one-word segment)."""
        kind = np.int64 if metric.integer_statistics else np.float64
        return np.zeros(statistics_width(metric) + 1, dtype=kind)

    def state_segments(self, metric: AggregatedMetric, state: Any) -> int:
        """The count that ends the state."""
        return int(state[-1])

    def score_shard_state(self, metric: AggregatedMetric, state: Any) -> Any:
        """The score of the sums (the state less its count)."""
        return metric.score_statistics(np.asarray(state)[None, :-1])

    def shard_arrays(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> dict[str, np.ndarray]:
        """The segments' statistics (no rows for a shard without segments)."""
        if len(hypotheses) == 0:
            empty = self.empty_shard_state(metric)
            return {"statistics": np.zeros((0, len(empty) - 1), dtype=empty.dtype)}
        return {"statistics": np.asarray(metric.segment_statistics(hypotheses, references))}

    def check_shard_arrays(self, metric: AggregatedMetric, arrays: Mapping[str, np.ndarray]) -> None:
        """Exactly one array, ``statistics``, valid as ``validation.check_statistics`` says."""
        check_array_names(arrays, ("statistics",))
        self.check_statistics(metric, arrays["statistics"])

    def check_statistics(self, metric: AggregatedMetric, rows: Any) -> None:
        """Raise ``InputError`` unless ``rows`` could be ``metric``'s statistics (``validation.check_statistics``)."""
        check_statistics(metric, rows)

    def joined_statistics(
        self, metric: AggregatedMetric, systems: Sequence[Sequence[Mapping[str, np.ndarray]]]
    ) -> list[np.ndarray]:
        """Each system's shards' statistics, one after another."""
        return [np.concatenate([shard["statistics"] for shard in shards]) for shards in systems]


@dataclass(frozen=True)
class CorpusWeighted(Aggregation):
    """Rows weighed with the whole corpus: resamples are rescored (``resampled_scores``), and a metric
    that shards declares a subclass with its own state (as NIST's ``metrics.nist.aggregation``)."""

    additive: bool = field(default=False, init=False)
    streams: bool = field(default=False, init=False)

    def bootstrap_scores(self, metric: AggregatedMetric, statistics: np.ndarray, resampling: Resampling) -> np.ndarray:
        """``resampled_scores`` (float64), chunk by chunk of the resamples."""
        chunks = [self.resampled_scores(metric, statistics, weights) for weights in resampling.weights(len(statistics))]
        return np.concatenate(chunks)

    def shared_bootstrap_scores(
        self, metric: AggregatedMetric, systems: Sequence[np.ndarray], draws: SharedDraws
    ) -> np.ndarray:
        """``shared_resampled_scores`` of every system (float64), all systems in one call."""
        return self.shared_resampled_scores(metric, systems, draws.weights)

    def shard_state(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> Any:
        raise _no_shards(metric)

    def empty_shard_state(self, metric: AggregatedMetric) -> Any:
        raise _no_shards(metric)

    def state_segments(self, metric: AggregatedMetric, state: Any) -> int:
        raise _no_shards(metric)

    def score_shard_state(self, metric: AggregatedMetric, state: Any) -> Any:
        raise _no_shards(metric)

    def shard_arrays(self, metric: AggregatedMetric, hypotheses: Any, references: Any) -> dict[str, np.ndarray]:
        raise _no_shards(metric)

    def check_shard_arrays(self, metric: AggregatedMetric, arrays: Mapping[str, np.ndarray]) -> None:
        raise _no_shards(metric)

    def joined_statistics(
        self, metric: AggregatedMetric, systems: Sequence[Sequence[Mapping[str, np.ndarray]]]
    ) -> list[np.ndarray]:
        raise _no_shards(metric)


def _no_shards(metric: AggregatedMetric) -> InputError:
    """The refusal of a shard for a metric whose rows depend on the whole corpus and that defines no state."""
    return InputError(
        f"{metric.name}'s statistics depend on the whole corpus and it defines no mergeable state: "
        "score the whole corpus at once instead"
    )


ADDITIVE = Additive()
CORPUS_WEIGHTED = CorpusWeighted()
