"""Tercom's beam edit distance, for a chunk of (hypothesis, reference) pairs at once.

Row ``i`` of the matrix (``i`` hypothesis words read) only has the cells within ``width`` of the
pseudo-diagonal ``floor(i * |ref| / |hyp|)``: the width is 25, or ``ceil(ratio / 2 + 25)`` when
the length ratio exceeds 50; row 0 is whole and the last row reaches the end of the reference.
Cells outside the beam are unreachable, so the distance is a shortest path through the allowed
cells. Each pass takes one NumPy step per row for every pair; a running minimum adds the
insertions within a row. Backward passes (cost from a cell to the end) let a shifted hypothesis
be scored by recomputing only the rows its shift changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

BEAM_WIDTH = 25


def cells(longest: int) -> tuple[type[np.signedinteger[Any]], int]:
    """The matrix cell type for a chunk whose largest ``|hyp| + |ref|`` is ``longest`` (int16, half
    the memory traffic, when it fits) and the value of an unreachable cell: above any distance plus
    a row's width, so it never wins a minimum, and twice it without overflow."""
    return (np.int16, 1 << 13) if longest < 4000 else (np.int32, 1 << 28)


class Beam:
    """The beam of a chunk of pairs: per pair and row, the allowed columns ``[lo, hi)``."""

    def __init__(self, nh: np.ndarray, nr: np.ndarray, n_rows: int, dtype: type[np.signedinteger[Any]], inf: int):
        self.inf = dtype(inf)
        ratio = nr / nh
        width = np.where(ratio / 2 > BEAM_WIDTH, np.ceil(ratio / 2 + BEAM_WIDTH), BEAM_WIDTH).astype(np.int64)
        rows = np.arange(n_rows + 1)
        diagonal = np.floor(rows * ratio[:, None]).astype(np.int64)
        self.lo = np.maximum(0, diagonal - width[:, None]).astype(np.int32)
        self.hi = np.minimum(nr[:, None] + 1, diagonal + width[:, None]).astype(np.int32)
        every = np.arange(len(nh))
        self.hi[every, nh] = nr + 1  # the last row reaches the end of the reference
        self.lo[:, 0], self.hi[:, 0] = 0, nr + 1  # row 0: inserting the reference's first j words
        self.nh, self.nr = nh, nr
        self.cols = np.arange(int(nr.max()) + 1, dtype=dtype)

    def forward(self, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """``F[p, i, j]``: the fewest edits turning hypothesis words ``< i`` into reference words ``< j``."""
        cols, inf = self.cols, self.inf
        out = np.empty((len(hyp), hyp.shape[1] + 1, len(cols)), dtype=cols.dtype)
        out[:, 0] = np.where(cols <= self.nr[:, None], cols, inf)
        for i in range(1, hyp.shape[1] + 1):
            out[:, i] = _next_row(out[:, i - 1], hyp[:, i - 1], ref, self.lo[:, i], self.hi[:, i], cols, inf)
        return out

    def backward(self, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """``B[p, i, j]``: the fewest edits from cell ``(i, j)`` to the end, through allowed cells."""
        cols, inf, n_rows = self.cols, self.inf, hyp.shape[1]
        out = np.empty((len(hyp), n_rows + 1, len(cols)), dtype=cols.dtype)
        end = np.where(cols == self.nr[:, None], cols.dtype.type(0), inf)
        row = end
        for i in range(n_rows, -1, -1):
            if i < n_rows:
                row = _down_and_diagonal(row, hyp[:, i], ref)
                last = self.nh == i
                row[last] = end[last]
            out[:, i] = _insertions_leftwards(row, self.lo[:, i], self.hi[:, i], cols, inf)
            row = out[:, i]
        return out

    def shifted_distances(
        self,
        forward: np.ndarray,
        backward: np.ndarray,
        hyp: np.ndarray,
        ref: np.ndarray,
        pair: np.ndarray,
        window: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> np.ndarray:
        """The distance of each pair's hypothesis with words ``[lo, lo + k)`` rotated left by ``rot``:
        the forward rows above the window, its ``k`` rows recomputed, the backward rows below it,
        joined by ``min_j F[lo + k, j] + B[lo + k, j]``."""
        lo, k, rot = window
        order = np.argsort(-k, kind="stable")
        pair, lo, k, rot = pair[order], lo[order], k[order], rot[order]
        row = forward[pair, lo]
        refs = ref[pair]
        distance = np.empty(len(pair), dtype=np.int64)
        n_left = np.searchsorted(-k, -np.arange(int(k.max(initial=0)) + 2), side="right")  # n_left[s]: k >= s
        for step in range(int(k.max(initial=0)) + 1):
            n, n_next = n_left[step], n_left[step + 1]
            if step:
                words = hyp[pair[:n], lo[:n] + (step - 1 + rot[:n]) % k[:n]]
                row = _next_row(
                    row[:n],
                    words,
                    refs[:n],
                    self.lo[pair[:n], lo[:n] + step],
                    self.hi[pair[:n], lo[:n] + step],
                    self.cols,
                    self.inf,
                )
            ending = slice(n_next, n)
            below = backward[pair[ending], lo[ending] + step]
            distance[ending] = (row[ending] + below).min(axis=1)
        out = np.empty_like(distance)
        out[order] = distance
        return out


def _next_row(
    prev: np.ndarray,
    words: np.ndarray,
    ref: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    cols: np.ndarray,
    inf: np.signedinteger[Any],
) -> np.ndarray:
    """Row ``i`` from row ``i - 1`` (one hypothesis word per pair), within the beam ``[lo, hi)``."""
    row = prev + 1  # delete the hypothesis word
    np.minimum(row[:, 1:], prev[:, :-1] + (words[:, None] != ref), out=row[:, 1:])  # match or substitute
    row = np.where(cols < lo[:, None], inf, row)
    # insertions: row[j] = min over k <= j of row[k] + (j - k), a running minimum of row[k] - k
    row -= cols
    np.minimum.accumulate(row, axis=1, out=row)
    row += cols
    return np.where(cols < hi[:, None], np.minimum(row, inf), inf)


def _down_and_diagonal(below: np.ndarray, words: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Backward: the best continuation from row ``i`` through row ``i + 1`` (word ``i`` consumed)."""
    row = below + 1
    np.minimum(row[:, :-1], below[:, 1:] + (words[:, None] != ref), out=row[:, :-1])
    return row


def _insertions_leftwards(
    row: np.ndarray, lo: np.ndarray, hi: np.ndarray, cols: np.ndarray, inf: np.signedinteger[Any]
) -> np.ndarray:
    """Backward: add insertions within the row (a running minimum from the right), keep the beam."""
    row = np.where(cols >= hi[:, None], inf, row) + cols
    row = np.minimum.accumulate(row[:, ::-1], axis=1)[:, ::-1] - cols
    return np.where(cols >= lo[:, None], np.minimum(row, inf), inf)


class Alignment:
    """The backtrace: ``align[p, j]`` the hypothesis position aligned with reference word j (-1:
    before the first), and which hypothesis and reference words are in error."""

    def __init__(self, align: np.ndarray, hyp_err: np.ndarray, ref_err: np.ndarray):
        self.align, self.hyp_err, self.ref_err = align, hyp_err, ref_err


def alignment(forward: np.ndarray, hyp: np.ndarray, ref: np.ndarray, nh: np.ndarray, nr: np.ndarray) -> Alignment:
    """Follow each pair's best path back from its last cell, preferring match/substitution, then
    deletion (hypothesis word), then insertion (reference word), as sacrebleu's ties do."""
    n = len(hyp)
    align = np.full(ref.shape, -1, dtype=np.int64)
    hyp_err = np.zeros(hyp.shape, dtype=bool)
    ref_err = np.zeros(ref.shape, dtype=bool)
    i, j = nh.astype(np.int64), nr.astype(np.int64)
    live = np.arange(n)
    while live.size:
        ii, jj = i[live], j[live]
        here = forward[live, ii, jj]
        up, left = np.maximum(ii - 1, 0), np.maximum(jj - 1, 0)
        differ = hyp[live, up] != ref[live, left]
        diagonal = (ii > 0) & (jj > 0) & (forward[live, up, left] + differ == here)
        deletion = (ii > 0) & ~diagonal & ((jj == 0) | (forward[live, up, jj] + 1 == here))
        insertion = ~diagonal & ~deletion
        takes_hyp, takes_ref = diagonal | deletion, diagonal | insertion
        hyp_err[live[takes_hyp], up[takes_hyp]] = (deletion | differ)[takes_hyp]
        align[live[takes_ref], left[takes_ref]] = ii[takes_ref] - 1
        ref_err[live[takes_ref], left[takes_ref]] = (insertion | differ)[takes_ref]
        i[live] -= takes_hyp
        j[live] -= takes_ref
        live = live[(i[live] > 0) | (j[live] > 0)]
    return Alignment(align, hyp_err, ref_err)
