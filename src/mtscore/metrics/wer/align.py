"""Levenshtein alignments of many (reference, hypothesis) pairs at once, with rapidfuzz's choices.

jiwer 4.0 counts hits, substitutions, deletions and insertions from rapidfuzz's
``Levenshtein.opcodes(reference, hypothesis)``. The distance is unique, the split into edit kinds
is not (``a b`` -> ``b c`` is two substitutions, or a deletion, a hit and an insertion), so this
module follows rapidfuzz 3.14's path exactly: the common prefix and suffix are hits; on the middle
parts the full matrix ``D[i][j]`` (``i`` reference tokens, ``j`` hypothesis tokens) is walked back
from the end, taking at ``(i, j)``: a deletion when ``D[i][j] = D[i-1][j] + 1``; else an insertion
when ``j > 1`` and ``D[i][j-1] = D[i-1][j-1] - 1``; else the diagonal (a hit or a substitution).

The matrix is filled one hypothesis token at a time for a chunk of pairs of similar size; within
a row the reference-side dependency is a running minimum: ``D[i][j] = i + min_{k<=i}(T[k] - k)``
where ``T`` holds the candidates from the row above. Only the vertical differences
``D[i][j] - D[i-1][j]`` are kept (int8), and all pairs of a chunk are walked back in step.

From 4194304 middle cells (2048 x 2048; with 65 reference and 10 hypothesis tokens or more) rapidfuzz switches to
Hirschberg's algorithm, which may choose another path among the shortest: such pairs are refused
(``TooLong``) rather than counted differently.
"""

from __future__ import annotations

import numpy as np

HIT, SUBSTITUTION, DELETION, INSERTION = range(4)
_CELL_BUDGET = 1 << 23  # padded matrix cells per chunk (int8: bounds the memory of one chunk)


class TooLong(ValueError):
    """A pair beyond rapidfuzz's full-matrix alignment; ``index`` is its position."""

    def __init__(self, index: int, n_ref: int, n_hyp: int):
        super().__init__(index, n_ref, n_hyp)
        self.index, self.n_ref, self.n_hyp = index, n_ref, n_hyp


def full_matrix(n_ref: np.ndarray, n_hyp: np.ndarray) -> np.ndarray:
    """Whether rapidfuzz aligns middles of these sizes with one full matrix (not Hirschberg's split)."""
    return (2 * n_ref * n_hyp // 8 < 1 << 20) | (n_ref < 65) | (n_hyp < 10)


class Pairs:
    """Token ids of many pairs, concatenated: pair ``p``'s reference is ``n_ref[p]`` ids from
    ``ref_start[p]`` in ``ref`` (likewise its hypothesis)."""

    def __init__(self, ref: np.ndarray, n_ref: np.ndarray, hyp: np.ndarray, n_hyp: np.ndarray):
        self.ref, self.n_ref, self.ref_start = np.asarray(ref, dtype=np.int64), n_ref, _starts(n_ref)
        self.hyp, self.n_hyp, self.hyp_start = np.asarray(hyp, dtype=np.int64), n_hyp, _starts(n_hyp)

    @classmethod
    def of(cls, refs: list[np.ndarray], hyps: list[np.ndarray]) -> Pairs:
        """Pairs from one id array per reference and per hypothesis."""
        return cls(*_flat(refs), *_flat(hyps))


def _starts(lengths: np.ndarray) -> np.ndarray:
    starts = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    return starts


def _flat(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=len(arrays))
    return np.concatenate([*map(np.asarray, arrays), np.zeros(0, np.int64)]).astype(np.int64), lengths


def edit_counts(pairs: Pairs) -> np.ndarray:
    """Per pair, rapidfuzz's [hits, substitutions, deletions, insertions] (int64, pairs x 4)."""
    prefix, suffix = _affixes(pairs)
    n_ref, n_hyp = pairs.n_ref - prefix - suffix, pairs.n_hyp - prefix - suffix
    too_long = np.flatnonzero(~full_matrix(n_ref, n_hyp))
    if too_long.size:
        first = int(too_long[0])
        raise TooLong(first, int(n_ref[first]), int(n_hyp[first]))
    counts = np.zeros((len(n_ref), 4), dtype=np.int64)
    counts[:, HIT] = prefix + suffix
    counts[:, DELETION] = np.where(n_hyp == 0, n_ref, 0)
    counts[:, INSERTION] = np.where(n_ref == 0, n_hyp, 0)
    both = np.flatnonzero((n_ref > 0) & (n_hyp > 0))
    ref_start, hyp_start = pairs.ref_start + prefix, pairs.hyp_start + prefix
    for chunk in _chunks(both, n_ref, n_hyp):
        ref = _padded(pairs.ref, ref_start[chunk], n_ref[chunk], -1)
        hyp = _padded(pairs.hyp, hyp_start[chunk], n_hyp[chunk], -2)
        vertical = _vertical_differences(ref, hyp)
        counts[chunk] += _walk_back(vertical, ref, hyp, n_ref[chunk], n_hyp[chunk])
    return counts


def opcodes(ref: np.ndarray, hyp: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """One pair's path as runs ``(kind, ref_start, ref_end, hyp_start, hyp_end)`` in order, the
    kinds ``HIT`` .. ``INSERTION`` (rapidfuzz's opcodes with ``equal`` as ``HIT``)."""
    ref, hyp = np.asarray(ref, dtype=np.int64), np.asarray(hyp, dtype=np.int64)
    pairs = Pairs.of([ref], [hyp])
    prefix, suffix = (int(x[0]) for x in _affixes(pairs))
    middle_ref, middle_hyp = ref[prefix : len(ref) - suffix], hyp[prefix : len(hyp) - suffix]
    if not full_matrix(np.array(len(middle_ref)), np.array(len(middle_hyp))):
        raise TooLong(0, len(middle_ref), len(middle_hyp))
    steps = [HIT] * suffix
    i, j = len(middle_ref), len(middle_hyp)
    if i and j:
        vertical = _vertical_differences(middle_ref[None], middle_hyp[None])[0]
        while i and j:
            if vertical[j, i] == 1:
                steps.append(DELETION)
                i -= 1
                continue
            j -= 1
            if j and vertical[j, i] == -1:
                steps.append(INSERTION)
                continue
            i -= 1
            steps.append(HIT if middle_ref[i] == middle_hyp[j] else SUBSTITUTION)
    steps += [DELETION] * i + [INSERTION] * j + [HIT] * prefix
    return _runs(steps[::-1])


def _runs(steps: list[int]) -> list[tuple[int, int, int, int, int]]:
    runs: list[tuple[int, int, int, int, int]] = []
    i = j = 0
    for kind in steps:
        di, dj = int(kind != INSERTION), int(kind != DELETION)
        if runs and runs[-1][0] == kind:
            last = runs[-1]
            runs[-1] = (kind, last[1], i + di, last[3], j + dj)
        else:
            runs.append((kind, i, i + di, j, j + dj))
        i, j = i + di, j + dj
    return runs


def _affixes(pairs: Pairs) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's common prefix, then its common suffix within the rest (rapidfuzz's order)."""
    shorter = np.minimum(pairs.n_ref, pairs.n_hyp)
    prefix = _common_run(pairs, shorter, pairs.ref_start, pairs.hyp_start, 1)
    ref_end = pairs.ref_start + pairs.n_ref - 1
    hyp_end = pairs.hyp_start + pairs.n_hyp - 1
    suffix = _common_run(pairs, shorter - prefix, ref_end, hyp_end, -1)
    return prefix, suffix


def _common_run(pairs: Pairs, most: np.ndarray, ref_at: np.ndarray, hyp_at: np.ndarray, step: int) -> np.ndarray:
    """How many tokens are equal from ``ref_at``/``hyp_at`` on (moving by ``step``), at most ``most``."""
    width = int(most.max(initial=0))
    offsets = np.arange(width) * step
    inside = np.arange(width) < most[:, None]
    same = np.zeros((len(most), width + 1), dtype=bool)
    same[:, :width][inside] = (
        pairs.ref[(ref_at[:, None] + offsets)[inside]] == pairs.hyp[(hyp_at[:, None] + offsets)[inside]]
    )
    return np.argmin(same, axis=1).astype(np.int64)


def _chunks(pairs: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray) -> list[np.ndarray]:
    """``pairs`` sorted by size and cut so that each chunk's padded matrix stays in budget."""
    pairs = pairs[np.lexsort((n_ref[pairs], n_hyp[pairs]))]
    rows, cols = n_hyp[pairs] + 1, n_ref[pairs] + 1
    chunks, start = [], 0
    while start < len(pairs):
        widest = np.maximum.accumulate(cols[start:])
        cost = np.arange(1, len(pairs) - start + 1) * rows[start:] * widest
        end = start + max(1, int(np.searchsorted(cost, _CELL_BUDGET, side="right")))
        chunks.append(pairs[start:end])
        start = end
    return chunks


def _padded(flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray, pad: int) -> np.ndarray:
    positions = np.arange(int(lengths.max()))
    inside = positions < lengths[:, None]
    out = np.full((len(lengths), len(positions)), pad, dtype=np.int64)
    out[inside] = flat[(starts[:, None] + positions)[inside]]
    return out


def _vertical_differences(ref: np.ndarray, hyp: np.ndarray) -> np.ndarray:
    """``V[p, j, i] = D[i][j] - D[i-1][j]`` (int8, for ``i, j >= 1``) of each pair of the chunk;
    cells beyond a pair's lengths hold values that are never read."""
    n_pairs, width = ref.shape
    vertical = np.empty((n_pairs, hyp.shape[1] + 1, width + 1), dtype=np.int8)
    cols = np.arange(width + 1, dtype=np.int32)
    row = np.broadcast_to(cols, (n_pairs, width + 1)).copy()
    candidates = np.empty_like(row)
    for j in range(1, hyp.shape[1] + 1):
        candidates[:, 0] = j
        np.add(row[:, 1:], 1, out=candidates[:, 1:])
        np.minimum(candidates[:, 1:], row[:, :-1] + (ref != hyp[:, j - 1 : j]), out=candidates[:, 1:])
        candidates -= cols
        np.minimum.accumulate(candidates, axis=1, out=row)
        row += cols
        np.subtract(row[:, 1:], row[:, :-1], out=vertical[:, j, 1:], casting="unsafe")
    return vertical


def _walk_back(
    vertical: np.ndarray, ref: np.ndarray, hyp: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray
) -> np.ndarray:
    """rapidfuzz's backtrace of every pair of a chunk in step: [hits, substitutions, deletions, insertions]."""
    counts = np.zeros((len(n_ref), 4), dtype=np.int64)
    i, j = n_ref.copy(), n_hyp.copy()
    live = np.arange(len(n_ref))
    while live.size:
        ii, jj = i[live], j[live]
        deletion = vertical[live, jj, ii] == 1
        jj = jj - 1
        insertion = ~deletion & (jj > 0) & (vertical[live, jj, ii] == -1)
        diagonal = ~deletion & ~insertion
        differ = ref[live, ii - 1] != hyp[live, jj]
        counts[live, DELETION] += deletion
        counts[live, INSERTION] += insertion
        counts[live, SUBSTITUTION] += diagonal & differ
        counts[live, HIT] += diagonal & ~differ
        ii = ii - (deletion | diagonal)
        jj = jj + deletion
        i[live], j[live] = ii, jj
        live = live[(ii > 0) & (jj > 0)]
    counts[:, DELETION] += i
    counts[:, INSERTION] += j
    return counts
