"""Tercom's edit count of many (hypothesis, reference) pairs at once, exactly as sacrebleu 2.6.0.

Tercom (Snover et al., 2006) counts the edits that turn a hypothesis into its reference:
insertions, deletions and substitutions of words (a Levenshtein distance computed within a beam,
``beam``), plus *shifts* that move a block of hypothesis words elsewhere, each counting
as one edit. Finding the best shifts is hard, so tercom is greedy: while some shift lowers the
edit distance, it applies the one that lowers it most (ties: the longest block, then the
earliest block, then the earliest target).

The backtrace of the distance (ties prefer a match or substitution, then consuming a hypothesis
word, then a reference word) tells, for every reference word, the hypothesis position aligned
with it, and which words of either side are in error. A shift candidate moves hypothesis words
``[a, a + l)`` that equal reference words ``[b, b + l)`` (``l <= 10``, ``|a - b| <= 50``), where
both blocks contain an error and the hypothesis position aligned with reference word ``b`` is
not inside the block. The targets are the positions just after the hypothesis words aligned with
reference words ``b - 1 .. b + l - 1`` (position 0 for ``b = 0``), each distinct one tried once.
A target left of ``a`` moves the block there; one right of ``a + l`` moves it before that
position; one in ``[a, a + l]`` moves it right by ``target - a`` words (sacrebleu's reading of
tercom). Once 1000 candidates have been tried for a pair (counted over all its rounds), the
search stops and that round's best shift is dropped.

The engine works in rounds over the pairs still shifting, in chunks of pairs of similar size:
per chunk one forward pass and its backtrace, the candidates enumerated with array operations,
and each distinct candidate scored by recomputing only the rows its shift changes. Matrices are
stored as bands of the beam (``beam.Band``), and equal words are looked for within the shift
distance only, so memory grows with length x beam. A round's chunks touch disjoint pairs, so a
round of ``THREADED_CHUNKS`` or more runs them on a few threads (NumPy releases the GIL in its loops). With several
references per segment, a pair stops as soon as it cannot give its segment's fewest edits
(``count_edits``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TypeVar

import numpy as np

from ...engine import ragged
from ...threads import map_threads
from .beam import Alignment, Band, alignment, band_width, cells

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000

THREADED_CHUNKS = 4  # rounds of fewer chunks stay on one thread: starting threads costs more than it saves
_CELL_BUDGET = 1 << 20  # pairs x rows x stored columns per chunk (bounds memory)
_ROWS_STEP = 8  # chunks hold pairs of hypothesis lengths within steps of this many words (``_chunks``)
_BOUND_WORDS = 1 << 20  # words of both sides per run of pairs whose lower bounds are found at once
# The largest (rows + 1) x (reference + 1) a pair may have: longer segments are refused (a
# 300,000-word pair was 335 GiB of whole matrices; the band is far smaller, but the shift search
# of such a pair would still run for hours).
MAX_CELLS = 1 << 27
_HYP_PAD, _REF_PAD = -1, -2  # never equal to each other nor to a word id (ids >= 0, unknown words -1)
T = TypeVar("T")


# Many pairs' token ids joined in one int32 array, and each pair's length (int64).
Joined = tuple[np.ndarray, np.ndarray]


def joined(arrays: list[np.ndarray]) -> Joined:
    """Token id arrays joined in one, and their lengths."""
    lengths = np.array([len(a) for a in arrays], dtype=np.int64)
    return np.concatenate([np.asarray(a, dtype=np.int32) for a in arrays] + [np.zeros(0, np.int32)]), lengths


def count_edits(
    hyps: list[np.ndarray] | Joined,
    refs: list[np.ndarray] | Joined,
    groups: np.ndarray | None = None,
    shift_in_place: bool = False,
) -> np.ndarray:
    """Tercom's number of edits of each hypothesis against its reference (token ids, one array per
    pair or ``joined``; ids of hypothesis words absent from the reference may all be -1). int64, one per pair.
    ``shift_in_place``: joined int32 hypothesis ids are shifted where they are, not in a copy (for
    ids the caller will not read again).

    With ``groups`` (one id per pair; e.g. a segment's references), only each group's fewest
    edits are needed: a pair whose lower bound reaches a known upper bound of its group's fewest
    stops early, and its count is then an upper bound of its own edits (maybe int64's largest). The minimum over each
    group stays exact: the pair that attains it either runs to the end, or stops with a lower
    bound that equals it, met by another pair's upper bound (never above its exact count)."""
    pairs = _Pairs(hyps, refs, shift_in_place)
    active = np.flatnonzero((pairs.nh > 0) & (pairs.nr > 0))
    if groups is not None:  # an upper bound for each group first: its pair of smallest lower bound
        pairs.lower = _fewest_edits_bound(pairs)
        pairs.upper[active] = np.iinfo(np.int64).max  # none known yet
        order = active[np.lexsort((pairs.lower[active], groups[active]))]
        leaders = order[np.flatnonzero(np.diff(groups[order], prepend=-1))]
        pairs.first_distances(leaders)
        active = pairs.prune(active, groups)
    while active.size:
        still = _each(pairs.run_round, _chunks(active, pairs.nh, pairs.nr))
        active = np.concatenate(still)
        if groups is not None:
            active = pairs.prune(active, groups)
    return pairs.edits


def _each(function: Callable[[np.ndarray], T], chunks: list[np.ndarray]) -> list[T]:
    """``function`` over a round's chunks, on threads when there are at least ``THREADED_CHUNKS``
    (with fewer, the threads' contention for the GIL costs more than they gain)."""
    return map_threads(function, chunks) if len(chunks) >= THREADED_CHUNKS else [function(c) for c in chunks]


def _fewest_edits_bound(pairs: _Pairs) -> np.ndarray:
    """A lower bound of each pair's edits: ``max(|hyp|, |ref|)`` minus the words they share (as
    multisets). Shifts keep the hypothesis' words, an alignment matches only equal words, and the
    beam only removes paths. (Hypothesis ids of -1, words no reference has, match nothing.) Found
    for runs of pairs of about ``_BOUND_WORDS`` words, so its sorts need little memory."""
    if not len(pairs.nh):
        return np.zeros(0, dtype=np.int64)
    hyp_ends, ref_ends = pairs.hyp_start + pairs.nh, pairs.ref_start + pairs.nr
    cuts = np.searchsorted(hyp_ends + ref_ends, np.arange(_BOUND_WORDS, int(hyp_ends[-1] + ref_ends[-1]), _BOUND_WORDS))
    runs = list(pairwise(sorted({0, *cuts.tolist(), len(pairs.nh)})))

    def shared(run: tuple[int, int]) -> np.ndarray:
        first, last = run
        hyp = pairs.hyp[pairs.hyp_start[first] : hyp_ends[last - 1]]
        ref = pairs.ref[pairs.ref_start[first] : ref_ends[last - 1]]
        size = np.int64(max(int(hyp.max(initial=0)), int(ref.max(initial=0))) + 2)
        every = np.arange(last - first)
        hyp_keys, hyp_counts = np.unique(
            (np.repeat(every, pairs.nh[first:last]) * size + hyp)[hyp >= 0], return_counts=True
        )
        ref_keys, ref_counts = np.unique(np.repeat(every, pairs.nr[first:last]) * size + ref, return_counts=True)
        common, in_hyp, in_ref = np.intersect1d(hyp_keys, ref_keys, assume_unique=True, return_indices=True)
        return np.bincount(common // size, np.minimum(hyp_counts[in_hyp], ref_counts[in_ref]), minlength=len(every))

    overlap = np.concatenate(map_threads(shared, runs)).astype(np.int64)  # weighted bincounts are floats
    return np.maximum(pairs.nh, pairs.nr) - overlap


def _chunks(pairs: np.ndarray, nh: np.ndarray, nr: np.ndarray) -> list[np.ndarray]:
    """``pairs`` sorted by size and cut so that each chunk's banded matrices (pairs x rows x band)
    stay in budget; each chunk sorted by hypothesis length, longest first (``Band``'s order).

    Pairs are sorted by hypothesis length in steps of ``_ROWS_STEP``, then by band width: every pair
    of a chunk is computed over the chunk's widest band, and the rows a pair lacks are skipped, so
    similar widths matter more than equal lengths (docs/performance.md measures both orders)."""
    width = band_width(nh[pairs], nr[pairs])
    order = np.lexsort((width, nh[pairs] // _ROWS_STEP))
    pairs, width, rows = pairs[order], width[order], nh[pairs[order]] + 1
    chunks, start = [], 0
    while start < len(pairs):
        # the size of [start, end): end - start pairs x the most rows x the widest band
        cost = np.arange(1, len(pairs) - start + 1) * np.maximum.accumulate(rows[start:])
        cost *= np.maximum.accumulate(width[start:])
        end = start + max(1, int(np.searchsorted(cost, _CELL_BUDGET, side="right")))
        chunk = pairs[start:end]
        chunks.append(chunk[np.argsort(-nh[chunk], kind="stable")])
        start = end
    return chunks


def _flat(ids: list[np.ndarray] | Joined, copy: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joined int32 ids (joined ones copied if ``copy``, else only if not int32), each pair's start and length."""
    if isinstance(ids, list):
        flat, lengths = joined(ids)
    else:
        flat, lengths = (ids[0].astype(np.int32) if copy else np.asarray(ids[0], dtype=np.int32)), ids[1]
    return flat, ragged.starts(lengths).astype(np.int64), lengths


def _padded(flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray, pad: int) -> np.ndarray:
    width = int(lengths.max())
    positions = np.arange(width)
    inside = positions < lengths[:, None]
    out = np.full((len(lengths), width), pad, dtype=np.int32)
    out[inside] = flat[(starts[:, None] + positions)[inside]]
    return out


class _Pairs:
    """Every pair's current (shifted) hypothesis, shift count and candidate count across rounds."""

    def __init__(self, hyps: list[np.ndarray] | Joined, refs: list[np.ndarray] | Joined, shift_in_place: bool = False):
        self.hyp, self.hyp_start, self.nh = _flat(hyps, copy=not shift_in_place)  # shifts rotate these ids
        self.ref, self.ref_start, self.nr = _flat(refs, copy=False)  # read only
        self.shifts = np.zeros(len(self.nh), dtype=np.int64)
        self.checked = np.zeros(len(self.nh), dtype=np.int64)
        # an empty reference: one deletion per hypothesis word; an empty hypothesis: one insertion per reference word
        self.edits = np.where(self.nr == 0, self.nh, self.nr)
        self.upper = self.edits.copy()  # shifts so far + the current distance: never below the final count
        self.lower = self.edits  # replaced by ``_fewest_edits_bound`` where groups are pruned

    def first_distances(self, active: np.ndarray) -> None:
        """The upper bounds before any shift: the distances of the unshifted hypotheses."""
        _each(self._first_distance, _chunks(active, self.nh, self.nr))

    def _first_distance(self, chunk: np.ndarray) -> None:
        """The chunk's distances before any shift, as upper bounds."""
        band = self._band(chunk)[0]
        self.upper[chunk] = band.distance(band.forward())

    def prune(self, active: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """Stop the pairs whose lower bound (shifts so far + the shared-words bound of the
        distance) reaches their group's smallest upper bound (their count: their own upper
        bound); returns the others."""
        if not active.size:
            return active
        best = np.full(int(groups.max()) + 1, np.iinfo(np.int64).max)
        np.minimum.at(best, groups, self.upper)
        # the shifts made so far only add to the bound: the distance never falls below it
        stop = self.shifts[active] + self.lower[active] >= best[groups[active]]
        self.edits[active[stop]] = self.upper[active[stop]]
        return active[~stop]

    def _band(self, chunk: np.ndarray) -> tuple[Band, np.ndarray, np.ndarray]:
        """The chunk's band and its padded hypotheses and references."""
        nh, nr = self.nh[chunk], self.nr[chunk]
        hyp = _padded(self.hyp, self.hyp_start[chunk], nh, _HYP_PAD)
        ref = _padded(self.ref, self.ref_start[chunk], nr, _REF_PAD)
        return Band(hyp, ref, nh, nr, *cells(int(nh.max() + nr.max()))), hyp, ref

    def run_round(self, chunk: np.ndarray) -> np.ndarray:
        """One greedy shift step for the pairs of ``chunk``; returns those that shifted."""
        band, hyp, ref = self._band(chunk)
        nh = self.nh[chunk]
        forward = band.forward()
        distance = band.distance(forward)
        found = _candidates(hyp, ref, nh, alignment(band, forward, hyp, ref), self.checked[chunk])
        gain = np.zeros(len(chunk), dtype=np.int64)
        if found.pair.size:
            shifted_distance = band.shifted_distances(forward, band.backward(), hyp, found.pair, found.window())
            gain, best = _best_shifts(found, distance[found.pair] - shifted_distance)
        self.checked[chunk] += found.counts
        shifted = gain > 0  # never for pairs that reached the candidate limit: they have no candidates
        done = chunk[~shifted]
        self.edits[done] = self.upper[done] = self.shifts[done] + distance[~shifted]
        if shifted.any():
            self._apply(chunk[shifted], found.window(best[shifted]))
            self.upper[chunk[shifted]] = self.shifts[chunk[shifted]] + (distance - gain)[shifted]
        return chunk[shifted]

    def _apply(self, pairs: np.ndarray, window: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        """Rotate each pair's hypothesis window ``[lo, lo + k)`` left by ``rot``."""
        lo, k, rot = window
        owner, step = ragged.run_ids(k), ragged.places(k)  # k: one window per pair
        base = self.hyp_start[pairs][owner] + lo[owner]
        self.hyp[base + step] = self.hyp[base + (step + rot[owner]) % k[owner]]
        self.shifts[pairs] += 1


class _Found:
    """The distinct shift candidates of a round: pair (chunk row), block start ``a``, length ``l``,
    target ``t``; and ``counts``, how many candidates sacrebleu tries per pair (with repeats)."""

    def __init__(
        self, pair: np.ndarray, a: np.ndarray, l: np.ndarray, t: np.ndarray, counts: np.ndarray, nh: np.ndarray
    ):
        self.pair, self.a, self.l, self.t, self.counts, self.nh = pair, a, l, t, counts, nh

    def window(self, which: slice | np.ndarray = slice(None)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each shift as a rotation: words ``[lo, lo + k)`` rotated left by ``rot``."""
        a, l, t, nh = self.a[which], self.l[which], self.t[which], self.nh[self.pair[which]]
        left = t < a
        # right of the block: before t; inside [a, a + l]: by t - a words, within the hypothesis
        moved = np.where(t > a + l, t - a - l, np.minimum(t - a, nh - a - l))
        lo = np.where(left, t, a)
        k = np.where(left, a + l - t, l + moved)
        rot = np.where(left, a - t, l)
        k = np.where(k == rot, 0, k)  # moved by nothing: the same hypothesis
        return lo, k, np.where(k == 0, 0, rot)


def _candidates(hyp: np.ndarray, ref: np.ndarray, nh: np.ndarray, alignment: Alignment, checked: np.ndarray) -> _Found:
    """Every shift candidate in the order sacrebleu tries them, counted per pair; the candidates
    of pairs that reach the limit are not returned (their round's best is dropped anyway)."""
    n_hyp, n_ref = hyp.shape[1], ref.shape[1]
    # equal words within the shift distance, as (a, b = a + d): a band of the matrix when narrower
    d = np.arange(-min(MAX_SHIFT_DIST, n_hyp - 1), min(MAX_SHIFT_DIST, n_ref - 1) + 1)
    if len(d) < n_ref:
        padded = np.pad(ref, ((0, 0), (-d[0], n_hyp + d[-1])), constant_values=_REF_PAD)
        windows = np.lib.stride_tricks.sliding_window_view(padded, len(d), axis=1)[:, :n_hyp]
        pair, a, k = np.nonzero(hyp[:, :, None] == windows)
        b = a + d[k]
    else:
        equal = hyp[:, :, None] == ref[:, None, :]
        if max(n_hyp, n_ref) > MAX_SHIFT_DIST + 1:
            equal &= np.abs(np.arange(n_hyp)[:, None] - np.arange(n_ref)) <= MAX_SHIFT_DIST
        pair, a, b = np.nonzero(equal)
    run = _match_lengths(hyp, ref, pair, a, b)
    # lengths allowed: both blocks hold an error, and b's aligned position is not in the hypothesis block
    first_hyp_err = _next_true(alignment.hyp_err)
    first_ref_err = _next_true(alignment.ref_err)
    shortest = np.maximum(first_hyp_err[pair, a] - a, first_ref_err[pair, b] - b) + 1
    aligned = alignment.align[pair, b]
    longest = np.where(aligned >= a, np.minimum(run, aligned - a), run)
    keep = longest >= shortest
    pair, a, b, shortest, longest = pair[keep], a[keep], b[keep], shortest[keep], longest[keep]
    pair, a, b, l = _expand(shortest, longest - shortest + 1, pair, a, b)
    # targets: just after the words aligned with b-1 .. b+l-1 (0 before the first), distinct ones
    target = np.concatenate([np.zeros((len(hyp), 1), dtype=np.int64), alignment.align + 1], axis=1)
    rises = np.concatenate([np.ones((len(hyp), 1), dtype=bool), target[:, 1:] > target[:, :-1]], axis=1)
    rises_before = np.concatenate([np.zeros((len(hyp), 1), dtype=np.int64), np.cumsum(rises, axis=1)], axis=1)
    per_block = 1 + rises_before[pair, b + l + 1] - rises_before[pair, b + 1]
    counts = np.bincount(pair, weights=per_block, minlength=len(hyp)).astype(np.int64)
    keep = (checked + counts < MAX_SHIFT_CANDIDATES)[pair]
    pair, a, b, l = pair[keep], a[keep], b[keep], l[keep]
    pair, a, b, l, position = _expand(b, l + 1, pair, a, b, l)  # target indices b .. b+l
    keep = (position == b) | rises[pair, position]
    # distinct (pair, a, l, target), through one integer key
    size = n_hyp + 1
    key = ((pair * size + a) * (MAX_SHIFT_SIZE + 1) + l) * size + target[pair, position]
    key, t = np.divmod(np.unique(key[keep]), size)
    key, l = np.divmod(key, MAX_SHIFT_SIZE + 1)
    pair, a = np.divmod(key, size)
    return _Found(pair, a, l, t, counts=counts, nh=nh)


def _match_lengths(hyp: np.ndarray, ref: np.ndarray, pair: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many words match from (a, b) on, at most ``MAX_SHIFT_SIZE`` (the first is known to)."""
    hyp = np.pad(hyp, ((0, 0), (0, MAX_SHIFT_SIZE)), constant_values=_HYP_PAD)
    ref = np.pad(ref, ((0, 0), (0, MAX_SHIFT_SIZE)), constant_values=_REF_PAD)
    run = np.ones(len(pair), dtype=np.int64)
    going = np.ones(len(pair), dtype=bool)
    for offset in range(1, MAX_SHIFT_SIZE):
        going &= hyp[pair, a + offset] == ref[pair, b + offset]
        run += going
    return run


def _next_true(mask: np.ndarray) -> np.ndarray:
    """For each position, the first position at or after it where ``mask`` holds (or a huge number)."""
    positions = np.where(mask, np.arange(mask.shape[1]), np.int64(1) << 40)
    return np.minimum.accumulate(positions[:, ::-1], axis=1)[:, ::-1]


def _expand(start: np.ndarray, count: np.ndarray, *carry: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each row repeated ``count`` times, with the values ``start, start + 1, ...`` appended."""
    owner = ragged.run_ids(count)
    return (*(column[owner] for column in carry), start[owner] + ragged.places(count))


def _best_shifts(found: _Found, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, the best gain (0 without candidates) and its candidate: sacrebleu's ranking is
    the largest gain, then the longest block, the earliest block, the earliest target."""
    n_pairs = len(found.counts)
    order = np.lexsort((found.t, found.a, -found.l, -gain, found.pair))
    pair = found.pair[order]
    first = order[np.flatnonzero(np.concatenate([[True], pair[1:] != pair[:-1]]))]
    best_gain = np.zeros(n_pairs, dtype=np.int64)
    best = np.full(n_pairs, -1, dtype=np.int64)
    best_gain[found.pair[first]] = gain[first]
    best[found.pair[first]] = first
    return best_gain, best
