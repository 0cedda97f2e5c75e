"""Scores broken down by bucket of segments, each with the number of segments in it and a 95%
bootstrap interval, so that a small bucket is not over-read.

A bucketing assigns every segment of every system to one bucket (by reference length, by the
system's length ratio, by its sentence score); a bucket's score is the metric's score of the
summed statistics of its segments. Intervals come from resampling the test set's segments (the
same resamples for every table, system and metric), so a bucket's size varies with the resample.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ...significance.resampling import bootstrap_weights
from .tokens import Encoded

if TYPE_CHECKING:
    from ...core.metric import Metric


@dataclass(frozen=True)
class BucketTable:
    """One breakdown under one measure: ``values[system, bucket]`` with ``lower``/``upper`` (its 95%
    interval) and ``counts`` (segments, or words, in the bucket); NaN where a bucket is empty."""

    title: str
    note: str
    measure: str
    labels: list[str]
    counts: np.ndarray
    values: np.ndarray
    lower: np.ndarray
    upper: np.ndarray


class Resamples:
    """``count`` bootstrap resamples of ``n`` segments as segment multiplicities, drawn once and
    kept when they fit in ``KEEP_BYTES``, else drawn again (the same draws) chunk by chunk each
    time sums are asked for, so that memory stays bounded on large test sets."""

    KEEP_BYTES = 256 << 20

    def __init__(self, n: int, count: int, seed: int | None):
        self.n, self.count = n, count
        self.seed = seed if seed is not None else int(np.random.default_rng().integers(2**32))
        self._kept = list(self._draw()) if n * count * 8 <= self.KEEP_BYTES else None

    def _draw(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        return (weights.astype(np.float64) for weights in bootstrap_weights(self.n, self.count, rng))

    def sums(self, matrix: np.ndarray) -> np.ndarray:
        """``count x columns``: the column sums of ``matrix`` (rows: segments) in each resample."""
        return self.sums_of_rows([matrix], np.arange(self.n))[0]

    def sums_of_rows(self, matrices: list[np.ndarray], rows: np.ndarray) -> list[np.ndarray]:
        """For each of ``matrices`` (rows: segments), the column sums of its ``rows`` in each
        resample (``count x columns``); the resamples' columns of ``rows`` are gathered once."""
        parts: list[list[np.ndarray]] = [[] for _ in matrices]
        picked = [np.asarray(matrix, dtype=np.float64)[rows] for matrix in matrices]
        for weights in self._kept if self._kept is not None else self._draw():
            chosen = weights[:, rows]
            for part, matrix in zip(parts, picked, strict=True):
                part.append(chosen @ matrix)
        return [np.vstack(part) for part in parts]


def labels_of(edges: Sequence[float]) -> list[str]:
    """Labels of the buckets that ``edges`` cut: ``<10``, ``10-20``, ..., ``>=50``."""
    middle = [f"{low:g}-{high:g}" for low, high in pairwise(edges)]
    return [f"<{edges[0]:g}", *middle, f">={edges[-1]:g}"]


def assign(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """The bucket of each value: 0 below the first edge, k for [edge k-1, edge k), len(edges) above."""
    return np.searchsorted(np.asarray(edges, dtype=np.float64), values, side="right")


def _bounds(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 95% percentile interval of each column; NaN where no resample has a value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column: a bucket no resample fills
        lower, upper = np.nanpercentile(samples, [2.5, 97.5], axis=0)
    return lower, upper


def scores_by_bucket(
    metrics: Sequence[Metric[Any, Any]],
    statistics: Sequence[Sequence[np.ndarray]],
    buckets: Sequence[np.ndarray],
    labels: list[str],
    resamples: Resamples,
    title: str,
    note: str,
) -> list[BucketTable]:
    """Each (additive) metric's score of each system's segments in each bucket (``buckets[system]``
    holds every segment's bucket; ``statistics[metric][system]``), with its interval over
    ``resamples``: one table per metric, titled ``title`` after the metric's name."""
    shape = (len(buckets), len(labels))
    counts = np.array([np.bincount(bucket, minlength=len(labels)) for bucket in buckets])
    found = [(np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, np.nan)) for _ in metrics]
    for system, bucket in enumerate(buckets):
        matrices = [np.asarray(stats[system], dtype=np.float64) for stats in statistics]
        for index in np.flatnonzero(counts[system]):
            rows = np.flatnonzero(bucket == index)
            sampled = resamples.sums_of_rows(matrices, rows)
            for metric, matrix, sums, (values, lower, upper) in zip(metrics, matrices, sampled, found, strict=True):
                total = matrix[rows].sum(axis=0, keepdims=True)
                with np.errstate(divide="ignore", invalid="ignore"):
                    values[system, index] = metric.scores_of_sums(total)[0]
                    lower[system, index], upper[system, index] = _bounds(metric.scores_of_sums(sums))
    return [
        BucketTable(f"{metric.name} {title}", note, metric.name, labels, counts, *arrays)
        for metric, arrays in zip(metrics, found, strict=True)
    ]


def histogram(scores: Sequence[np.ndarray], edges: Sequence[float], resamples: Resamples, title: str) -> BucketTable:
    """How many segments of each system have a sentence score in each bucket, with the interval of
    that count over the resamples."""
    labels = labels_of(edges)
    onehots = [np.eye(len(labels))[assign(s, edges)] for s in scores]
    bounds = [_bounds(resamples.sums(onehot)) for onehot in onehots]
    counts = np.array([onehot.sum(axis=0) for onehot in onehots]).astype(np.int64)
    note = "segments whose sentence score falls in each bucket; the interval is that of the count"
    lower, upper = (np.array([bound[i] for bound in bounds]) for i in (0, 1))
    return BucketTable(title, note, "segments", labels, counts, counts.astype(np.float64), lower, upper)


FREQUENCY_EDGES = (1, 2, 3, 5, 10, 100, 1000)
FREQUENCY_LABELS = ["0", "1", "2", "3-4", "5-9", "10-99", "100-999", ">=1000"]


def word_f_measure(encoded: Encoded, n_systems: int, resamples: Resamples) -> BucketTable:
    """Word F-measure (clipped word matches against the reference) by how often a word occurs in
    that reference corpus: rare words are where systems differ most. ``encoded``: the systems'
    streams, then the reference's. Hypothesis words that the reference never uses fall in bucket
    ``0``, which has precision only."""
    ref_words, ref_segments = encoded.ids[n_systems], encoded.segments(n_systems)
    bucket_of = assign(np.bincount(ref_words, minlength=len(encoded.words)), FREQUENCY_EDGES)
    n_buckets, n = len(FREQUENCY_LABELS), len(encoded.lengths[n_systems])
    ref_rows = _rows(ref_segments, bucket_of[ref_words], n, n_buckets)
    values, lower, upper, totals = [], [], [], []
    for system in range(n_systems):
        words, segments = encoded.ids[system], encoded.segments(system)
        hyp_rows = _rows(segments, bucket_of[words], n, n_buckets)
        matched_words, matched_segments, matched_counts = _clipped(
            words, segments, ref_words, ref_segments, len(encoded.words)
        )
        matches = _rows(matched_segments, bucket_of[matched_words], n, n_buckets, matched_counts)
        stats = np.hstack([matches, hyp_rows, ref_rows]).astype(np.float64)
        values.append(_f_measure(stats.sum(axis=0, keepdims=True), n_buckets)[0])
        low, high = _bounds(_f_measure(resamples.sums(stats), n_buckets))
        lower.append(low)
        upper.append(high)
        totals.append(np.where(np.arange(n_buckets) == 0, hyp_rows.sum(axis=0), ref_rows.sum(axis=0)))
    note = (
        "F-measure of word matches against the first reference, by the word's frequency in that reference corpus; "
        "n counts the reference words in the bucket (bucket 0: the hypothesis words that the reference never uses)"
    )
    arrays = (np.array(totals), np.array(values), np.array(lower), np.array(upper))
    return BucketTable("Word F-measure by frequency in the reference", note, "F", FREQUENCY_LABELS, *arrays)


def _rows(segments: np.ndarray, buckets: np.ndarray, n: int, n_buckets: int, weights: Any = None) -> np.ndarray:
    """Per segment, the (weighted) count of tokens in each bucket."""
    return np.bincount(segments * n_buckets + buckets, weights, minlength=n * n_buckets).reshape(n, n_buckets)


def _clipped(
    words: np.ndarray, segments: np.ndarray, ref_words: np.ndarray, ref_segments: np.ndarray, n_words: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each (segment, word) that both sides use, with min(hypothesis count, reference count)."""
    hyp_codes, hyp_counts = np.unique(segments * n_words + words, return_counts=True)
    ref_codes, ref_counts = np.unique(ref_segments * n_words + ref_words, return_counts=True)
    codes, in_hyp, in_ref = np.intersect1d(hyp_codes, ref_codes, assume_unique=True, return_indices=True)
    return codes % n_words, codes // n_words, np.minimum(hyp_counts[in_hyp], ref_counts[in_ref])


def _f_measure(sums: np.ndarray, n_buckets: int) -> np.ndarray:
    """100 x F1 of each row of summed [matches | hypothesis words | reference words] per bucket:
    2PR / (P + R) = 2 matches / (hypothesis words + reference words)."""
    matches, hyp, ref = sums[:, :n_buckets], sums[:, n_buckets : 2 * n_buckets], sums[:, 2 * n_buckets :]
    denominator = hyp + ref
    return np.where(denominator > 0, 200 * matches / np.where(denominator > 0, denominator, 1), np.nan)
