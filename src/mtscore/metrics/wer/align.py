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
positions per machine word, for every word of every pair of a batch at once, each pair with its own
number of words (no padding); word ``w`` runs ``w`` steps behind word 0, so that the carry it takes
from the word below is always ready (``_Vertical``). The bit vectors of every step are kept, and all
pairs of a batch are walked back in step. Batches (pairs by hypothesis length) bound the memory.

From 4194304 middle cells (2048 x 2048; with 65 reference and 10 hypothesis tokens or more) rapidfuzz switches to
Hirschberg's algorithm, which may choose another path among the shortest: such pairs (long paragraphs)
are aligned by rapidfuzz itself, jiwer's own engine, one pair at a time (``_long_counts``), in memory
linear in their length. Beyond ``MAX_LONG_CELLS`` middle cells (minutes to days of work) or ``MAX_LONG_TOKENS``
tokens on a side (gigabytes), a pair is refused (``TooLong``).

Pairs of characters (CER: code points, int32) are all aligned by rapidfuzz one pair at a time, as strings
(``_character_counts``): its kernel takes a few microseconds a pair, several times less than the
vectorised walk's step per character. Words keep the vectorised walk, which costs about what rapidfuzz does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import itemgetter
from typing import Any

import numpy as np

from ...engine import ragged
from ...engine.keys import ranges

HIT, SUBSTITUTION, DELETION, INSERTION = range(4)
_TAG = itemgetter(0)  # an edit operation's kind
_BATCH_BUDGET = 1 << 22  # 8-byte words of memory per batch (32 MiB): 2 per cell and step (VP and VN) ...
_TOKEN_WORDS = 4  # ... and about 4 per token (the working arrays of its match vectors)
_STEPS_KEPT = 1 << 20  # walk-back steps kept before they are counted
# The largest middle rapidfuzz is asked to align: 2**36 cells take rapidfuzz about 10 seconds (a pair
# of 250,000-character paragraphs), and 2**22 tokens on a side about 250 MiB (some 60 bytes a token).
MAX_LONG_CELLS = 1 << 36
MAX_LONG_TOKENS = 1 << 22


class TooLong(ValueError):
    """A pair beyond what is aligned (``MAX_LONG_CELLS``, ``MAX_LONG_TOKENS``); ``index`` is its position."""

    def __init__(self, index: int, n_ref: int, n_hyp: int):
        super().__init__(index, n_ref, n_hyp)
        self.index, self.n_ref, self.n_hyp = index, n_ref, n_hyp


def full_matrix(n_ref: np.ndarray, n_hyp: np.ndarray) -> np.ndarray:
    """Whether rapidfuzz aligns middles of these sizes with one full matrix (not Hirschberg's split): its
    two bits a cell under 1 MiB, ``n_ref * n_hyp < 2**22`` (in floats: exact there, and no int64 wrap)."""
    return (np.asarray(n_ref, dtype=np.float64) * n_hyp < 1 << 22) | (n_ref < 65) | (n_hyp < 10)


def within_bounds(n_ref: np.ndarray, n_hyp: np.ndarray) -> np.ndarray:
    """Whether middles of these sizes are aligned: with the full matrix, or by rapidfuzz within
    ``MAX_LONG_CELLS`` and ``MAX_LONG_TOKENS`` (the product in floats: no int64 wrap)."""
    cells = np.asarray(n_ref, dtype=np.float64) * n_hyp
    small = (cells <= MAX_LONG_CELLS) & (np.maximum(n_ref, n_hyp) <= MAX_LONG_TOKENS)
    return full_matrix(n_ref, n_hyp) | small


class Pairs:
    """Token ids of many pairs, concatenated: pair ``p``'s reference is ``n_ref[p]`` ids from
    ``ref_start[p]`` in ``ref`` (likewise its hypothesis)."""

    def __init__(self, ref: np.ndarray, n_ref: np.ndarray, hyp: np.ndarray, n_hyp: np.ndarray):
        self.ref, self.n_ref, self.ref_start = _ids(ref), n_ref, ragged.starts(n_ref)
        self.hyp, self.n_hyp, self.hyp_start = _ids(hyp), n_hyp, ragged.starts(n_hyp)

    @classmethod
    def of(cls, refs: list[np.ndarray], hyps: list[np.ndarray]) -> Pairs:
        """Pairs from one id array per reference and per hypothesis."""
        return cls(*_flat(refs), *_flat(hyps))


def _ids(tokens: np.ndarray) -> np.ndarray:
    """Token ids as a signed integer array: int32 ones (characters) kept, half the memory of int64."""
    tokens = np.asarray(tokens)
    return tokens if tokens.dtype in (np.int32, np.int64) else tokens.astype(np.int64)


def _flat(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Id arrays concatenated as int64, with their lengths: for the few pairs ``explain`` aligns
    (the scoring path builds ``Pairs`` from flat arrays and keeps characters' int32)."""
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
    both = (n_ref > 0) & (n_hyp > 0)
    if pairs.ref.dtype == np.int32 and pairs.hyp.dtype == np.int32:
        # Characters (code points): rapidfuzz aligns a pair of strings in a few microseconds, while the
        # vectorised walk takes a step per character; on words the two cost about the same.
        aligned = np.flatnonzero(both)
        counts[aligned] += _character_counts(middles, aligned)
        return counts
    long = both & ~full_matrix(n_ref, n_hyp)
    for batch in _batches(np.flatnonzero(both & ~long), n_ref, n_hyp):
        counts[batch] += _walk_back(middles, _Vertical(middles, batch))
    for pair in np.flatnonzero(long).tolist():
        ref, hyp = middles.pair(pair)
        counts[pair] += _long_counts(ref, hyp)
    return counts


def _character_counts(middles: _Middles, aligned: np.ndarray) -> np.ndarray:
    """``rapidfuzz_counts`` of the middles ``aligned``, whose ids are code points, as strings."""
    ref_text, hyp_text = (_text(ids) for ids in (middles.ref, middles.hyp))
    rows = [
        rapidfuzz_counts(ref_text[ref_start : ref_start + n_ref], hyp_text[hyp_start : hyp_start + n_hyp])
        for ref_start, n_ref, hyp_start, n_hyp in zip(
            middles.ref_start[aligned].tolist(),
            middles.n_ref[aligned].tolist(),
            middles.hyp_start[aligned].tolist(),
            middles.n_hyp[aligned].tolist(),
            strict=True,
        )
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


def _text(code_points: np.ndarray) -> str:
    return code_points.astype("<i4", copy=False).tobytes().decode("utf-32-le", "surrogatepass")


@cache
def _levenshtein() -> Any:
    """rapidfuzz's ``Levenshtein``, imported on first use only, so that ``import mtscore`` never loads it."""
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:  # pragma: no cover - rapidfuzz is a dependency; a broken install says so
        raise ImportError("WER and CER need rapidfuzz (jiwer's engine): pip install rapidfuzz") from None
    return Levenshtein


def rapidfuzz_counts(ref: Sequence[object], hyp: Sequence[object]) -> list[int]:
    """[hits, substitutions, deletions, insertions] of rapidfuzz's ``editops`` (the steps its ``opcodes``,
    which jiwer counts, are made of) for two strings or two sequences of integers (compared exactly)."""
    tags = list(map(_TAG, _levenshtein().editops(ref, hyp).as_list()))
    counts = [0, 0, 0, 0]
    counts[SUBSTITUTION], counts[DELETION] = tags.count("replace"), tags.count("delete")
    counts[INSERTION] = tags.count("insert")
    counts[HIT] = len(ref) - counts[SUBSTITUTION] - counts[DELETION]
    return counts


def _rapidfuzz_opcodes(ref: np.ndarray, hyp: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """rapidfuzz's own opcodes of one long middle, as runs (``opcodes``): what jiwer counts."""
    kinds = {"equal": HIT, "replace": SUBSTITUTION, "delete": DELETION, "insert": INSERTION}
    runs = _levenshtein().opcodes(ref.tolist(), hyp.tolist())
    return [(kinds[run.tag], run.src_start, run.src_end, run.dest_start, run.dest_end) for run in runs]


def _long_counts(ref: np.ndarray, hyp: np.ndarray) -> np.ndarray:
    """[hits, substitutions, deletions, insertions] of one long middle, from rapidfuzz's opcodes."""
    counts = np.zeros(4, dtype=np.int64)
    for kind, i1, i2, j1, j2 in _rapidfuzz_opcodes(ref, hyp):
        counts[kind] += i2 - i1 if kind != INSERTION else j2 - j1
    return counts


def opcodes(ref: np.ndarray, hyp: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """One pair's path as runs ``(kind, ref_start, ref_end, hyp_start, hyp_end)`` in order, the
    kinds ``HIT`` .. ``INSERTION`` (rapidfuzz's opcodes with ``equal`` as ``HIT``)."""
    middles = _Middles(Pairs.of([ref], [hyp]))
    prefix, suffix, i, j = (int(x[0]) for x in (middles.prefix, middles.suffix, middles.n_ref, middles.n_hyp))
    middle_ref, middle_hyp = middles.ref[prefix:][:i], middles.hyp[prefix:][:j]
    if i and j and not full_matrix(middles.n_ref, middles.n_hyp)[0]:
        runs = _rapidfuzz_opcodes(middle_ref, middle_hyp)
        middle = [kind for kind, i1, i2, j1, j2 in runs for _ in range(max(i2 - i1, j2 - j1))]
        return _runs([HIT] * prefix + middle + [HIT] * suffix)
    steps = [HIT] * suffix
    if i and j:
        vertical = _Vertical(middles, np.zeros(1, dtype=np.int64))
        pair = np.zeros(1, dtype=np.int64)

        def rises(i: int, j: int) -> bool:
            return bool(vertical.rises(pair, np.array([i]), np.array([j]))[0])

        def fell(i: int, j: int) -> bool:
            return bool(vertical.fell(pair, np.array([i]), np.array([j]))[0])

        while i and j:
            if rises(i, j):
                steps.append(DELETION)
                i -= 1
                continue
            j -= 1
            if fell(i, j + 1):  # column 0 never falls
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
    rapidfuzz aligns them; a middle beyond the bounds (``within_bounds``) raises ``TooLong``."""

    def __init__(self, pairs: Pairs):
        self.prefix, self.suffix = _affixes(pairs)
        n_ref = pairs.n_ref - self.prefix - self.suffix
        n_hyp = pairs.n_hyp - self.prefix - self.suffix
        too_long = np.flatnonzero(~within_bounds(n_ref, n_hyp))
        if too_long.size:
            first = int(too_long[0])
            raise TooLong(first, int(n_ref[first]), int(n_hyp[first]))
        self.ref, self.n_ref, self.ref_start = pairs.ref, n_ref, pairs.ref_start + self.prefix
        self.hyp, self.n_hyp, self.hyp_start = pairs.hyp, n_hyp, pairs.hyp_start + self.prefix

    def pair(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """The middle of pair ``index``: its reference and hypothesis token ids."""
        ref_start, hyp_start = int(self.ref_start[index]), int(self.hyp_start[index])
        return (
            self.ref[ref_start : ref_start + int(self.n_ref[index])],
            self.hyp[hyp_start : hyp_start + int(self.n_hyp[index])],
        )


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


def _batches(pairs: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray) -> list[np.ndarray]:
    """``pairs`` by hypothesis length, cut where a batch's memory would pass ``_BATCH_BUDGET``
    (a pair alone may pass it): the steps of a batch are its longest hypothesis's, so sorting
    keeps the short ones' batches short."""
    pairs = pairs[np.argsort(n_hyp[pairs], kind="stable")]
    words = (n_ref[pairs] + 63) >> 6
    cells = words * n_hyp[pairs] + words * (words + 1) // 2  # cells and steps, as ``_Vertical`` lays them out
    cost = np.cumsum(2 * cells + _TOKEN_WORDS * (n_ref[pairs] + n_hyp[pairs]))
    batches, start, before = [], 0, 0
    while start < len(pairs):
        end = max(start + 1, int(np.searchsorted(cost, before + _BATCH_BUDGET, side="right")))
        batches.append(pairs[start:end])
        start, before = end, int(cost[end - 1])
    return batches


class _Vertical:
    """``D[i][j] - D[i-1][j]`` of the middles of ``pairs``, as the bit vectors of Hyyrö's
    bit-parallel Levenshtein (rapidfuzz's): VP (difference +1) and VN (-1) of a *cell*, 64
    reference positions of a pair (its word ``w``), per hypothesis position ``j``. A word needs
    only the carry its lower word produces at the same column, so word ``w`` runs ``w`` steps
    behind word 0: at step ``t`` every cell computes its column ``t - w`` at once, with the carry
    of step ``t - 1``, and no word waits for another to settle. Cells are ordered by their last
    step, latest first, so the cells still going at step ``t`` are a prefix: row ``t`` holds them
    from ``start[t]``, a cell at its ``place``, as [VP of column ``t - w``, VN of column ``t - w - 1``]
    (what the walk back reads at one cell; row 0: column 0's VP)."""

    def __init__(self, middles: _Middles, pairs: np.ndarray):
        self.pairs = pairs
        n_ref, n_hyp = middles.n_ref[pairs], middles.n_hyp[pairs]
        words = (n_ref + 63) >> 6
        self.first = ragged.starts(words)  # each pair's word 0 among the cells (pair by pair)
        n_cells = int(words.sum())
        cell_pair = ragged.run_ids(words)
        cell_word = np.arange(n_cells) - self.first[cell_pair]
        last = n_hyp[cell_pair] + cell_word  # the step of the cell's last column
        order = np.argsort(-last, kind="stable")
        self.place = np.empty(n_cells, dtype=np.int64)
        self.place[order] = np.arange(n_cells)
        going = np.searchsorted(-last[order], -np.arange(int(last.max()) + 2), side="right")  # cells at step t
        going[0] = n_cells
        self.start = ragged.starts(going)
        self.rows = np.empty((int(going.sum()), 2), dtype=np.uint64)
        self.rows[:n_cells, 0] = ~np.uint64(0)  # column 0: D[i][0] = i
        self.rows[n_cells : 2 * n_cells, 1] = 0
        word = cell_word[order]
        lower = np.where(word > 0, self.place[order - 1], n_cells)  # the cell of word w - 1 (none: word 0)
        table, column_at, hyp_at = _match_vectors(middles, pairs, words, int(words.max()))
        self._forward(going, word, lower, table, column_at, hyp_at[cell_pair[order]] - word)

    def _forward(
        self,
        going: np.ndarray,
        word: np.ndarray,
        lower: np.ndarray,
        table: np.ndarray,
        column_at: np.ndarray,
        hyp_at: np.ndarray,
    ) -> None:
        """Every step of Hyyrö's block algorithm; a cell not started (``t <= w``) keeps column 0.
        The match vectors of a cell's column ``t - w`` start at ``column_at[hyp_at + t]``."""
        rows, start, widest = self.rows, self.start, int(word.max()) + 1
        carry_p = np.zeros(len(word) + 1, dtype=np.uint64)  # the horizontal differences each cell
        carry_n = np.zeros_like(carry_p)  # passes up; the last, into word 0: D[0][j] - D[0][j-1] = 1
        carry_p[-1] = 1
        for t in range(1, len(going) - 1):
            k, after = int(going[t]), int(going[t + 1])
            row, before, ahead = int(start[t]), int(start[t - 1]), int(start[t + 1])
            vp, vn = rows[before : before + k, 0], rows[row : row + k, 1]
            equal = table[column_at[hyp_at[:k] + t] + word[:k]]
            hp_in, hn_in = carry_p[lower[:k]], carry_n[lower[:k]]
            x = equal | hn_in
            d0 = (((x & vp) + vp) ^ vp) | x | vn
            hp = vn | ~(d0 | vp)
            hn = d0 & vp
            carry_p[:k], carry_n[:k] = hp >> 63, hn >> 63
            hp = (hp << 1) | hp_in
            hn = (hn << 1) | hn_in
            rows[row : row + k, 0] = hn | ~(d0 | hp)
            rows[ahead : ahead + after, 1] = (hp & d0)[:after]
            if t < widest:
                waiting = np.flatnonzero(word[:k] >= t)
                rows[row + waiting, 0], rows[ahead + waiting, 1] = ~np.uint64(0), 0

    def _bits(self, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        above = i - 1
        word = above >> 6
        cells = self.rows.take(self.start[j + word] + self.place[self.first[pair] + word], axis=0)
        return ((cells >> (above & 63).astype(np.uint64)[:, None]) & np.uint64(1)).astype(bool)

    def rises(self, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether ``D[i][j] = D[i-1][j] + 1`` (``1 <= i <= n_ref``, ``1 <= j <= n_hyp``) for ``pair``."""
        return self._bits(pair, i, j)[:, 0]

    def fell(self, pair: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether ``D[i][j-1] = D[i-1][j-1] - 1`` (``1 <= i <= n_ref``, ``1 <= j <= n_hyp``) for ``pair``."""
        return self._bits(pair, i, j)[:, 1]


def _match_vectors(
    middles: _Middles, pairs: np.ndarray, words: np.ndarray, widest: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hyyrö's pattern-match vectors: per pair and token of its reference, the pair's words with
    bit ``i`` set where reference position ``i`` has that token, in ``table`` (between ``widest``
    zero words before and after: no match); per hypothesis position, where its token's vectors
    start (``column_at``); and per pair, ``hyp_at``: column ``j``'s entry is ``column_at[hyp_at + j]``
    (from ``j = 1 - widest`` on, the entries before its own being no pair's or another pair's).
    The working arrays, a few per token, are dropped as soon as done with."""
    n_ref, n_hyp = middles.n_ref[pairs], middles.n_hyp[pairs]
    tokens = middles.ref[ranges(middles.ref_start[pairs], n_ref)]
    hyp_tokens = middles.hyp[ranges(middles.hyp_start[pairs], n_hyp)]
    base = int(max(tokens.max(initial=0), hyp_tokens.max(initial=0))) + 2  # tokens >= -1
    keys = np.repeat(np.arange(len(pairs)) * base + 1, n_ref)  # (pair, token)
    keys += tokens
    del tokens
    order = np.argsort(keys, kind="stable")  # by key, then position
    keys = keys[order]
    position = ranges(np.zeros_like(n_ref), n_ref)[order]
    del order
    new = np.ones(len(keys), dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    unique = keys[new]
    del keys
    key_words = words[unique // base]
    rows = widest + ragged.starts(key_words)  # where each key's words start in the table
    cells = np.cumsum(new)
    del new
    cells = rows[cells - 1]
    cells += position >> 6
    bits = np.left_shift(np.uint64(1), (position & 63).astype(np.uint64))
    del position
    first = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])
    table = np.zeros(2 * widest + int(key_words.sum()), dtype=np.uint64)
    table[cells[first]] = np.add.reduceat(bits, first)  # distinct bits: the sum is the OR
    del cells, bits, first
    wanted = np.repeat(np.arange(len(pairs)) * base + 1, n_hyp)
    wanted += hyp_tokens
    del hyp_tokens
    found = np.searchsorted(unique, wanted)
    np.minimum(found, len(unique) - 1, out=found)
    column_at = np.zeros(widest + len(wanted), dtype=np.int64)
    column_at[widest:] = np.where(unique[found] == wanted, rows[found], 0)
    return table, column_at, widest + ragged.starts(n_hyp) - 1


def _walk_back(middles: _Middles, vertical: _Vertical) -> np.ndarray:
    """rapidfuzz's backtrace of the middles of ``vertical.pairs``, all in step: [H, S, D, I] per pair.
    Only deletions and substitutions are counted: H + S + D and H + S + I are the middles' lengths."""
    pairs = vertical.pairs
    n_pairs = len(pairs)
    n_ref, n_hyp = middles.n_ref[pairs], middles.n_hyp[pairs]
    rows, starts, place, ref, hyp = vertical.rows, vertical.start, vertical.place, middles.ref, middles.hyp
    # per pair still going: 3 x its number (+ 1: a deletion, + 2: a substitution), i, j, and where
    # its tokens and its cells start: one array, so that the pairs done are dropped at once
    state = np.stack(
        [
            3 * np.arange(n_pairs),
            n_ref,
            n_hyp,
            middles.ref_start[pairs] - 1,
            middles.hyp_start[pairs] - 1,
            vertical.first,
        ]
    )
    tally = np.zeros(3 * n_pairs, dtype=np.int64)
    steps: list[np.ndarray] = []
    size = 0
    left_i = np.zeros(n_pairs, dtype=np.int64)
    while state.shape[1]:
        code, i, j, ref_at, hyp_at, first = state
        above = i - 1
        word = above >> 6
        cells = rows.take(starts[j + word] + place[first + word], axis=0)  # faster than rows[...]
        bits = ((cells >> (above & 63).astype(np.uint64)[:, None]) & np.uint64(1)).view(np.int64)
        deletion, fell = bits[:, 0], bits[:, 1]  # column 0 never falls
        diagonal = (deletion | fell) ^ 1
        steps.append(code + deletion + 2 * (diagonal & (ref[ref_at + i] != hyp[hyp_at + j])))
        size += len(code)
        i += fell & (deletion ^ 1)  # an insertion keeps i
        i -= 1
        j += deletion
        j -= 1
        going = i * j
        if not going.all():
            done = going == 0
            left_i[code[done] // 3] = i[done]
            state = state[:, ~done]
        if size > _STEPS_KEPT or not state.shape[1]:  # the steps counted now and then: bounded memory
            tally += np.bincount(np.concatenate(steps), minlength=3 * n_pairs)
            steps, size = [], 0
    counts = np.empty((n_pairs, 4), dtype=np.int64)
    counts[:, DELETION] = tally[1::3] + left_i
    counts[:, SUBSTITUTION] = tally[2::3]
    counts[:, HIT] = n_ref - counts[:, SUBSTITUTION] - counts[:, DELETION]
    counts[:, INSERTION] = n_hyp - counts[:, HIT] - counts[:, SUBSTITUTION]
    return counts
