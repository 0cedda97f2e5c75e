"""Tercom's beam edit distance, for a chunk of (hypothesis, reference) pairs at once, in a band.

Row ``i`` of the matrix (``i`` hypothesis words read) only has the cells within ``width`` of the
pseudo-diagonal ``floor(i * |ref| / |hyp|)``: the width is 25, or ``ceil(ratio / 2 + 25)`` when
the length ratio exceeds 50; row 0 is whole and the last row reaches the end of the reference.
Cells outside the beam are unreachable, so the distance is a shortest path through the allowed
cells. Only a band of ``W`` columns per row is stored (``W``: the widest beam row, or the whole
reference when shorter), starting at a per-row offset, so memory is rows x ``W``, not rows x
reference. Arrays are (row, slot, pair): pairs innermost, so that each row is one NumPy step over
every pair of the chunk; the pairs are sorted by hypothesis length, longest first, and row ``i``
only computes the pairs that have it. Backward passes (cost from a cell to the end) let a shifted
hypothesis be scored by recomputing only the rows its shift changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

BEAM_WIDTH = 25
_REF_PAD = -2  # never equal to a hypothesis word id nor to the hypothesis padding


def cells(longest: int) -> tuple[type[np.signedinteger[Any]], int]:
    """The matrix cell type for a chunk whose largest ``|hyp| + |ref|`` is ``longest`` (int16, half
    the memory traffic, when it fits) and the value of an unreachable cell: above any distance plus
    a row's width, so it never wins a minimum, and twice it without overflow."""
    return (np.int16, 1 << 13) if longest < 4000 else (np.int32, 1 << 28)


def band_width(nh: np.ndarray, nr: np.ndarray) -> np.ndarray:
    """Per pair, about the stored band ``W`` (for sizing chunks): the whole row unless a band of
    the beam's width is less than a third of it."""
    ratio = nr / np.maximum(nh, 1)
    width = np.where(ratio / 2 > BEAM_WIDTH, np.ceil(ratio / 2 + BEAM_WIDTH), BEAM_WIDTH).astype(np.int64)
    return np.where(nr + 1 <= 6 * width + 3, nr + 1, 2 * width + 1)


class Band:
    """The beam of a chunk of pairs (sorted by hypothesis length, longest first): per row and pair
    the stored columns ``[off, off + W)``, which of them are in the beam, and the substitution
    cost of each stored cell."""

    def __init__(
        self,
        hyp: np.ndarray,
        ref: np.ndarray,
        nh: np.ndarray,
        nr: np.ndarray,
        dtype: type[np.signedinteger[Any]],
        inf: int,
    ):
        self.inf = dtype(inf)
        n, n_rows = len(nh), int(nh.max())
        every = np.arange(n)
        ratio = nr / nh
        width = np.where(ratio / 2 > BEAM_WIDTH, np.ceil(ratio / 2 + BEAM_WIDTH), BEAM_WIDTH).astype(np.int64)
        rows = np.minimum(np.arange(n_rows + 1)[:, None], nh)  # rows past a pair's end repeat its last
        diagonal = np.floor(rows * ratio).astype(np.int64)
        lo = np.maximum(0, diagonal - width)
        hi = np.minimum(nr + 1, diagonal + width)
        last = rows == nh
        hi[last] = np.broadcast_to(nr + 1, hi.shape)[last]  # the last row reaches the end of the reference
        lo[0], hi[0] = 0, nr + 1  # row 0: inserting the reference's first j words
        # one more column than the widest row: row 0 is stored from the column before row 1's first
        w = int(np.minimum(nr + 1, (hi[1:] - lo[1:]).max(axis=0) + 1).max())
        if int(nr.max()) + 1 <= 3 * w:  # a band saves little: store whole rows (simpler steps)
            w = int(nr.max()) + 1
        off = np.maximum(0, np.minimum(lo, nr + 1 - w))
        off[0] = np.maximum(0, np.minimum(lo[1] - 1, nr + 1 - w))
        self.n, self.w, self.off = n, w, off
        self.nh, self.nr = nh, nr
        self.cols = np.arange(w, dtype=dtype)[:, None]
        self.active = np.searchsorted(-nh, -np.arange(n_rows + 2), side="right")  # active[i]: pairs with nh >= i
        self.lo, self.hi = lo - off, hi - off  # the beam's slots [lo, hi) of each row
        # where some stored cell of the reference is outside the beam: those rows need masking
        self.cut_left, self.cut_right = self.lo > 0, self.hi < np.minimum(nr + 1 - off, w)  # (row, pair)
        self.ref = np.pad(ref, ((0, 0), (1, w + 1)), constant_values=_REF_PAD)  # ref[p, j]: word j - 1
        self.delta = off[1:] - off[:-1]  # how far each row's band starts right of the previous one's
        self.dense = not off.any()  # every band starts at column 0: rows line up
        # differ[i, c, p]: the substitution cost into cell (i, c), 1 when hypothesis word i - 1 differs
        self.differ = np.empty((n_rows + 1, w, n), dtype=dtype)
        if self.dense:
            window = self.ref[:, :w].T[None]
        else:  # each row's own window of the reference
            window = np.lib.stride_tricks.sliding_window_view(self.ref, w, axis=1)[every, off[1:]].transpose(0, 2, 1)
        np.not_equal(hyp.T[:, None, :], window, out=self.differ[1:])
        slots = np.arange(w)[:, None]
        self.first = np.where(slots < self.hi[0], off[0] + slots, self.inf).astype(dtype)
        last_valid = (slots >= self.lo[nh, every]) & (slots < self.hi[nh, every])
        self.end = np.where(last_valid, (nr - off[nh, every]) - slots, self.inf).astype(dtype)

    def cuts(self, i: int | np.ndarray, pairs: slice | np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Row ``i``'s beam ``[lo, hi)`` for ``pairs`` (with arrays: rows ``i`` of pairs ``pairs``),
        each None where it cuts no stored cell of the reference."""
        lo = self.lo[i, pairs] if self.cut_left[i, pairs].any() else None
        return lo, self.hi[i, pairs] if self.cut_right[i, pairs].any() else None

    def distance(self, forward: np.ndarray) -> np.ndarray:
        """Each pair's edit distance: its last row's cell at the end of the reference."""
        every = np.arange(self.n)
        return forward[self.nh, self.nr - self.off[self.nh, every], every].astype(np.int64)

    def forward(self) -> np.ndarray:
        """``F[i, c, p]``: the fewest edits turning hypothesis words ``< i`` into reference words
        ``< off[i, p] + c``."""
        out = np.empty(self.differ.shape, dtype=self.differ.dtype)
        out[0] = self.first
        for i in range(1, len(out)):
            m = int(self.active[i])
            delta = None if self.dense else self.delta[i - 1, :m]
            row = _down(out[i - 1, :, :m], delta, self.differ[i, :, :m], self.inf)
            out[i, :, :m] = _insert(row, self.cols, *self.cuts(i, slice(None, m)), self.inf)
        return out

    def backward(self) -> np.ndarray:
        """``B[i, c, p]``: the fewest edits from cell ``(i, off[i, p] + c)`` to the end, through allowed cells."""
        inf, cols = self.inf, self.cols
        out = np.empty(self.differ.shape, dtype=self.differ.dtype)
        for i in range(len(out) - 1, -1, -1):
            m, m_next = int(self.active[i]), int(self.active[i + 1])
            out[i, :, m_next:m] = self.end[:, m_next:m]  # the pairs whose last row this is
            if not m_next:
                continue
            below = out[i + 1, :, :m_next]
            diagonal = below + self.differ[i + 1, :, :m_next]
            if self.dense:
                row = below + 1
                np.minimum(row[:-1], diagonal[1:], out=row[:-1])
            else:
                delta = self.delta[i, :m_next]
                row = np.minimum(_moved(below, -delta, inf) + 1, _moved(diagonal, 1 - delta, inf))
            lo, hi = self.cuts(i, slice(None, m_next))
            if hi is not None:  # insertions (leftwards) from within the beam only
                row = np.where(cols < hi, row, inf)
            row += cols
            _running_min(row[::-1])
            row -= cols
            out[i, :, :m_next] = row if lo is None else np.where(cols >= lo, row, inf)
        return out

    def shifted_distances(
        self,
        forward: np.ndarray,
        backward: np.ndarray,
        hyp: np.ndarray,
        pair: np.ndarray,
        window: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> np.ndarray:
        """The distance of each pair's hypothesis with words ``[lo, lo + k)`` rotated left by ``rot``:
        the forward rows above the window, its ``k`` rows recomputed, the backward rows below it,
        joined by ``min_c F[lo + k, c] + B[lo + k, c]``."""
        lo, k, rot = window
        order = np.argsort(-k, kind="stable")
        pair, lo, k, rot = pair[order], lo[order], k[order], rot[order]
        row = np.ascontiguousarray(forward[lo, :, pair].T)
        off = self.off[lo, pair]
        refs = np.ascontiguousarray(self.ref[pair, : self.w].T) if self.dense else None
        distance = np.empty(len(pair), dtype=np.int64)
        longest = int(k.max(initial=0))
        n_left = np.searchsorted(-k, -np.arange(longest + 2), side="right")  # n_left[s]: k >= s
        for step in range(longest + 1):
            n, n_next = n_left[step], n_left[step + 1]
            p, i = pair[:n], lo[:n] + step
            if step:
                words = hyp[p, lo[:n] + (step - 1 + rot[:n]) % k[:n]]
                if refs is not None:
                    row = _down(row[:, :n], None, words != refs[:, :n], self.inf)
                else:
                    row_off = self.off[i, p]
                    differ = words != self.ref[p, row_off + self.cols]
                    row = _down(row[:, :n], row_off - off[:n], differ, self.inf)
                    off = row_off
                row = _insert(row, self.cols, *self.cuts(i, p), self.inf)
            ending = slice(n_next, n)
            below = backward[i[ending], :, p[ending]].T
            distance[ending] = (row[:, ending] + below).min(axis=0)
        out = np.empty_like(distance)
        out[order] = distance
        return out


def _down(prev: np.ndarray, delta: np.ndarray | None, differ: np.ndarray, inf: np.signedinteger[Any]) -> np.ndarray:
    """A row from the previous one (deletion, or match/substitution costing ``differ``), before
    insertions; ``delta``: how far the row's band starts right of the previous one's (None: 0)."""
    if delta is None:
        row = prev + 1
        np.minimum(row[1:], prev[:-1] + differ[1:], out=row[1:])
        return row
    return np.minimum(_moved(prev, delta, inf) + 1, _moved(prev, delta - 1, inf) + differ)


def _insert(
    row: np.ndarray, cols: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None, inf: np.signedinteger[Any]
) -> np.ndarray:
    """The row (in place when it can) with insertions added within the beam ``[lo, hi)`` (None:
    no cut), a running minimum of ``row - column`` from the left: cells left of the beam are
    cleared before (they would feed it), cells right of it after (they only take from it)."""
    if lo is not None:
        row = np.where(cols >= lo, row, inf)
    row -= cols
    _running_min(row)
    row += cols
    return row if hi is None else np.where(cols < hi, row, inf)


def _moved(rows: np.ndarray, shift: np.ndarray, inf: np.signedinteger[Any]) -> np.ndarray:
    """``out[c, p] = rows[c + shift[p], p]``, unreachable where that is outside the band (one
    slice per distinct shift: a row's bands move by a few columns at most)."""
    low, high = (int(shift.min()), int(shift.max())) if shift.size else (0, 0)
    if low == high:
        return _slid(rows, low, inf)
    out = np.empty_like(rows)
    for value in range(low, high + 1):
        which = np.flatnonzero(shift == value)
        if which.size:
            out[:, which] = _slid(rows[:, which], value, inf)
    return out


def _slid(rows: np.ndarray, shift: int, inf: np.signedinteger[Any]) -> np.ndarray:
    """``out[c] = rows[c + shift]``, unreachable outside."""
    w = len(rows)
    shift = max(-w, min(w, shift))
    out = np.empty_like(rows)
    if shift >= 0:
        out[: w - shift], out[w - shift :] = rows[shift:], inf
    else:
        out[-shift:], out[:-shift] = rows[: w + shift], inf
    return out


def _running_min(x: np.ndarray) -> None:
    """In place, along the first axis: ``x[c] = min(x[:c + 1])``: NumPy's accumulate for few pairs,
    else doubling steps (accumulate along a non-contiguous axis is slow for many)."""
    if x.shape[1] <= 100:
        np.minimum.accumulate(x, axis=0, out=x)
        return
    step = 1
    while step < len(x):
        np.minimum(x[step:], x[:-step], out=x[step:])
        step *= 2


class Alignment:
    """The backtrace: ``align[p, j]`` the hypothesis position aligned with reference word j (-1:
    before the first), and which hypothesis and reference words are in error."""

    def __init__(self, align: np.ndarray, hyp_err: np.ndarray, ref_err: np.ndarray):
        self.align, self.hyp_err, self.ref_err = align, hyp_err, ref_err


def alignment(band: Band, forward: np.ndarray, hyp: np.ndarray, ref: np.ndarray) -> Alignment:
    """Follow each pair's best path back from its last cell, preferring match/substitution, then
    deletion (hypothesis word), then insertion (reference word), as sacrebleu's ties do."""
    align = np.full(ref.shape, -1, dtype=np.int64)
    hyp_err = np.zeros(hyp.shape, dtype=bool)
    ref_err = np.zeros(ref.shape, dtype=bool)
    i, j = band.nh.astype(np.int64), band.nr.astype(np.int64)
    live = np.arange(band.n)
    w, off = band.w, band.off
    while live.size:
        ii, jj = i[live], j[live]
        up, left = np.maximum(ii - 1, 0), np.maximum(jj - 1, 0)
        here = forward[ii, np.maximum(jj - off[ii, live], 0), live]  # on the path: stored (row 0: unused)
        above = jj - off[up, live]  # the slot of column j in the row above (>= 0: bands move right)
        stored = above < w
        differ = hyp[live, up] != ref[live, left]
        before = forward[up, np.minimum(above, w) - 1, live]  # column j - 1 (slot -1: the path is not there)
        diagonal = (ii > 0) & (jj > 0) & (above > 0) & (above <= w) & (before + differ == here)
        straight_up = forward[up, np.minimum(above, w - 1), live]
        deletion = ~diagonal & (ii > 0) & ((jj == 0) | (stored & (straight_up + 1 == here)))
        insertion = ~diagonal & ~deletion
        takes_hyp, takes_ref = diagonal | deletion, diagonal | insertion
        hyp_err[live[takes_hyp], up[takes_hyp]] = (deletion | differ)[takes_hyp]
        align[live[takes_ref], left[takes_ref]] = ii[takes_ref] - 1
        ref_err[live[takes_ref], left[takes_ref]] = (insertion | differ)[takes_ref]
        i[live] -= takes_hyp
        j[live] -= takes_ref
        live = live[(i[live] > 0) | (j[live] > 0)]
    return Alignment(align, hyp_err, ref_err)
