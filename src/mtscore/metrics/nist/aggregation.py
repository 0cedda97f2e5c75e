"""NIST's strategy (``core.aggregation``): its rows carry the corpus's information weights.

A resample recomputes the weights from its own reference corpus (``resampling``), a shard's state is
its n-gram tables (``state``), a shard file keeps its segments' tokens (``tokens``), and a shard's
sentence scores take the weights of every shard's references merged (``sentence_context``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ...core.aggregation import CorpusWeighted
from ...engine.keys import TokenKeys
from ...errors import InputError
from . import state
from .options import NISTSettings
from .references import Detail, PreparedReferences
from .resampling import resampled_rows, shared_resampled_rows
from .state import NISTState
from .tokens import ShardTokens, check_shard_tokens, corpus_keys, same_keys, shard_tokens


class NISTMetric(NISTSettings, Protocol):
    """What the strategy reads of a ``NIST`` metric (a protocol: the metric module imports this one)."""

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The score of each row of summed statistics."""
        ...

    def score_statistics(self, statistics: Any, nrefs: int | str | None = None) -> Any:
        """The corpus result of per-segment statistics."""
        ...

    def prepare_keys(self, tokens: TokenKeys, present: np.ndarray) -> PreparedReferences:
        """References prepared from their token keys."""
        ...

    def key_statistics(self, prepared: PreparedReferences, tokens: TokenKeys) -> Any:
        """The rows of hypotheses given as token keys."""
        ...

    def weighted_by(self, context: NISTState) -> NISTMetric:
        """This metric with the information weights of ``context`` (``CorpusWeightedNIST``)."""
        ...


@dataclass(frozen=True)
class NISTAggregation(CorpusWeighted):
    """How NIST's rows are resampled, sharded and given their sentence scores' context."""

    def resampled_scores(self, metric: NISTMetric, statistics: np.ndarray, weights: np.ndarray) -> np.ndarray:  # type: ignore[override]
        """Exact NIST of each resample (float64): the information weights recomputed from the
        resampled reference corpus, from the matches per n-gram that ``segment_statistics`` carries."""
        rows = resampled_rows(np.asarray(statistics), _detail(statistics), weights, metric.max_order)
        return metric.scores_of_sums(rows)

    def shared_resampled_scores(  # type: ignore[override]
        self, metric: NISTMetric, systems: Sequence[np.ndarray], weights: np.ndarray
    ) -> np.ndarray:
        """``resampled_scores`` of each system's statistics on the same resamples (systems x resamples),
        the same numbers: systems counted against the same references share each resample's
        reference counts and information weights, computed once for all of them."""
        details = [(np.asarray(statistics), _detail(statistics)) for statistics in systems]
        shared = shared_resampled_rows(details, weights, metric.max_order)
        return np.stack([metric.scores_of_sums(sums) for sums in shared])

    def shard_state(self, metric: NISTMetric, hypotheses: Sequence[str], references: Any) -> NISTState:  # type: ignore[override]
        """A shard's n-gram tables, merged exactly with ``+`` and scored with the whole corpus's weights."""
        return state.shard_state(metric, hypotheses, references)

    def empty_shard_state(self, metric: NISTMetric) -> NISTState:  # type: ignore[override]
        return state.empty_state(metric)

    def state_segments(self, metric: NISTMetric, shard: NISTState) -> int:  # type: ignore[override]
        return shard.segments

    def score_shard_state(self, metric: NISTMetric, shard: NISTState) -> Any:  # type: ignore[override]
        return metric.score_statistics(state.summed_row(metric, shard)[None, :])

    def shard_arrays(self, metric: NISTMetric, hypotheses: Sequence[str], references: Any) -> dict[str, np.ndarray]:  # type: ignore[override]
        """A shard file keeps its segments' tokens (``tokens.ShardTokens``), smaller than its text: joined,
        they are the whole corpus, whose resamples recompute the information weights."""
        return shard_tokens(metric, hypotheses, references).to_arrays()

    def check_shard_arrays(self, metric: NISTMetric, arrays: Mapping[str, np.ndarray]) -> None:  # type: ignore[override]
        """A shard's tokens must be consistent: ``tokens.check_shard_tokens``."""
        check_shard_tokens(arrays)

    def joined_statistics(  # type: ignore[override]
        self, metric: NISTMetric, systems: Sequence[Sequence[Mapping[str, np.ndarray]]]
    ) -> list[np.ndarray]:
        """Each system's rows of its shards' tokens joined in order, as the in-memory API gives them
        for the whole files (to the bit, resamples included); references the same as the previous
        system's are counted once."""
        rows: list[np.ndarray] = []
        known: tuple[TokenKeys, np.ndarray] | None = None
        prepared: PreparedReferences | None = None
        for shards in systems:
            references, present, hypotheses = corpus_keys([ShardTokens.from_arrays(shard) for shard in shards])
            if known is None or not (np.array_equal(known[1], present) and same_keys(known[0], references)):
                known, prepared = (references, present), metric.prepare_keys(references, present)
            assert prepared is not None
            rows.append(metric.key_statistics(prepared, hypotheses))
        return rows

    def empty_sentence_context(self, metric: NISTMetric) -> NISTState | None:  # type: ignore[override]
        return state.empty_state(metric)

    def sentence_context(self, metric: NISTMetric, references: Any) -> NISTState | None:  # type: ignore[override]
        """A shard's reference n-gram counts: merged over the corpus, its segments' information weights."""
        return state.reference_state(metric, references)

    def in_context(self, metric: NISTMetric, context: NISTState) -> NISTMetric:  # type: ignore[override]
        """NIST with the information weights of ``context`` (``sentence_context`` of every shard, merged)."""
        return metric.weighted_by(context)


@dataclass(frozen=True)
class WeightedNISTAggregation(NISTAggregation):
    """NIST's strategy for a metric that has the whole corpus's weights already (``CorpusWeightedNIST``):
    its sentence scores need nothing more of the corpus."""

    def empty_sentence_context(self, metric: NISTMetric) -> NISTState | None:  # type: ignore[override]
        return None

    def sentence_context(self, metric: NISTMetric, references: Any) -> NISTState | None:  # type: ignore[override]
        return None


def _detail(statistics: np.ndarray) -> Detail:
    """The matches per n-gram that ``segment_statistics`` rows carry, which resampling needs."""
    pending = getattr(statistics, "detail", None)  # a references.PendingDetail
    if pending is None:
        raise InputError(
            "NIST resamples need the statistics of segment_statistics (they carry the matches per n-gram): "
            "rows alone, sliced, merged or loaded, cannot be resampled exactly"
        )
    return pending.detail


NIST_AGGREGATION = NISTAggregation()
WEIGHTED_NIST_AGGREGATION = WeightedNISTAggregation()
