"""Levenshtein alignments of many (reference, hypothesis) pairs at once, with rapidfuzz's choices.

jiwer 4.0 counts hits, substitutions, deletions and insertions from rapidfuzz's
``Levenshtein.opcodes(reference, hypothesis)``. The distance is unique, the split into edit kinds
is not (``a b`` -> ``b c`` is two substitutions, or a deletion, a hit and an insertion), so this
module follows rapidfuzz 3.14's path exactly: the common prefix and suffix are hits; on the middle
parts the full matrix ``D[i][j]`` (``i`` reference tokens, ``j`` hypothesis tokens) is walked back
from the end, taking at ``(i, j)``: a deletion when ``D[i][j] = D[i-1][j] + 1``; else an insertion
when ``j > 1`` and ``D[i][j-1] = D[i-1][j-1] - 1``; else the diagonal (a hit or a substitution).

The vertical differences ``D[i][j] - D[i-1][j]`` (all the walk needs) are computed as rapidfuzz
does, with Hyyrö's bit-parallel algorithm: one step per hypothesis token updates 64 reference
positions per machine word, for every pair of a chunk at once (pairs of similar reference length;
the pairs still going at a step are a prefix, longest hypothesis first). The bit vectors of every
step are kept, and all pairs of a chunk are walked back in step.

From 4194304 middle cells (2048 x 2048; with 65 reference and 10 hypothesis tokens or more) rapidfuzz switches to
Hirschberg's algorithm, which may choose another path among the shortest: such pairs are refused
(``TooLong``) rather than counted differently.
"""

from __future__ import annotations

import numpy as np

HIT, SUBSTITUTION, DELETION, INSERTION = range(4)
_WORD_BUDGET = 1 << 22  # 64-bit words of VP (and of VN) per chunk: bounds the memory of one chunk
_FEW = 64  # pairs too few for a chunk of their own: each chunk costs a step per hypothesis token
_BATCH_BUDGET = 1 << 23  # ... and per batch of chunks walked back together (128 MiB for VP and VN)
_LOOKUP_WORDS = 3  # from this many words per reference, match vectors are looked up, not compared
_PAD = -2  # padding, equal to no token id (ids are >= 0; hypothesis words no reference has may be -1)


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
    middles = _Middles(pairs)
    counts = np.zeros((len(pairs.n_ref), 4), dtype=np.int64)
    counts[:, HIT] = middles.prefix + middles.suffix
    n_ref, n_hyp = middles.n_ref, middles.n_hyp
    counts[:, DELETION] = np.where(n_hyp == 0, n_ref, 0)
    counts[:, INSERTION] = np.where(n_ref == 0, n_hyp, 0)
    both = np.flatnonzero((n_ref > 0) & (n_hyp > 0))
    for batch in _batches(_chunks(both, n_ref, n_hyp), n_ref, n_hyp):
        counts += _walk_back(middles, _Vertical(middles, batch), np.concatenate(batch))
    return counts


def opcodes(ref: np.ndarray, hyp: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """One pair's path as runs ``(kind, ref_start, ref_end, hyp_start, hyp_end)`` in order, the
    kinds ``HIT`` .. ``INSERTION`` (rapidfuzz's opcodes with ``equal`` as ``HIT``)."""
    middles = _Middles(Pairs.of([ref], [hyp]))
    prefix, suffix, i, j = (int(x[0]) for x in (middles.prefix, middles.suffix, middles.n_ref, middles.n_hyp))
    middle_ref, middle_hyp = middles.ref[prefix:][:i], middles.hyp[prefix:][:j]
    steps = [HIT] * suffix
    if i and j:
        vertical = _Vertical(middles, [np.zeros(1, dtype=np.int64)])
        pair = np.zeros(1, dtype=np.int64)

        def rises(i: int, j: int) -> bool:
            return bool(vertical.rises(pair, np.array([i]), np.array([j]))[0])

        def falls(i: int, j: int) -> bool:
            return bool(vertical.falls(pair, np.array([i]), np.array([j]))[0])

        while i and j:
            if rises(i, j):
                steps.append(DELETION)
                i -= 1
                continue
            j -= 1
            if j and falls(i, j):
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


class _Middles(Pairs):
    """Pairs without their common prefix and suffix (``prefix``, ``suffix``: their lengths), as
    rapidfuzz aligns them; a middle beyond its full-matrix size raises ``TooLong``."""

    def __init__(self, pairs: Pairs):
        self.prefix, self.suffix = _affixes(pairs)
        n_ref = pairs.n_ref - self.prefix - self.suffix
        n_hyp = pairs.n_hyp - self.prefix - self.suffix
        too_long = np.flatnonzero(~full_matrix(n_ref, n_hyp))
        if too_long.size:
            first = int(too_long[0])
            raise TooLong(first, int(n_ref[first]), int(n_hyp[first]))
        self.ref, self.n_ref, self.ref_start = pairs.ref, n_ref, pairs.ref_start + self.prefix
        self.hyp, self.n_hyp, self.hyp_start = pairs.hyp, n_hyp, pairs.hyp_start + self.prefix


def _affixes(pairs: Pairs) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's common prefix, then its common suffix within the rest (rapidfuzz's order)."""
    shorter = np.minimum(pairs.n_ref, pairs.n_hyp)
    prefix = _common_run(pairs, shorter, pairs.ref_start, pairs.hyp_start, 1)
    ref_end = pairs.ref_start + pairs.n_ref - 1
    hyp_end = pairs.hyp_start + pairs.n_hyp - 1
    suffix = _common_run(pairs, shorter - prefix, ref_end, hyp_end, -1)
    return prefix, suffix


def _common_run(pairs: Pairs, most: np.ndarray, ref_at: np.ndarray, hyp_at: np.ndarray, step: int) -> np.ndarray:
    """How many tokens are equal from ``ref_at``/``hyp_at`` on (moving by ``step``), at most ``most``:
    compared in windows of 8, 16, 32 ... tokens, for the pairs still equal so far."""
    run = np.zeros(len(most), dtype=np.int64)
    todo, width = np.flatnonzero(most > 0), 8
    while todo.size:
        positions = run[todo, None] + np.arange(width)
        inside = positions < most[todo, None]
        offsets = positions[inside] * step
        same = np.zeros((len(todo), width + 1), dtype=bool)
        owner = np.broadcast_to(todo[:, None], positions.shape)[inside]
        same[:, :width][inside] = pairs.ref[ref_at[owner] + offsets] == pairs.hyp[hyp_at[owner] + offsets]
        equal = np.argmin(same, axis=1)
        run[todo] += equal
        todo = todo[equal == width]
        width *= 2
    return run


def _chunks(pairs: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray) -> list[np.ndarray]:
    """``pairs`` by reference length, cut so that each chunk's bit vectors stay in budget and its
    widest reference has at most twice the words of its narrowest (unless fewer than ``_FEW``
    pairs would be left); each chunk ordered by hypothesis length, longest first (the pairs still
    going at row j are a prefix)."""
    pairs = pairs[np.argsort(n_ref[pairs], kind="stable")]
    words = (n_ref[pairs] + 63) // 64
    chunks, start = [], 0
    while start < len(pairs):
        cost = np.cumsum(n_hyp[pairs[start:]] + 1) * np.maximum.accumulate(words[start:])
        end = start + max(1, int(np.searchsorted(cost, _WORD_BUDGET, side="right")))
        if len(pairs) - int(np.searchsorted(words, 2 * words[start], side="right")) >= _FEW:
            end = min(end, int(np.searchsorted(words, 2 * words[start], side="right")))  # little padding
        chunk = pairs[start:end]
        chunks.append(chunk[np.argsort(-n_hyp[chunk], kind="stable")])
        start = end
    return chunks


def _batches(chunks: list[np.ndarray], n_ref: np.ndarray, n_hyp: np.ndarray) -> list[list[np.ndarray]]:
    """Consecutive chunks grouped while their bit vectors stay in budget together (one walk-back each)."""
    batches: list[list[np.ndarray]] = []
    total = _BATCH_BUDGET
    for chunk in chunks:
        cost = int((n_hyp[chunk] + 1).sum() * ((n_ref[chunk].max() + 63) // 64))
        if total + cost > _BATCH_BUDGET:
            batches.append([])
            total = 0
        batches[-1].append(chunk)
        total += cost
    return batches


def _padded(flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray, pad: int, width: int) -> np.ndarray:
    positions = np.arange(width)
    inside = positions < lengths[:, None]
    out = np.full((len(lengths), width), pad, dtype=np.int64)
    out[inside] = flat[(starts[:, None] + positions)[inside]]
    return out


class _Vertical:
    """``D[i][j] - D[i-1][j]`` of the middles of the pairs of some chunks, as the bit vectors of
    Hyyrö's bit-parallel Levenshtein: per hypothesis position ``j`` and 64 reference positions,
    VP (difference +1) and VN (-1). In a chunk (pairs ordered by hypothesis length, longest first),
    row ``j`` keeps the pairs with ``n_hyp >= j``, the row of the chunk's ``p``-th pair at
    ``start[chunk, j] + p * words``."""

    def __init__(self, middles: _Middles, chunks: list[np.ndarray]):
        n_pairs, longest = len(middles.n_ref), int(middles.n_hyp.max())
        self.start = np.zeros((len(chunks), longest + 1), dtype=np.int64)
        self.chunk = np.zeros(n_pairs, dtype=np.int64)
        self.offset = np.zeros(n_pairs, dtype=np.int64)
        vps, vns, size = [], [], 0
        for number, chunk in enumerate(chunks):
            n_ref, n_hyp = middles.n_ref[chunk], middles.n_hyp[chunk]
            words = int((n_ref.max() + 63) // 64)
            ref = _padded(middles.ref, middles.ref_start[chunk], n_ref, _PAD, 64 * words)
            hyp = _padded(middles.hyp, middles.hyp_start[chunk], n_hyp, _PAD, int(n_hyp.max()))
            vp, vn, start = _columns(ref, hyp, n_ref, n_hyp)
            self.start[number, : len(start)] = start + size
            self.chunk[chunk], self.offset[chunk] = number, np.arange(len(chunk)) * words
            vps.append(vp)
            vns.append(vn)
            size += len(vp)
        self.vp, self.vn = np.concatenate(vps), np.concatenate(vns)

    def rises(self, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether ``D[i][j] = D[i-1][j] + 1`` (``1 <= i <= n_ref``, ``1 <= j <= n_hyp``) for ``pair``."""
        return self._bit(self.vp, pair, i, j)

    def falls(self, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether ``D[i][j] = D[i-1][j] - 1`` (``1 <= i <= n_ref``, ``1 <= j <= n_hyp``) for ``pair``."""
        return self._bit(self.vn, pair, i, j)

    def _bit(self, vectors: np.ndarray, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        index = self.start[self.chunk[pair], j] + self.offset[pair] + ((i - 1) >> 6)
        return ((vectors[index] >> ((i - 1) & 63).astype(np.uint64)) & 1).astype(bool)


def _columns(
    ref: np.ndarray, hyp: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One chunk's VP and VN, every row's concatenated, and where each row ``j >= 1`` starts.
    Within a row, each word takes a carry (the horizontal difference at its lowest position) from
    the word below it: the words are computed together, again while some carry changed."""
    n_pairs, words = len(ref), ref.shape[1] // 64
    # the words past a pair's reference hold values never read: their carries need not settle
    needed = np.arange(1, words) < (n_ref[:, None] + 63) // 64
    going = np.searchsorted(-n_hyp, -np.arange(hyp.shape[1] + 1), side="right")  # pairs with n_hyp >= j
    sizes = going * words
    sizes[0] = 0
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]])  # row j after rows 1 .. j-1
    vp_rows = np.empty(int(sizes.sum()), dtype=np.uint64)
    vn_rows = np.empty_like(vp_rows)
    # few words: comparing a row's positions is cheaper than building the lookup (measured on WMT22)
    equal_rows = _matches(ref, hyp, going) if words >= _LOOKUP_WORDS else None
    vp = np.full((n_pairs, words), ~np.uint64(0))  # column 0: D[i][0] = i
    vn = np.zeros_like(vp)
    carries = np.zeros((2, n_pairs, words), dtype=np.uint64)  # a first guess: the last row's
    carries[0, :, 0] = 1  # into word 0: D[0][j] - D[0][j-1] = 1
    for j in range(1, hyp.shape[1] + 1):
        k = int(going[j])
        vp, vn, carries, needed = vp[:k], vn[:k], carries[:, :k], needed[:k]
        if equal_rows is None:
            equal = np.packbits(ref[:k] == hyp[:k, j - 1 : j], axis=1, bitorder="little").view("<u8")
        else:
            equal = equal_rows[start[j] : start[j] + k * words].reshape(k, words)
        vp, vn = _next_column(equal, vp, vn, carries, needed)
        vp_rows[start[j] : start[j] + k * words] = vp.ravel()
        vn_rows[start[j] : start[j] + k * words] = vn.ravel()
    return vp_rows, vn_rows, start


def _matches(ref: np.ndarray, hyp: np.ndarray, going: np.ndarray) -> np.ndarray:
    """Every row's match vectors (bit ``i`` of pair ``p``'s words at row ``j``: ``ref[p, i] ==
    hyp[p, j - 1]``), laid out as the rows of VP: from each pair's reference positions per token
    (Hyyrö's pattern-match vectors), looked up by the hypothesis token, never compared cell by cell."""
    words = ref.shape[1] // 64
    base = int(max(ref.max(initial=0), hyp.max(initial=0))) + 2  # tokens >= -1 (_PAD in no key)
    pair, position = np.nonzero(ref != _PAD)
    keys = pair * base + ref[pair, position] + 1  # (pair, token), with the word of the position
    cells = keys * words + (position >> 6)
    order = np.argsort(cells)
    cells = cells[order]
    bits = np.left_shift(np.uint64(1), (position[order] & 63).astype(np.uint64))
    first = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])
    sums = np.add.reduceat(bits, first) if len(first) else bits  # distinct bits: the sum is the OR
    cells = cells[first]
    keys = cells // words  # sorted: each distinct key's row is the number of keys before it
    new = np.r_[True, keys[1:] != keys[:-1]] if len(keys) else np.zeros(0, dtype=bool)
    tokens, row_of_cell = keys[new], np.cumsum(new) - 1
    vectors = np.zeros((len(tokens) + 1, words), dtype=np.uint64)  # the last: no match
    vectors[row_of_cell, cells % words] = sums
    rows = np.arange(1, hyp.shape[1] + 1)
    counts = going[1:]
    row_pair = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    wanted = row_pair * base + hyp[row_pair, np.repeat(rows, counts) - 1] + 1
    found = np.minimum(np.searchsorted(tokens, wanted), len(tokens) - 1)
    found = np.where(tokens[found] == wanted, found, len(tokens)) if len(tokens) else np.zeros_like(wanted)
    return vectors[found].ravel()


def _next_column(
    equal: np.ndarray, vp: np.ndarray, vn: np.ndarray, carries: np.ndarray, needed: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One step of Hyyrö's block algorithm (as rapidfuzz's) for every pair and word at once;
    ``carries`` (the horizontal differences entering each word, +1 and -1; word 0's is fixed) start
    as a guess and end as this row's wherever ``needed`` (words 1 .. of each pair's reference)."""
    hp_in, hn_in = carries
    while True:  # once when there is one word
        x = equal | hn_in
        d0 = (((x & vp) + vp) ^ vp) | x | vn
        hp = vn | ~(d0 | vp)
        hn = d0 & vp
        if hp.shape[1] == 1:
            break
        hp_top, hn_top = hp[:, :-1] >> 63, hn[:, :-1] >> 63
        if not (((hp_top != hp_in[:, 1:]) | (hn_top != hn_in[:, 1:])) & needed).any():
            break
        hp_in[:, 1:], hn_in[:, 1:] = hp_top, hn_top
    hp = (hp << 1) | hp_in
    hn = (hn << 1) | hn_in
    return hn | ~(d0 | hp), hp & d0


def _walk_back(middles: _Middles, vertical: _Vertical, pairs: np.ndarray) -> np.ndarray:
    """rapidfuzz's backtrace of the middles of ``pairs``, all in step: [H, S, D, I] per pair."""
    n_pairs = len(middles.n_ref)
    live, i, j = pairs, middles.n_ref[pairs], middles.n_hyp[pairs]
    # per live pair, fixed while it goes: where its rows start (flat, by j), its words, its tokens
    width = vertical.start.shape[1]
    starts = vertical.start.ravel()
    row, offset = vertical.chunk[live] * width, vertical.offset[live]
    ref_at, hyp_at = middles.ref_start[live] - 1, middles.hyp_start[live] - 1
    steps, kinds = [], []
    left_i, left_j = np.zeros(n_pairs, dtype=np.int64), np.zeros(n_pairs, dtype=np.int64)
    while live.size:
        word = offset + ((i - 1) >> 6)
        shift = ((i - 1) & 63).astype(np.uint64)
        deletion = ((vertical.vp[starts[row + j] + word] >> shift) & 1).astype(bool)
        falls = ((vertical.vn[starts[row + np.maximum(j - 1, 1)] + word] >> shift) & 1).astype(bool)
        insertion = ~deletion & (j > 1) & falls
        diagonal = ~deletion & ~insertion
        differ = middles.ref[ref_at + i] != middles.hyp[hyp_at + j]
        steps.append(live)
        kinds.append(np.where(diagonal, differ.astype(np.int64), np.where(deletion, DELETION, INSERTION)))
        i = i - (deletion | diagonal)
        j = j - ~deletion
        going = (i > 0) & (j > 0)
        if not going.all():
            done = ~going
            left_i[live[done]], left_j[live[done]] = i[done], j[done]
            live, i, j = live[going], i[going], j[going]
            row, offset, ref_at, hyp_at = row[going], offset[going], ref_at[going], hyp_at[going]
    counts = np.bincount(np.concatenate(steps) * 4 + np.concatenate(kinds), minlength=4 * n_pairs).reshape(n_pairs, 4)
    counts[:, DELETION] += left_i
    counts[:, INSERTION] += left_j
    return counts
