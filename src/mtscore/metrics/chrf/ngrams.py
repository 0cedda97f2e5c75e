"""Per-segment clipped n-gram matches for chrF, for every segment and order at once, chunk by chunk.

The corpus is cut into chunks of whole segments (a few tens of thousands of symbols: the arrays stay in
cache, the keys narrow and the time per segment the same at any corpus size). In a chunk every symbol
position of the hypotheses and of one reference stream becomes an integer key: its segment, the next
symbols (padding past the segment's end, a different one per side) and its side. Sorting puts the equal
n-grams of a segment side by side for every order covered by the key at once; when the symbols are too
wide for one 63-bit key (large vocabularies: Chinese, Japanese), a first sort numbers each position's
prefix and later sorts key on that number and the next symbols.

In a group of equal n-grams with h hypothesis and r reference positions, min(h, r) = (h + r - |h - r|) / 2:
a segment's matches are half its positions less the sum of |h - r| over its groups, and h - r is a
difference of one running sum (+1 per hypothesis, -1 per reference position) at the group's ends.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from ...engine import ragged
from ...engine.keys import ranges
from ...errors import InputError
from ...threads import map_threads
from .symbols import Characters, CodeVocabulary, Words, WordVocabulary

CHUNK_POSITIONS = 1 << 15  # symbols per chunk (hypothesis and reference): its arrays and sort stay in cache
KEY_BITS = 63


def _bits(n: int) -> int:
    """Bits that hold 0..n-1 (at least 1)."""
    return max(int(n - 1).bit_length(), 1)


def _chunks(sizes: np.ndarray, target: int) -> list[tuple[int, int]]:
    """Runs of consecutive segments of about ``target`` positions each (a longer segment alone)."""
    ends = np.cumsum(sizes)
    total = int(ends[-1]) if len(ends) else 0
    cuts = np.searchsorted(ends, np.arange(target, total, target), side="right")
    return list(pairwise(sorted({0, *cuts.tolist(), len(sizes)})))


def key_passes(n_symbols: int, order: int, n_segments: int, positions: int) -> list[tuple[int, int]]:
    """The orders (after the first, up to the last) that each sort of a chunk of ``n_segments`` segments and
    ``positions`` positions covers: as many symbols as fit in a key beside the prefix (the segment, then the
    previous sort's group number) and the low field (the position, or in the last sort the side)."""
    symbol_bits, position_bits = _bits(n_symbols + 2), _bits(positions + 1)  # + 1: groups are numbered 1..
    passes, done, prefix_bits = [], 0, _bits(n_segments)
    while done < order:
        fit = (KEY_BITS - prefix_bits - 1) // symbol_bits
        if done + fit < order:
            fit = (KEY_BITS - prefix_bits - position_bits) // symbol_bits
        if fit < 1:
            raise InputError(f"{n_symbols} distinct symbols are too many to count n-grams of")
        passes.append((done, min(done + fit, order)))
        done, prefix_bits = done + fit, position_bits
    return passes


def _padded(ids: np.ndarray, lengths: np.ndarray, order: int, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """The ids with ``order - 1`` pads after each segment's, and where each id is."""
    at = np.repeat(np.arange(len(lengths), dtype=np.int64) * (order - 1), lengths)
    at += np.arange(len(ids), dtype=np.int64)
    padded = np.full(len(ids) + len(lengths) * (order - 1), pad, dtype=np.int64)
    padded[at] = ids
    return padded, at


def chunk_matches(
    hypothesis: tuple[np.ndarray, np.ndarray],
    reference: tuple[np.ndarray, np.ndarray],
    n_symbols: int,
    order: int,
) -> np.ndarray:
    """Clipped matches (segments x orders) of the hypotheses' symbol ids (ids, lengths) against one reference
    stream's. Reference ids are 1..n_symbols, hypothesis ids 1..n_symbols + 1 (unknown)."""
    (hyp_ids, hyp_lengths), (ref_ids, ref_lengths) = hypothesis, reference
    n_segments, n_hyp = len(hyp_lengths), len(hyp_ids)
    total = n_hyp + len(ref_ids)
    result = np.zeros((n_segments, order), dtype=np.int64)
    if total == 0:
        return result
    # Each segment followed by order - 1 pads (the unknown symbol after a hypothesis, 0 after a reference),
    # so that an n-gram running past its segment's end matches nothing.
    hyp_padded, hyp_at = _padded(hyp_ids, hyp_lengths, order, n_symbols + 1)
    ref_padded, ref_at = _padded(ref_ids, ref_lengths, order, 0)
    padded = np.concatenate([hyp_padded, ref_padded])
    ref_at += len(hyp_padded)
    at = np.concatenate([hyp_at, ref_at])  # where each position's symbol is
    segments = np.arange(n_segments, dtype=np.int64)
    prefix = np.concatenate([np.repeat(segments, hyp_lengths), np.repeat(segments, ref_lengths)])
    origin = None  # which position each key is of (None: key i is position i)
    sizes = hyp_lengths + ref_lengths  # positions per segment (each segment's sit together once sorted)
    symbol_bits, position_bits = _bits(n_symbols + 2), _bits(total + 1)
    for first, last in key_passes(n_symbols, order, n_segments, total):
        final = last == order
        low_bits = 1 if final else position_bits
        shift = low_bits + (last - first) * symbol_bits
        if origin is None:  # every position: the symbols from shifted slices
            size = len(padded) - order + 1
            keys = padded[first : first + size] << (shift - symbol_bits)
            for k in range(first + 1, last):
                keys |= padded[k : k + size] << (shift - (k - first + 1) * symbol_bits)
            keys = keys[at]
            side = None
        else:
            keys = padded[at + first] << (shift - symbol_bits)
            for k in range(first + 1, last):
                keys |= padded[at + k] << (shift - (k - first + 1) * symbol_bits)
            side = origin >= n_hyp
        keys |= prefix << shift
        if not final:
            keys |= np.arange(len(keys), dtype=np.int64)
        elif side is None:
            keys[n_hyp:] |= 1
        else:
            keys |= side
        keys.sort()
        if final:
            signs = 1 - 2 * (keys & 1)
        else:
            positions = keys & ((1 << position_bits) - 1)
            signs = np.where(positions >= n_hyp if side is None else side[positions], -1, 1)
        count = len(keys)
        # Running count of hypothesis less reference positions before each sorted position.
        running = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(signs, out=running[1:])
        steps = keys[1:] ^ keys[:-1]
        starts = np.ones(count + 1, dtype=bool)
        bounds = ragged.offsets(sizes)
        nonempty = sizes > 0
        first_positions = bounds[:-1][nonempty]
        summed = np.zeros((n_segments, last - first), dtype=np.int64)
        for n in range(first + 1, last + 1):
            # A group of order n starts where a neighbour differs in the prefix or the symbols up to n.
            np.greater_equal(steps, 1 << (low_bits + (last - n) * symbol_bits), out=starts[1:count])
            at_starts = np.flatnonzero(starts)
            ends = running[at_starts]
            imbalance = ends[1:] - ends[:-1]
            np.abs(imbalance, out=imbalance)
            # Summed per segment: its groups run from the one at its first position to the next segment's.
            summed[nonempty, n - first - 1] = np.add.reduceat(imbalance, np.searchsorted(at_starts, first_positions))
        result[:, first:last] = (sizes[:, None] - summed) // 2
        if not final:
            # Only the positions of groups with both sides can match at higher orders: the next sort keeps
            # those, its prefix their group's number (ascending with the segment).
            group_sizes = np.diff(at_starts)
            mixed = imbalance < group_sizes
            kept = ranges(at_starts[:-1][mixed], group_sizes[mixed])
            prefix = np.repeat(np.arange(int(mixed.sum()), dtype=np.int64), group_sizes[mixed])
            sizes = np.diff(np.searchsorted(kept, bounds))
            kept = positions[kept]
            at = at[kept]
            origin = kept if origin is None else origin[kept]
    return result


def corpus_matches(
    hypothesis: tuple[np.ndarray, np.ndarray],
    reference: tuple[np.ndarray, np.ndarray],
    n_symbols: int,
    order: int,
) -> np.ndarray:
    """Clipped matches (segments x orders) of hypothesis symbol ids against one reference stream's, chunk by
    chunk on a few threads. Reference ids are 1..n_symbols, hypothesis ids 1..n_symbols + 1 (unknown)."""
    (hyp_ids, hyp_lengths), (ref_ids, ref_lengths) = hypothesis, reference
    hyp_offsets, ref_offsets = ragged.offsets(hyp_lengths), ragged.offsets(ref_lengths)

    def count(chunk: tuple[int, int]) -> np.ndarray:
        a, b = chunk
        return chunk_matches(
            (hyp_ids[hyp_offsets[a] : hyp_offsets[b]], hyp_lengths[a:b]),
            (ref_ids[ref_offsets[a] : ref_offsets[b]], ref_lengths[a:b]),
            n_symbols,
            order,
        )

    # + 1 per segment: many empty segments make a chunk too.
    chunks = _chunks(hyp_lengths + ref_lengths + 1, CHUNK_POSITIONS)
    parts = map_threads(count, chunks)
    return np.concatenate(parts) if parts else np.zeros((0, order), dtype=np.int64)


def ngram_totals(lengths: np.ndarray, order: int) -> np.ndarray:
    """n-grams of each order 1..order in sequences of ``lengths`` symbols (lengths x orders)."""
    return np.maximum(lengths[..., None] - np.arange(order), 0)


class SymbolNgrams:
    """One kind of symbol's reference streams (orders 1..order), ready to give chrF statistics for hypotheses."""

    def __init__(self, streams: list[list[str]], symbols: Characters | Words, order: int):
        self.symbols, self.order = symbols, order
        n_segments = len(streams[0])
        # Every stream's lines split and numbered at once.
        items, lengths = symbols.split([line for stream in streams for line in stream])
        self.vocabulary: CodeVocabulary | WordVocabulary
        self.vocabulary, ids, lengths = symbols.vocabulary(items, lengths)  # type: ignore[arg-type]
        self.lengths = lengths.reshape(len(streams), n_segments)
        bounds = ragged.offsets(self.lengths.sum(axis=1))
        self.streams = [(ids[a:b], stream) for a, b, stream in zip(bounds[:-1], bounds[1:], self.lengths, strict=True)]

    def statistics(self, lines: list[str]) -> np.ndarray:
        """Per stream, segment and order: [hypothesis n-grams, reference n-grams, clipped matches].

        As sacrebleu, hypothesis n-grams count as 0 where the reference has none of that order."""
        hypothesis = self.vocabulary.encode(*self.symbols.split(lines))
        size = self.vocabulary.size
        matches = np.stack([corpus_matches(hypothesis, stream, size, self.order) for stream in self.streams])
        references = ngram_totals(self.lengths, self.order)
        hypotheses = ngram_totals(hypothesis[1], self.order) * (references > 0)
        return np.stack([hypotheses, references, matches], axis=-1)
