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
- otherwise the cell is *unsure* (about 2% of the cells of a WMT22 en-de system with two
  references, mostly different n-grams of equal weights), and ``NltkTies.decide`` recomputes each
  reference's tuple in Python as NLTK does and takes Python's ``max``.

The overlaps do not depend on the weights, so a resample (whose reference counts, and so weights,
differ) settles its own unsure cells with ``decide`` and its own weights, from the same overlaps.
"""

from __future__ import annotations

import math
from collections import Counter
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
    """What settling an unsure cell needs: the hypotheses' n-gram ids per order in position order
    (``hyp_segments`` ascending, ``hyp_ngrams`` global ids, -1 where the references lack one),
    each stream's reference counts per (segment, n-gram) (``ref_keys`` sorted, segment * size +
    n-gram), the hypothesis n-grams per segment and order, the reference lengths (streams x
    segments, -1: missing), and the overlap classes (streams x segments x N)."""

    hyp_segments: list[np.ndarray]
    hyp_ngrams: list[np.ndarray]
    ref_keys: list[np.ndarray]
    ref_counts: list[np.ndarray]
    totals: np.ndarray
    lengths: np.ndarray
    classes: np.ndarray
    size: int

    def __post_init__(self) -> None:
        self._cells: dict[tuple[int, int], tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]] = {}
        self._bounds: dict[int, list[int]] = {}  # per order: where each segment's occurrences start
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
            numerator: float = 0
            for g, count in pairs:
                numerator += info[g] * count
            precision = 0 if denominator == 0 else numerator / denominator
            candidate = (precision, numerator, denominator, self._lengths[stream][segment])
            if best_tuple is None or candidate > best_tuple:
                best, best_tuple = stream, candidate
        return best

    def used(self, segment: int, order: int) -> list[int]:
        """The n-grams (global ids, ascending) that some present stream overlaps in this cell."""
        return self._overlaps(segment, order)[0]

    def prepare(self, cells: list[tuple[int, int]]) -> None:
        """Work out the overlaps of these (segment, order) cells together, one reference lookup per
        stream: each stream's clipped overlap (n-gram, count) in the order of first occurrence in the
        hypothesis, and the n-grams any of them overlaps (sorted). Kept: a resample asks for the
        same cells again under other weights."""
        todo = sorted({cell for cell in cells if cell not in self._cells})
        if not todo:
            return
        hyps: list[Counter[int]] = []
        wanted: list[int] = []
        for segment, order in todo:
            if order not in self._bounds:
                starts = np.searchsorted(self.hyp_segments[order - 1], np.arange(len(self._totals) + 1))
                self._bounds[order] = starts.tolist()
            lo, hi = self._bounds[order][segment : segment + 2]
            hyp = Counter(self.hyp_ngrams[order - 1][lo:hi].tolist())  # first occurrences first
            hyp.pop(-1, None)  # n-grams no reference holds overlap nothing
            hyps.append(hyp)
            wanted.extend(segment * self.size + g for g in hyp)
        keys = np.asarray(wanted, dtype=np.int64)
        found = [_lookup(k, c, keys).tolist() for k, c in zip(self.ref_keys, self.ref_counts, strict=True)]
        start = 0
        for (segment, order), hyp in zip(todo, hyps, strict=True):
            overlaps = []
            for stream, counts in enumerate(found):
                if self._lengths[stream][segment] >= 0:
                    refs = counts[start : start + len(hyp)]
                    clipped = [(g, min(h, r)) for (g, h), r in zip(hyp.items(), refs, strict=True)]
                    overlaps.append((stream, [(g, c) for g, c in clipped if c > 0]))
            start += len(hyp)
            self._cells[segment, order] = (sorted({g for _, pairs in overlaps for g, _ in pairs}), overlaps)

    def _overlaps(self, segment: int, order: int) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """``prepare``'s overlaps of one cell."""
        if (segment, order) not in self._cells:
            self.prepare([(segment, order)])
        return self._cells[segment, order]


def nltk_weights(prefix_counts: np.ndarray, counts: np.ndarray) -> list[float]:
    """NLTK's information weights, ``math.log(prefix / count, 2)`` one by one (``np.log`` can differ
    from ``math.log`` in the last bit); the counts are whole numbers, so their float64 quotient is
    NLTK's integer true division."""
    return [math.log(ratio, 2) for ratio in (prefix_counts / counts).tolist()]


def _lookup(keys: np.ndarray, values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``values`` at each wanted key in the sorted ``keys``, 0 where absent."""
    if len(keys) == 0:
        return np.zeros(len(wanted), dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], 0)
