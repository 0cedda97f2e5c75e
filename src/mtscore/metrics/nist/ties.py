"""NLTK's choice of reference, made exactly: vectorised where it is clear, in NLTK's own float
arithmetic where two references come within rounding of each other.

NLTK 3.10's ``corpus_nist`` keeps, per segment and order, the reference with the largest tuple
(precision, numerator, denominator, reference length), the first of equal ones. Its numerator is a
Python float sum of ``info(g) * count`` over the clipped overlap, in the order in which the n-grams
first occur in the hypothesis, with ``info(g) = math.log(prefix_count / count, 2)``. Our sums run in
another order with ``np.log``'s weights (which can differ from ``math.log``'s in the last bit), so
where references come within 1e-12 (relative; more for sums of over a thousand terms) of the best,
we cannot tell NLTK's choice from ours:

- if all those references overlap the hypothesis in the same n-grams with the same counts, NLTK
  adds the same terms in the same order, so they tie exactly (the longer reference wins);
- if the best numerator is 0, every term is 0 in both arithmetics: an exact tie again;
- if they overlap it in other n-grams but add the same non-zero terms in the same order (n-grams of
  equal weights, or extra n-grams of weight 0, which add 0.0: ``NltkTies.term_classes``), NLTK's
  sums are equal again (about 9 in 10 of the near-ties of a WMT22 en-de system with two references);
- otherwise the cell is *unsure* (about 2 in 1,000 cells there), and ``NltkTies.decide`` recomputes
  each reference's tuple in Python as NLTK does and takes Python's ``max``.

The overlaps do not depend on the weights, so a resample (whose reference counts, and so weights,
differ) settles its own unsure cells with ``decide`` and its own weights, from the same overlaps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

_TIE = 1e-12  # relative: beyond this, float sums in any order keep their real order
_TIE_PER_TERM = 1e-15  # relative, per term: a sum of k terms is off by at most (k + 4) 2^-53 (weights' ulps)


def choose_nltk(
    numerators: np.ndarray, totals: np.ndarray, lengths: np.ndarray, classes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per segment and order, the stream NLTK's ``max`` over (precision, numerator, denominator,
    reference length) picks, and where that pick is unsure. ``numerators``: [..., streams,
    segments, N]; ``totals``: segments x N; ``lengths``: streams x segments (-1: missing);
    ``classes``: streams x segments x N, equal where two streams overlap the hypothesis alike.
    Streams within 1e-12 (relative; 1e-15 per term for sums of over a thousand terms) of the best
    are candidates; among candidates of one class (or all at 0) the longest, then the first, wins,
    as in NLTK; ``unsure`` ([..., segments, N]) marks cells whose candidates differ in class, which
    ``NltkTies.decide`` must settle."""
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(totals > 0, numerators / totals, 0.0)
    absent = (lengths < 0)[..., None]
    precision = np.where(absent, -np.inf, precision)
    axis = numerators.ndim - 3
    tie = np.maximum(_TIE, _TIE_PER_TERM * (totals + 4))  # segments x N: the terms number at most totals
    candidate = _near_best(precision, axis, tie)
    candidate &= _near_best(np.where(candidate, numerators, -np.inf), axis, tie)
    length = np.where(candidate, np.broadcast_to(lengths[..., None], numerators.shape), -2)
    best = np.argmax(candidate & (length == length.max(axis=axis, keepdims=True)), axis=axis)
    first = np.argmax(candidate, axis=axis)
    first_class = np.take_along_axis(np.broadcast_to(classes, numerators.shape), np.expand_dims(first, axis), axis)
    unsure = (candidate & (classes != first_class)).any(axis=axis)
    top = np.take_along_axis(numerators, np.expand_dims(first, axis), axis).squeeze(axis)
    return best, unsure & (top > 0)


def _near_best(values: np.ndarray, axis: int, tie: np.ndarray) -> np.ndarray:
    """Where ``values`` are within ``tie`` (relative) of their maximum along ``axis``."""
    best = values.max(axis=axis, keepdims=True)
    return values >= best - tie * np.abs(best)


def overlap_classes(clipped: np.ndarray, cells: np.ndarray, n_cells: int) -> np.ndarray:
    """Per stream and cell (segment * N + order - 1), the first stream whose clipped overlap with the
    hypothesis is the same (same n-grams, same counts): ``clipped`` (streams x n-grams the
    hypotheses hold) and the cell of each of those n-grams. Shape streams x cells."""
    n_streams = len(clipped)
    classes = np.tile(np.arange(n_streams)[:, None], (1, n_cells))
    for b in range(1, n_streams):
        for a in range(b):
            alike = np.bincount(cells[clipped[a] != clipped[b]], minlength=n_cells) == 0
            classes[b] = np.where(alike & (classes[b] == b), classes[a], classes[b])
    return classes


@dataclass
class NltkTies:
    """What settling an unsure cell needs: the hypotheses' n-grams that their segment's references
    hold, per order in position order (``hyp_segments`` ascending, ``hyp_pairs`` the (segment,
    n-gram) pair of each), per pair its n-gram (``pair_ngrams``, global ids), its count in
    the hypothesis and in each reference stream (``stream_counts``, streams x pairs), the
    hypothesis n-grams per segment and order, the reference lengths (streams x segments, -1:
    missing), and the overlap classes (streams x segments x N)."""

    hyp_segments: list[np.ndarray]
    hyp_pairs: list[np.ndarray]
    pair_ngrams: np.ndarray
    hyp_counts: np.ndarray
    stream_counts: np.ndarray
    totals: np.ndarray
    lengths: np.ndarray
    classes: np.ndarray

    def __post_init__(self) -> None:
        self._cells: dict[tuple[int, int], tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]] = {}
        self._lengths: list[list[int]] = self.lengths.tolist()
        self._totals: list[list[int]] = self.totals.tolist()

    def decide(self, segment: int, order: int, weights: list[float]) -> int:
        """The stream NLTK picks for ``segment`` and ``order`` (1..N): each present stream's
        (precision, numerator, denominator, reference length) in NLTK's arithmetic, then Python's
        ``max`` (the first of equal tuples). ``weights``: NLTK's information weights of
        ``used(segment, order)``, in that order."""
        used, overlaps = self._overlaps(segment, order)
        info = dict(zip(used, weights, strict=True))
        denominator = int(self._totals[segment][order - 1])
        best, best_tuple = -1, None
        for stream, pairs in overlaps:
            numerator = sum(info[g] * count for g, count in pairs)  # NLTK's own expression, as its Python adds
            precision = 0 if denominator == 0 else numerator / denominator
            candidate = (precision, numerator, denominator, self._lengths[stream][segment])
            if best_tuple is None or candidate > best_tuple:
                best, best_tuple = stream, candidate
        return best

    def term_classes(
        self, segments: np.ndarray, orders: np.ndarray, prefix_counts: np.ndarray, counts: np.ndarray
    ) -> np.ndarray:
        """Per stream and cell (``segments``, ``orders`` 1..N), the first stream whose NLTK numerator
        adds the same non-zero terms in the same order: the same clipped counts of n-grams of the
        same weight (the same quotient ``prefix_counts / counts``, global n-gram ids) in the
        hypothesis's order of first occurrence, n-grams of weight 0 left out. Such numerators are
        equal in any float arithmetic, however the n-grams differ. Shape streams x cells."""
        n_streams = len(self.stream_counts)
        classes = np.tile(np.arange(n_streams)[:, None], (1, len(segments)))
        for order in sorted(set(orders.tolist())):
            cells = np.flatnonzero(orders == order)  # ascending by segment, as the near-ties come
            cell_of = np.full(len(self._totals), -1, dtype=np.int64)
            cell_of[segments[cells]] = np.arange(len(cells))
            hyp_segments, hyp_pairs = self.hyp_segments[order - 1], self.hyp_pairs[order - 1]
            at = np.flatnonzero(cell_of[hyp_segments] >= 0)
            at = at[first_occurrences(hyp_pairs[at])]  # each pair's first occurrence, in position order
            pairs, cell = hyp_pairs[at], cell_of[hyp_segments[at]]
            ngrams = self.pair_ngrams[pairs]
            weight = prefix_counts[ngrams] / counts[ngrams]  # NLTK's weight is a function of this quotient
            clipped = np.minimum(self.hyp_counts[pairs], self.stream_counts[:, pairs])  # streams x entries
            for b in range(1, n_streams):
                for a in range(b):
                    alike = _same_terms(cell, len(cells), weight, clipped[a], clipped[b])
                    classes[b, cells] = np.where(alike & (classes[b, cells] == b), classes[a, cells], classes[b, cells])
        return classes

    def used(self, segment: int, order: int) -> list[int]:
        """The n-grams (global ids, ascending) that some present stream overlaps in this cell."""
        return self._overlaps(segment, order)[0]

    def prepare(self, cells: list[tuple[int, int]]) -> None:
        """Work out the overlaps of these (segment, order) cells together, order by order: each
        present stream's clipped overlap (n-gram, count) in the order of first occurrence in the
        hypothesis, and the n-grams any of them overlaps (sorted). Kept: a resample asks for the
        same cells again under other weights."""
        todo = sorted({cell for cell in cells if cell not in self._cells})
        for order in sorted({order for _, order in todo}):
            segments = np.array([segment for segment, o in todo if o == order], dtype=np.int64)
            asked = np.zeros(len(self._totals), dtype=bool)
            asked[segments] = True
            hyp_segments, hyp_pairs = self.hyp_segments[order - 1], self.hyp_pairs[order - 1]
            at = np.flatnonzero(asked[hyp_segments])
            at = at[first_occurrences(hyp_pairs[at])]  # each pair's first occurrence, in position order
            pairs = hyp_pairs[at]
            bounds = np.searchsorted(hyp_segments[at], np.append(segments, len(self._totals))).tolist()
            ngrams = self.pair_ngrams[pairs].tolist()
            clipped = np.minimum(self.hyp_counts[pairs], self.stream_counts[:, pairs]).tolist()
            for segment, lo, hi in zip(segments.tolist(), bounds, bounds[1:], strict=False):
                overlaps = [
                    (stream, [(g, c) for g, c in zip(ngrams[lo:hi], clipped[stream][lo:hi], strict=True) if c > 0])
                    for stream in range(len(clipped))
                    if self._lengths[stream][segment] >= 0
                ]
                self._cells[segment, order] = (sorted({g for _, pairs in overlaps for g, _ in pairs}), overlaps)

    def _overlaps(self, segment: int, order: int) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """``prepare``'s overlaps of one cell."""
        if (segment, order) not in self._cells:
            self.prepare([(segment, order)])
        return self._cells[segment, order]


def first_occurrences(values: np.ndarray) -> np.ndarray:
    """The index of each distinct value's first occurrence, ascending (``np.unique``'s
    ``return_index``, sorted; without ``np.unique``, whose first call in a process costs ~10 ms)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first = np.ones(len(values), dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return np.sort(order[first])


def _same_terms(cell: np.ndarray, n_cells: int, weight: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per cell, whether two streams' clipped counts ``a`` and ``b`` of the cells' entries (``cell``
    ascending, entries in the order of first occurrence) give the same sequence of (weight, count)
    over their entries with a count above 0 and a weight (``weight``: the quotient of NLTK's log)
    other than 0."""
    weighed = weight != 1.0  # a weight of log2(1) = 0 adds 0.0, which leaves any float sum as it is
    kept_a, kept_b = np.flatnonzero((a > 0) & weighed), np.flatnonzero((b > 0) & weighed)
    same = np.bincount(cell[kept_a], minlength=n_cells) == np.bincount(cell[kept_b], minlength=n_cells)
    # In cells with as many terms on both sides, the k-th terms of a and of b line up.
    kept_a, kept_b = kept_a[same[cell[kept_a]]], kept_b[same[cell[kept_b]]]
    differ = (weight[kept_a] != weight[kept_b]) | (a[kept_a] != b[kept_b])
    return same & (np.bincount(cell[kept_a[differ]], minlength=n_cells) == 0)


def nltk_weights(prefix_counts: np.ndarray, counts: np.ndarray) -> list[float]:
    """NLTK's information weights, ``math.log(prefix / count, 2)`` one by one (``np.log`` can differ
    from ``math.log`` in the last bit); the counts are whole numbers, so their float64 quotient is
    NLTK's integer true division."""
    return [math.log(ratio, 2) for ratio in (prefix_counts / counts).tolist()]
