"""Bootstrap resamples and randomization trials as weighted column sums; seeds, intervals, p-values.

A resample of per-segment statistics is a weighted sum of its rows, so all resamples are a few
matrix products, done in chunks so that memory stays bounded. Draws, seeds and arithmetic follow
sacrebleu 2.6.0: p-values, means and intervals are its own for the same seed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from statistics import mean as exact_average
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..progress import Progress

if TYPE_CHECKING:
    from ..core.metric import Metric

DEFAULT_SEED = 12345


SEED_VARIABLES = ("MTSCORE_SEED", "SACREBLEU_SEED")  # ours first; sacrebleu's is honoured too


DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}


_CHUNK_BYTES = 32 << 20  # resample weights held at once


_COUNT_BYTES = 2 << 20  # draws counted at once (their bincount stays in a core's cache)


_BOOL_BLOCK = 32  # NumPy draws booleans 32 to a word: chunks of 32 trials give the draws of one call


_FLOAT32_INTEGERS = 1 << 24  # float32 holds every integer up to this exactly


def resolve_seed(seed: int | str | None = None) -> int | None:
    """The seed in force: ``seed`` if given, else $MTSCORE_SEED, else $SACREBLEU_SEED, else 12345.
    ``"none"`` means fresh entropy from the OS (``None``)."""
    if seed is None:
        seed = next((os.environ[name] for name in SEED_VARIABLES if os.environ.get(name)), DEFAULT_SEED)
    if isinstance(seed, str):
        if seed.strip().lower() == "none":
            return None
        try:
            seed = int(seed)
        except ValueError:
            raise InputError(f"seed must be an integer or 'none', got {seed!r}") from None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative integer or 'none', got {seed!r}")
    return int(seed)


def confidence_interval(scores: np.ndarray, exact_mean: bool = False) -> tuple[float, float]:
    """sacrebleu's estimate from resampled scores: their mean and the half-width of the 95%
    interval between the sorted values n//40 from either end, in the scores' own precision
    (float32 for metrics whose resampled scores sacrebleu computes in float32). sacrebleu averages
    the sorted scores with NumPy in paired tests and exactly (``statistics.mean``) for one system."""
    ordered = np.sort(scores)
    lower, upper = percentile_bounds(ordered)
    mean = exact_average(ordered.tolist()) if exact_mean else ordered.mean()
    return float(mean), float(0.5 * (upper - lower))


def percentile_bounds(scores: np.ndarray) -> tuple[Any, Any]:
    """The 2.5% and 97.5% bounds by sacrebleu's index rule (n//40 from either end of the sorted
    values), as NumPy scalars of the scores' type."""
    cut = len(scores) // 40
    bounds = (cut, len(scores) - cut - 1)
    ordered = np.partition(scores, bounds)  # those two in sorted place: no full sort needed
    return ordered[bounds[0]], ordered[bounds[1]]


def check_defined(name: str, scores: np.ndarray) -> None:
    """Refuse resamples whose score is undefined (NaN: a metric of rated segments, a resample that drew
    none), rather than print an interval or p-value of NaN."""
    missing = int(np.count_nonzero(np.isnan(scores)))
    if missing:
        raise InputError(
            f"{name}: {missing} of {scores.size} resampled scores are undefined (a resample drew no segment the "
            "score is defined for, e.g. none rated): too few such segments to resample"
        )


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values: the i-th smallest is multiplied by (m - i), made
    monotone and capped at 1, so comparing them with alpha controls the family-wise error."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (len(p) - np.arange(len(p)))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    return adjusted


def p_value(sampled: np.ndarray, observed: float) -> float:
    """(c + 1) / (n + 1), c counting samples at least as large as the observed statistic.

    sacrebleu counts only larger ones, which gives identical systems p = 1/(n+1) instead of 1;
    the two agree whenever no sample ties the observed value exactly."""
    return (int(np.count_nonzero(sampled >= observed)) + 1) / (len(sampled) + 1)


def _rows_per_chunk(n_segments: int, block: int = 1, itemsize: int = 8) -> int:
    """Resamples or trials per chunk: their weights (``itemsize`` bytes each) fit in _CHUNK_BYTES."""
    rows = max(1, _CHUNK_BYTES // (itemsize * max(n_segments, 1)))
    return max(block, rows // block * block)


def _product_type(statistics: np.ndarray, largest: float) -> type[np.floating[Any]]:
    """float32 when the weighted sums are sums of integers that never exceed ``largest``, so
    that float32 holds every partial sum exactly (half the memory traffic), else float64."""
    if largest < _FLOAT32_INTEGERS and np.array_equal(statistics, np.rint(statistics)):
        return np.float32
    return np.float64


def bootstrap_weights(
    n: int,
    n_samples: int,
    rng: np.random.Generator,
    progress: Progress | None = None,
    dtype: type[np.number[Any]] = np.int64,
) -> Iterator[np.ndarray]:
    """Chunks of resamples as segment multiplicities (rows x n, in ``dtype``), drawn as sacrebleu's
    ``rng.choice(n, (n_samples, n))``: the same draws for every metric that uses them. The counts
    are taken a few rows at a time (one bincount of the draws offset by row, small enough to stay
    in cache) into one buffer, reused from chunk to chunk: use each chunk before asking for the next."""
    step = min(_rows_per_chunk(n, itemsize=np.dtype(dtype).itemsize), n_samples)
    counted = max(1, min(step, _COUNT_BYTES // (8 * n)))
    offsets = n * np.arange(counted)[:, None]
    weights = np.empty((step, n), dtype)
    for start in range(0, n_samples, step):
        rows = min(step, n_samples - start)
        for first in range(0, rows, counted):
            count = min(counted, rows - first)
            drawn = rng.integers(0, n, size=(count, n))  # the very draws of rng.choice(n, size, replace=True)
            drawn += offsets[:count]
            weights[first : first + count] = np.bincount(drawn.ravel(), minlength=count * n).reshape(count, n)
        yield weights[:rows]
        if progress:
            progress.advance(rows)


def bootstrap_chunks(
    statistics: np.ndarray,
    n_samples: int,
    rng: np.random.Generator,
    progress: Progress | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(weights, sums)`` per chunk of resamples: the multiplicities (``bootstrap_weights``) and
    the column sums of the rows they select, one matrix product (exact: see ``_product_type``)."""
    n = len(statistics)
    kind = _product_type(statistics, n * np.abs(statistics).max(initial=0))  # weights add up to n
    matrix = statistics.astype(kind)
    for weights in bootstrap_weights(n, n_samples, rng, progress, kind):
        yield weights, weights @ matrix


def bootstrap_sums(
    statistics: np.ndarray,
    n_samples: int,
    rng: np.random.Generator,
    progress: Progress | None = None,
) -> np.ndarray:
    """Column sums of ``n_samples`` resamples of the rows (with replacement), drawn as sacrebleu's
    ``rng.choice(n, (n_samples, n))``, as a (n_samples x columns) float64 array."""
    sums = np.empty((n_samples, statistics.shape[1]))
    start = 0
    for _, chunk in bootstrap_chunks(statistics, n_samples, rng, progress):
        sums[start : start + len(chunk)] = chunk
        start += len(chunk)
    return sums


def randomization_chunks(
    statistics: np.ndarray, n_trials: int, rng: np.random.Generator, progress: Progress | None = None
) -> Iterator[np.ndarray]:
    """For each chunk of trials, the column sums over the segments each trial selects (each with
    probability 1/2, drawn as sacrebleu's ``rng.integers(2, size=(n_trials, n), dtype=bool)``;
    chunks of whole 32-trial blocks draw exactly what one call draws)."""
    n = len(statistics)
    kind = _product_type(statistics, np.abs(statistics).sum(axis=0).max(initial=0))
    matrix = statistics.astype(kind)
    step = _rows_per_chunk(n, _BOOL_BLOCK, np.dtype(kind).itemsize)
    for start in range(0, n_trials, step):
        rows = min(step, n_trials - start)
        yield rng.integers(2, size=(rows, n), dtype=bool).astype(kind) @ matrix
        if progress:
            progress.advance(rows)


def randomization_sums(
    statistics: np.ndarray, n_trials: int, rng: np.random.Generator, progress: Progress | None = None
) -> np.ndarray:
    """``randomization_chunks`` as one (n_trials x columns) float64 array."""
    chunks = list(randomization_chunks(statistics, n_trials, rng, progress))
    return np.concatenate(chunks).astype(np.float64) if chunks else np.empty((0, statistics.shape[1]))


def bootstrap_confidence(
    metric: Metric[Any, Any],
    statistics: np.ndarray,
    n_samples: int = DEFAULT_SAMPLES["bs"],
    seed: int | str | None = None,
) -> tuple[float, float]:
    """The bootstrap mean and 95% half-width of one system's score (sacrebleu's ``--confidence``)."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise InputError(f"the number of resamples must be a positive integer, got {n_samples!r}")
    if len(statistics) == 0:
        raise InputError("no segments to resample")
    rng = np.random.default_rng(resolve_seed(seed))
    scores = metric.aggregation.bootstrap_scores(metric, statistics, Bootstrap(n_samples, rng))
    check_defined(metric.name, scores)
    return confidence_interval(scores, exact_mean=True)


class Bootstrap:
    """``n_samples`` bootstrap resamples drawn from ``rng`` (``core.aggregation.Resampling``): as
    column sums or as segment multiplicities, each drawn as sacrebleu draws them."""

    def __init__(self, n_samples: int, rng: np.random.Generator):
        self.n_samples, self.rng = n_samples, rng

    def sums(self, statistics: np.ndarray) -> np.ndarray:
        """``bootstrap_sums`` of the rows (float64)."""
        return bootstrap_sums(statistics.astype(np.float64), self.n_samples, self.rng)

    def weights(self, n_segments: int) -> Iterator[np.ndarray]:
        """``bootstrap_weights`` of ``n_segments`` segments, chunk by chunk."""
        return bootstrap_weights(n_segments, self.n_samples, self.rng)
