"""Segments held in table columns, for the engine adapters (``mtscore.ray``, ``mtscore.dask``).

A ``ColumnScorer`` travels to the workers (it pickles as the metric's name and options, or as the
metric object given) and reads a batch of rows (a pyarrow Table, a pandas DataFrame or a dict of
arrays: what Ray and Dask hand over) as a hypothesis column and reference columns. It turns the
batch into its mergeable state (``core.sums``) or into every row's sentence score (for NIST,
whose sentence scores depend on the whole corpus, in the context of every batch's reference
counts, reduced first: ``context``, ``for_sentences``). A missing reference
(``None``, NaN, ``pd.NA``, an Arrow null) is a missing reference for the metric, as ``None`` is
in the in-memory API. Neither Ray, Dask, pandas nor pyarrow is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .core.metric import Metric
from .core.sums import context_of, needs_context, sentence_score_array
from .errors import InputError
from .metrics import metric_object


def lines_of(values: Any) -> list[Any]:
    """The values of one column as a list, each missing value (None, NaN, ``pd.NA``, an Arrow null) as ``None``."""
    if hasattr(values, "to_pylist"):  # pyarrow: nulls are None already
        items = values.to_pylist()
    elif hasattr(values, "to_numpy") and hasattr(values, "dtype"):  # pandas: NA and NaN as None
        items = values.to_numpy(dtype=object, na_value=None).tolist()
    else:
        items = list(values)
    if set(map(type, items)) <= {str, type(None)}:  # one fast pass for the usual case
        return items
    return [None if _missing(item) else item for item in items]


def _missing(item: Any) -> bool:
    return item is None or (isinstance(item, float) and item != item) or type(item).__name__ == "NAType"


def reference_columns(references: str | Sequence[str]) -> tuple[str, ...]:
    """The reference column names: one name or a non-empty sequence of names."""
    names = (references,) if isinstance(references, str) else tuple(references)
    if not names or not all(isinstance(name, str) for name in names):
        raise InputError("references must name one reference column or a non-empty list of them")
    return names


class ColumnScorer:
    """A metric and the columns it reads: ``hypothesis`` and the ``references`` streams."""

    def __init__(
        self,
        metric: Metric | str,
        options: dict[str, Any],
        hypothesis: str = "hyp",
        references: str | Sequence[str] = ("ref",),
    ):
        self.recipe: Metric | tuple[str, dict[str, Any]]
        self.recipe = (metric, dict(options)) if isinstance(metric, str) else metric
        self.hypothesis, self.references = hypothesis, reference_columns(references)
        self._metric: Metric | None = metric_object(metric, options)  # checked here, on the driver

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_metric": None}  # rebuilt once per worker process from the recipe

    @property
    def metric(self) -> Metric:
        if self._metric is None:
            recipe = self.recipe
            self._metric = metric_object(*recipe) if isinstance(recipe, tuple) else recipe
        return self._metric

    def needs_context(self) -> bool:
        """Whether the rows' sentence scores need a context from every batch first (NIST's weights)."""
        return needs_context(self.metric)

    def empty_context(self) -> Any:
        """The context of no rows."""
        return self.metric.aggregation.empty_sentence_context(self.metric)

    def context(self, batch: Any) -> Any:
        """The batch's part of the sentence scores' context (``Aggregation.sentence_context``; only the
        reference columns are read)."""
        return context_of(self.metric, [lines_of(batch[name]) for name in self.references])

    def for_sentences(self, context: Any = None) -> ColumnScorer:
        """The scorer of the rows' sentence scores: this one, or, for a metric whose sentence scores
        depend on the whole corpus (NIST's information weights), this one in ``context``: every
        batch's ``context`` merged, which such a metric requires."""
        if not self.needs_context():
            return self
        if context is None:
            raise InputError(
                f"{self.metric.name}'s segment scores depend on the whole reference corpus: count every batch's "
                "references first (the engines do when given the whole dataset)"
            )
        return ColumnScorer(
            self.metric.aggregation.in_context(self.metric, context), {}, self.hypothesis, self.references
        )

    def empty(self) -> Any:
        """The state of no rows."""
        return self.metric.aggregation.empty_shard_state(self.metric)

    def segments(self, batch: Any) -> tuple[list[Any], list[list[Any]]]:
        """The hypotheses and reference streams of a batch of rows."""
        hypotheses = lines_of(batch[self.hypothesis])
        return hypotheses, [lines_of(batch[name]) for name in self.references]

    def state(self, batch: Any) -> Any:
        """The batch's mergeable state (``Aggregation.shard_state``)."""
        return self.metric.aggregation.shard_state(self.metric, *self.segments(batch))

    def scores(self, batch: Any) -> np.ndarray:
        """Every row's sentence score (the metric's ``sentence_scores``), float64."""
        return sentence_score_array(self.metric, *self.segments(batch))


def with_column(batch: Any, name: str, values: np.ndarray) -> Any:
    """``batch`` (a pyarrow Table, a pandas DataFrame or a dict of arrays) with a column ``name`` added."""
    if hasattr(batch, "append_column"):  # pyarrow.Table (so pyarrow is installed)
        import pyarrow

        if name in batch.column_names:
            batch = batch.drop_columns([name])
        return batch.append_column(name, pyarrow.array(values, type=pyarrow.float64()))
    if hasattr(batch, "assign"):  # pandas.DataFrame
        return batch.assign(**{name: values})
    return {**batch, name: values}
