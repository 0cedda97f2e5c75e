"""What valid statistics are, checked where they come from outside (shard files, saved ``Statistics``).

Counts that were altered but still load are refused, not scored. A metric declares what its own
rows must satisfy (``Metric.statistic_bounds``, ``Metric.whole_columns``, ``Metric.row_checks``);
the checks here read those declarations, so no metric writes them again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from ..errors import InputError

# Counts are refused when their number times the largest reaches this: a sum of them (int64, or
# float64 in resampling) could then be inexact or overflow.
COUNT_LIMIT = 2**53

RowCheck = Callable[[np.ndarray], None]


class CheckedMetric(Protocol):
    """What the checks read of a metric (``Metric`` has it)."""

    name: str
    statistic_bounds: tuple[tuple[int, int], ...]
    whole_columns: tuple[int, ...]
    column_labels: tuple[str, ...]
    row_checks: tuple[RowCheck, ...]

    @property
    def integer_statistics(self) -> bool:
        """Whether the statistics are integers."""
        ...

    def statistics_width(self) -> int | None:
        """The number of columns of the statistics, if the metric declares it."""
        ...

    def segment_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray:
        """One row of statistics per segment."""
        ...

    def statistic_names(self) -> tuple[str, ...]:
        """The name of each column, or none."""
        ...


def statistics_width(metric: CheckedMetric) -> int:
    """The number of columns of ``metric``'s statistics, found on a one-word segment once per metric."""
    cached = vars(metric).get("_statistics_width")
    if cached is None:
        cached = int(metric.segment_statistics(["a"], [["a"]]).shape[1])
        vars(metric)["_statistics_width"] = cached
    return int(cached)


def column_labels(metric: CheckedMetric) -> tuple[str, ...]:
    """What each column of the statistics is called in messages: the metric's ``column_labels``,
    else its ``statistic_names``, else the column's number."""
    return (
        metric.column_labels
        or metric.statistic_names()
        or tuple(f"column {n}" for n in range(statistics_width(metric)))
    )


def check_statistics(metric: CheckedMetric, rows: Any) -> None:
    """Raise ``InputError`` saying what is wrong unless ``rows`` could be ``metric``'s statistics.

    Args:
        metric: The metric the rows claim to be of.
        rows: A (segments x columns) matrix: as many columns as the metric counts, integers where it
            counts integers, finite, non-negative, within its ``statistic_bounds``, whole numbers in
            its ``whole_columns``, small enough that column sums cannot overflow, and passing its
            ``row_checks``.

    Raises:
        InputError: Naming the metric and the first rule the rows break.
    """
    rows = np.asarray(rows)
    check_statistics_shape(metric, rows)
    check_count_array(rows, "statistics", integers=metric.integer_statistics)
    rows = rows.astype(np.int64 if metric.integer_statistics else np.float64, copy=False)
    whole = list(metric.whole_columns)
    if whole and not np.array_equal(rows[:, whole], np.floor(rows[:, whole])):
        raise InputError(f"{metric.name} statistics hold a fraction where counts must be whole numbers")
    for smaller, larger in metric.statistic_bounds:
        if (rows[:, smaller] > rows[:, larger]).any():
            names = column_labels(metric)
            raise InputError(f"{metric.name} statistics with {names[smaller]} above {names[larger]}")
    for check in metric.row_checks:
        check(rows)


def check_statistics_shape(metric: CheckedMetric, rows: np.ndarray, width: int | None = None) -> None:
    """Raise ``InputError`` unless ``rows`` is a (segments x columns) matrix ``width`` columns wide
    (by default as wide as ``metric``'s statistics, counted on a segment)."""
    width = statistics_width(metric) if width is None else width
    if rows.ndim != 2 or rows.shape[1] != width:
        raise InputError(
            f"{metric.name} statistics must be a (segments, {width}) matrix: {width} columns per segment, "
            f"got shape {rows.shape}"
        )


def check_scored_statistics(metric: CheckedMetric, rows: np.ndarray) -> None:
    """Raise ``InputError`` unless ``rows`` are statistics ``metric`` can score: a matrix, as wide as
    the metric declares its statistics (``Metric.statistics_width``; not counted here: that would
    score a segment), and of at least one segment (``check_some_segments``)."""
    width = metric.statistics_width()
    if width is not None:
        check_statistics_shape(metric, rows, width)
    elif rows.ndim != 2:
        raise InputError(f"{metric.name} statistics must be a matrix with a row per segment, got shape {rows.shape}")
    check_some_segments(metric.name, len(rows))


def check_some_segments(name: str, segments: int) -> None:
    """The rule for empty input, the same for every metric: statistics of no segments are refused
    (``InputError``), as hypotheses of none are, rather than scored as 0 (sacrebleu fails on an
    empty corpus)."""
    if segments == 0:
        raise InputError(f"{name} statistics must be non-empty: they hold no segments to score")


def check_count_array(values: Any, what: str, integers: bool = True) -> None:
    """Raise ``InputError`` unless ``values`` are counts: numbers (integers if ``integers``),
    finite, non-negative, and whose sum stays below ``COUNT_LIMIT`` (so no sum of them overflows)."""
    values = np.asarray(values)
    kinds = "iu" if integers else "iuf"
    if values.dtype.kind not in kinds:
        expected = "integers" if integers else "numbers"
        raise InputError(f"{what} must be {expected}, got values of type {values.dtype}")
    if values.dtype.kind == "f" and not np.isfinite(values).all():
        raise InputError(f"{what} must be finite numbers, got inf or NaN")
    if values.size and values.min() < 0:
        raise InputError(f"{what} must be non-negative, got {values.min()}")
    if values.size and float(values.max()) * values.size >= COUNT_LIMIT:
        raise InputError(f"{what} hold counts so large that their sums would overflow")


def check_array_names(arrays: Mapping[str, Any], names: Sequence[str]) -> None:
    """Raise ``InputError`` unless ``arrays`` hold exactly the arrays called ``names``."""
    missing, unknown = set(names) - set(arrays), set(arrays) - set(names)
    if missing or unknown:
        found = ", ".join(sorted(arrays)) or "none"
        raise InputError(f"expected the arrays {', '.join(names)}, found {found}")
