"""Exact NIST scores of resampled corpora, from the matches per n-gram (``Detail``).

A resample with segment multiplicities w has reference counts R_w(g) = sum_s w_s R_s(g), so its
information weights log2(R_w(prefix g) / R_w(g)) differ from the full corpus's. Its numerator of
order n is sum_g M_w(g) info_w(g) with M_w = sum_s w_s M_s (mteval), or NLTK's per-segment choice
of reference made again under the new weights (its near-ties settled in NLTK's own arithmetic with
the resample's weights, ``ties.py``). Only matched n-grams (and their prefixes, matched
too) matter, so the sums run over them alone; resamples go in chunks so that memory stays bounded.
The reference counts and weights of a resample depend on the references and the draw alone, so
systems counted against the same references share them: they are computed once, over the union of
the systems' matched n-grams. Counts are sums of integers (exact in any order) and a weight is a
function of its two counts alone, so each system gets the very numbers it would get by itself.
All arithmetic is float64.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from .references import Detail, information
from .ties import choose_nltk, nltk_weights

_DENSE = 64  # n-grams in at least 1/_DENSE of the segments are weighed by a dense matrix product
_CHUNK_VALUES = 4 << 20  # float64 values held per chunk of resamples


def resampled_rows(rows: np.ndarray, detail: Detail, weights: np.ndarray, max_order: int) -> np.ndarray:
    """The summed rows of each resample (a row of ``weights``: segment multiplicities), with the
    information columns (and NLTK's reference length) recomputed under the resample's weights."""
    return shared_resampled_rows([(rows, detail)], weights, max_order)[0]


def shared_resampled_rows(
    systems: Sequence[tuple[np.ndarray, Detail]], weights: np.ndarray, max_order: int
) -> list[np.ndarray]:
    """``resampled_rows`` of each system (its rows and ``Detail``) on the same resamples, the same
    numbers to the bit: systems counted against the same references share each resample's reference
    counts and information weights."""
    weights = np.asarray(weights, dtype=np.float64)
    systems_resampled = [_SystemResampling(rows, detail, weights, max_order) for rows, detail in systems]
    by_references: dict[int, list[_SystemResampling]] = {}
    for system in systems_resampled:
        source = system.detail.source
        by_references.setdefault(id(system) if source is None else id(source), []).append(system)
    for group in by_references.values():
        _resample_together(group, weights)
    return [system.sums for system in systems_resampled]


class _SystemResampling:
    """One system's resampled rows, filled chunk by chunk of resamples (its own chunks, as it would
    be resampled alone) from the reference counts and weights of its matched n-grams."""

    def __init__(self, rows: np.ndarray, detail: Detail, weights: np.ndarray, max_order: int):
        self.detail, self.weights, self.max_order = detail, weights, max_order
        self.sums = weights @ rows
        self.n_segments = len(rows)
        cells = 0 if detail.ref_lengths is None else detail.ref_lengths.size * max_order
        groups = detail.ngrams if detail.variant == "mteval" else detail.rows * max_order + detail.orders - 1
        self.by_group = np.argsort(groups, kind="stable")  # matches entries grouped, for sums per group
        self.groups = groups[self.by_group]
        self.matched = None
        if detail.variant == "mteval":
            by_group = self.by_group
            self.matched = _Counts(
                detail.rows[by_group], self.groups, detail.clipped[by_group], detail.n_kept, len(rows)
            )
        width = max(len(detail.ref_counts), len(detail.rows), detail.n_kept, cells, 1)
        step = max(1, _CHUNK_VALUES // width)
        self.bounds = [*range(0, len(weights), step), len(weights)]  # its chunks of resamples
        self.chunk = 0  # the chunk being gathered
        self.at: np.ndarray | None = None  # the rows of its kept n-grams among the shared ones
        # Its chunk's reference counts (NLTK settles near-ties with them) and information weights.
        self.counts = self.info = np.empty((0, 0))

    def gather(self, start: int, stop: int, counts: np.ndarray, info: np.ndarray) -> None:
        """Take the shared ``counts`` and ``info`` of the resamples ``start`` to ``stop`` (the next ones
        of its chunk), and fill its rows when the chunk is complete."""
        first, last = self.bounds[self.chunk], self.bounds[self.chunk + 1]
        if self.at is None and (start, stop) == (first, last):  # its own chunk, its own n-grams: no copy
            self.counts, self.info = counts, info
        elif start == first:
            shape = (self.detail.n_kept, last - first)
            self.info = np.empty(shape)
            self.counts = np.empty(shape if self.matched is None else (0, 0))  # mteval needs the weights alone
        if self.info is not info:
            rows = slice(None) if self.at is None else self.at
            self.info[:, start - first : stop - first] = info[rows]
            if self.matched is None:
                self.counts[:, start - first : stop - first] = counts[rows]
        if stop < last:
            return
        self.chunk += 1
        chunk = np.ascontiguousarray(self.weights[first:last].T)  # segments x resamples
        sums, ref_len = _recount(
            self.detail, chunk, self.max_order, self.counts, self.info, self.matched, self.groups, self.by_group
        )
        self.sums[first:last, 2 * self.max_order : 3 * self.max_order] = sums
        if ref_len is not None:
            self.sums[first:last, -1] = ref_len


def _resample_together(systems: list[_SystemResampling], weights: np.ndarray) -> None:
    """Fill the rows of ``systems`` (counted against the same references) chunk by chunk: the
    resamples are cut at every system's chunk bounds (and so that the shared counts stay bounded),
    and each piece's reference counts and weights are computed once for all of them."""
    first = systems[0].detail
    kept_of = [_kept(system.detail) for system in systems]
    if len(systems) == 1:
        kept, kept_prefix = kept_of[0], first.kept_prefix
        references = (first.ref_segments, first.ref_ngrams, first.ref_counts)
    else:
        assert first.source is not None  # systems are grouped by their references
        kept = np.unique(np.concatenate(kept_of))
        kept_prefix, *shared = first.source.kept_counts(kept)
        references = (shared[0], shared[1], shared[2])
        for system, own in zip(systems, kept_of, strict=True):
            system.at = np.searchsorted(kept, own)
    counter = _Counts(*references, len(kept), systems[0].n_segments)
    step = max(1, _CHUNK_VALUES // max(len(references[2]), len(kept), 1))
    bounds = sorted({*range(0, len(weights), step), *(b for system in systems for b in system.bounds)})
    prefix = kept_prefix[:, None]
    for start, stop in pairwise(bounds):
        chunk = np.ascontiguousarray(weights[start:stop].T)  # segments x resamples
        counts = counter(chunk)
        words = first.ref_words @ chunk
        prefix_counts = np.where(prefix >= 0, counts[np.maximum(kept_prefix, 0)], words[None, :])
        info = information(counts, prefix_counts, first.variant)  # kept n-grams x resamples
        for system in systems:
            system.gather(start, stop, counts, info)


def _kept(detail: Detail) -> np.ndarray:
    """The global ids of the n-grams ``detail`` keeps (a ``Detail`` always names them)."""
    assert detail.kept is not None
    return detail.kept


def _recount(
    detail: Detail,
    weights: np.ndarray,
    max_order: int,
    counts: np.ndarray,
    info: np.ndarray,
    matched: _Counts | None,
    groups: np.ndarray,
    by_group: np.ndarray,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Per resample of the chunk (``weights``: segments x resamples), the information sum per order
    (and NLTK's summed reference length), from the reference ``counts`` and information ``info`` of
    the kept n-grams (kept n-grams x resamples): ``matched`` (mteval) weighs the matches per n-gram;
    ``groups`` (sorted by ``by_group``) are the matches entries' groups."""
    if matched is not None:  # mteval
        ends = np.searchsorted(detail.kept_orders, np.arange(max_order + 1), side="right")  # kept ids ascend
        values = matched(weights) * info
        return np.stack([values[a:b].sum(axis=0) for a, b in pairwise(ends)], axis=1), None
    assert detail.denominators is not None and detail.ref_lengths is not None  # NLTK's detail has them
    words = detail.ref_words @ weights
    n_streams, n_segments = detail.ref_lengths.shape
    numerators = _row_sums(
        info[detail.ngrams[by_group]] * detail.clipped[by_group, None], groups, n_streams * n_segments * max_order
    )
    numerators = numerators.T.reshape(-1, n_streams, n_segments, max_order)
    assert detail.ties is not None and detail.kept is not None
    best, unsure = choose_nltk(numerators, detail.denominators, detail.ref_lengths, detail.ties.classes)
    unsure &= weights.T[:, :, None] > 0  # a segment the resample leaves out chooses nothing
    _settle(detail, best, np.nonzero(unsure), counts, words)
    chosen = np.take_along_axis(numerators, best[:, None], 1)[:, 0]
    lengths = np.broadcast_to(detail.ref_lengths[None, :, :, None], numerators.shape)
    ref_len = np.take_along_axis(lengths, best[:, None], 1)[:, 0].sum(axis=2)
    return np.einsum("sc,csn->cn", weights, chosen), np.einsum("sc,cs->c", weights, ref_len.astype(np.float64))


def _settle(detail: Detail, best: np.ndarray, unsure: tuple[np.ndarray, ...], counts, words) -> None:
    """NLTK's pick (``NltkTies.decide``) in each unsure (resample, segment, order) of ``best``, with
    NLTK's weights under that resample's counts (``counts``: kept n-grams x resamples, ``words``:
    reference words per resample), all of them from one float64 quotient and one ``math.log`` each."""
    assert detail.ties is not None and detail.kept is not None
    cells = [(int(c), int(s), int(o) + 1) for c, s, o in zip(*unsure, strict=True)]
    detail.ties.prepare([(s, o) for _, s, o in cells])
    used = [detail.ties.used(s, o) for _, s, o in cells]
    if not cells:
        return
    sizes = [len(u) for u in used]
    local = np.searchsorted(detail.kept, np.fromiter((g for u in used for g in u), np.int64, sum(sizes)))
    column = np.repeat([c for c, _, _ in cells], sizes)
    prefix = detail.kept_prefix[local]
    prefix_counts = np.where(prefix >= 0, counts[np.maximum(prefix, 0), column], words[column])
    weights = nltk_weights(prefix_counts, counts[local, column])
    start = 0
    for (c, s, o), size in zip(cells, sizes, strict=True):
        best[c, s, o - 1] = detail.ties.decide(s, o, weights[start : start + size])
        start += size


class _Counts:
    """Per column, the sum over entries (segment, column, integer value) of the segment's weight
    times the value: columns held by many segments as one dense matrix product, the others entry
    by entry (entries sorted by column). Integer sums, so both are exact in float64."""

    def __init__(self, segments: np.ndarray, columns: np.ndarray, values: np.ndarray, width: int, n_segments: int):
        entries = np.bincount(columns, minlength=width)
        dense = entries * _DENSE >= n_segments
        self.width, self.dense_columns = width, np.flatnonzero(dense)
        pick = dense[columns]
        self.matrix = np.zeros((len(self.dense_columns), n_segments))
        np.add.at(self.matrix, (np.searchsorted(self.dense_columns, columns[pick]), segments[pick]), values[pick])
        single = (entries == 1)[columns]  # a column of one entry needs no sum
        self.single = (segments[single], columns[single], values[single, None])
        rest = ~pick & ~single
        self.segments, self.columns, self.values = segments[rest], columns[rest], values[rest, None]

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        """The sums per column for each resample (``weights``: segments x resamples)."""
        out = _integer_row_sums(weights[self.segments] * self.values, self.columns, self.width)
        segments, columns, values = self.single
        out[columns] = weights[segments] * values
        out[self.dense_columns] = self.matrix @ weights
        return out


def _integer_row_sums(values: np.ndarray, groups: np.ndarray, width: int) -> np.ndarray:
    """``_row_sums`` of integer-valued ``values`` (exact in float64), as differences of running sums."""
    out = np.zeros((width, values.shape[1]))
    if len(values) == 0:
        return out
    running = np.cumsum(values, axis=0)
    ends = np.flatnonzero(np.concatenate([groups[1:] != groups[:-1], [True]]))
    totals = running[ends]
    totals[1:] -= running[ends[:-1]]
    out[groups[ends]] = totals
    return out


def _row_sums(values: np.ndarray, groups: np.ndarray, width: int) -> np.ndarray:
    """Sums of the rows of ``values`` per group (``groups`` ascending), shape (width x columns)."""
    out = np.zeros((width, values.shape[1]))
    if len(values) == 0:
        return out
    starts = np.flatnonzero(np.concatenate([[True], groups[1:] != groups[:-1]]))
    out[groups[starts]] = np.add.reduceat(values, starts, axis=0)
    return out
