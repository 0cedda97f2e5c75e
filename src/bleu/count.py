"""Vectorised n-gram counting and clipping over whole corpora of token ids.

Hypotheses and references are counted together, order by order, by sorting one packed
integer per n-gram occurrence: (group of its first n-1 tokens, id of its last token,
position). Equal n-grams of a segment then sit next to each other, whichever source
(a system's hypotheses or a reference stream) they come from, and one count of (group,
source) pairs gives every source's count; the clipped count is min(hypothesis count, max
count in any single reference). Several systems can be counted in one pass, against one
copy of the references. Only n-grams whose first n-1 tokens matched can match, so each
order sorts fewer occurrences than the one before.

The corpus is cut into chunks of whole segments so that a packed key fits in 63 bits
and a chunk's arrays stay in cache; NumPy chunks run on a few threads (sorting and
arithmetic release the GIL). ``ReferenceNgrams`` runs on NumPy arrays or, through
``backend.TorchOps``, on torch tensors.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from .backend import NUMPY
from .errors import BleuInputError


def _bits(n: int) -> int:
    """Bits that hold 0..n-1."""
    return max(int(n - 1).bit_length(), 1)


class ReferenceNgrams:
    """Reference token ids of every segment, ready to clip many hypotheses against.

    ``streams`` holds one (ids, lengths) pair per reference stream; all streams have
    the same number of segments, and a missing reference is a segment of length 0.
    Token ids are 0..vocab_size-1; a hypothesis id outside that range matches nothing.
    """

    def __init__(self, streams: list, vocab_size: int, max_order: int, ops=NUMPY):
        self.ops = ops
        self.max_order = max_order
        self.vocab_size = vocab_size
        self.streams = streams
        self.n_segments = len(streams[0][1])
        self.offsets = [np.concatenate([[0], np.cumsum(ops.to_numpy(lengths))]) for _, lengths in streams]

    def matches(self, ids, lengths) -> np.ndarray:
        """Clipped n-gram matches as a NumPy array of shape (segments, max_order), for hypotheses
        aligned with the references."""
        return self.matches_of([(ids, lengths)])[0]

    def matches_of(self, systems: list[tuple]) -> np.ndarray:
        """Clipped matches of several systems' (ids, lengths), shape (systems, segments, max_order),
        counted together: the references are sorted once, with every system's n-grams."""
        ops = self.ops
        for _, lengths in systems:
            if len(lengths) != self.n_segments:
                raise ValueError(f"{len(lengths)} hypotheses for {self.n_segments} reference segments")
        systems = [(self._known(ids), lengths) for ids, lengths in systems]
        hyp_offsets = [np.concatenate([[0], np.cumsum(ops.to_numpy(lengths))]) for _, lengths in systems]
        sizes = sum(offsets[1:] - offsets[:-1] for offsets in [*hyp_offsets, *self.offsets])
        # A chunk's keys hold a segment or group number, a token id and a position: keep them in 63 bits.
        largest = 1 << (63 - _bits(self.vocab_size + 1)) // 2
        total = int(sizes.sum() + len(sizes))
        rounds = max(-(-total // (ops.threads * min(ops.chunk_tokens, largest))), 1)  # chunks: a multiple of threads
        target = -(-total // (ops.threads * rounds))
        chunks = _chunks(sizes + 1, target)  # + 1: a chunk of many empty segments stays small too
        sources = [*zip(systems, hyp_offsets), *zip(self.streams, self.offsets)]

        def count(chunk: tuple[int, int]) -> np.ndarray:
            first, last = chunk
            pieces = [(ids[offsets[first] : offsets[last]], lengths[first:last])
                      for (ids, lengths), offsets in sources]
            return _clipped_matches(ops, pieces, len(systems), self.vocab_size + 1, self.max_order)

        columns = ops.map_chunks(count, chunks)
        if not columns:
            return np.zeros((len(systems), 0, self.max_order), dtype=np.int64)
        return np.concatenate(columns, axis=1).astype(np.int64)

    def _known(self, ids):
        """The ids with every id outside the vocabulary replaced by one that no reference has."""
        unknown = (ids < 0) | (ids >= self.vocab_size)
        if bool(unknown.any()):
            ids = ids.clone() if hasattr(ids, "clone") else ids.copy()
            ids[unknown] = self.vocab_size
        return ids


def _chunks(sizes: np.ndarray, target: int) -> list[tuple[int, int]]:
    """Runs of consecutive segments of about ``target`` tokens each (a longer segment alone)."""
    target = max(target, 1)
    ends = np.cumsum(sizes)
    cuts = np.searchsorted(ends, np.arange(target, int(ends[-1]) if len(ends) else 0, target), side="right")
    return list(pairwise(sorted({0, *cuts.tolist(), len(sizes)})))


def _clipped_matches(ops, pieces: list[tuple], n_systems: int, span: int, max_order: int) -> np.ndarray:
    """Clipped matches of one chunk, shape (systems, segments, max_order): ``pieces`` is each
    system's (ids, lengths), then each reference stream's, over the same segments; ids are below ``span``."""
    n_segments = len(pieces[0][1])
    ids = ops.concat([piece_ids for piece_ids, _ in pieces])
    lengths = ops.concat([piece_lengths for _, piece_lengths in pieces])
    total = len(ids)
    out = np.zeros((n_systems, n_segments, max_order), dtype=np.int64)
    if total == 0:
        return out
    position_bits = _bits(total)
    if _bits(max(n_segments, total)) + _bits(span) + position_bits > 63:
        raise BleuInputError(f"a segment of {total} tokens with {span} distinct tokens is too large to count")
    # The last position of each source but the last (each system, then each reference stream):
    # an occurrence's source is the number of these before its position.
    source_ends = (np.cumsum([len(piece_ids) for piece_ids, _ in pieces])[:-1] - 1).tolist()
    n_sources = len(pieces)
    positions = ops.arange(total)
    remaining = ops.repeat(lengths.cumsum(0), lengths) - positions  # tokens from each position to its segment's end
    key = ops.repeat(ops.arange(n_segments * n_sources) % n_segments, lengths)  # each position's segment
    key *= span
    key += ids
    key <<= position_bits
    key |= positions
    group_segment = None
    for order in range(1, max_order + 1):
        key = ops.sort(key)
        group = key >> position_bits
        positions = key & ((1 << position_bits) - 1)
        new = group[1:] != group[:-1]
        label = ops.group_numbers(new)  # each occurrence's group: 0, 1, ...
        n_groups = int(label[-1]) + 1
        first = ops.concat([group[:1], group[1:][ops.nonzero(new)]])  # each group's (prefix group, token)
        group_segment = first // span if order == 1 else group_segment[first // span]
        pair = label * n_sources  # (group, source) as one index
        for end in source_ends:
            pair += positions > end
        counts = ops.count(pair, n_groups * n_sources).reshape(n_groups, n_sources)
        most = counts[:, n_systems]
        for stream in range(n_systems + 1, n_sources):
            most = ops.maximum(most, counts[:, stream])
        alive = None  # groups that some system matched
        for system in range(n_systems):
            clipped = ops.minimum(counts[:, system], most)
            out[system, :, order - 1] = ops.to_numpy(ops.group_sum(group_segment, clipped, n_segments))
            alive = clipped > 0 if alive is None else alive | (clipped > 0)
        if order == max_order:
            break
        # Only n-grams whose first n-1 tokens matched (in some system) can match: keep those
        # occurrences, with their group's number, if they have a next token in their segment.
        keep = alive[label]
        keep &= remaining[positions] > order
        kept = ops.nonzero(keep)  # indices gather faster than a mask selects
        positions = positions[kept]
        if len(positions) == 0:
            break
        key = label[kept]
        key *= span
        key += ids[positions + order]
        key <<= position_bits
        key |= positions
    return out


def ngram_totals(lengths: np.ndarray, max_order: int) -> np.ndarray:
    """Number of hypothesis n-grams per segment and order, shape (segments, max_order)."""
    return np.maximum(lengths[:, None] - np.arange(max_order)[None, :], 0)


def closest_lengths(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Per segment, the reference length closest to the hypothesis length, ties to the shorter.

    ``ref_lengths`` and ``present`` have shape (streams, segments); absent references are ignored.
    """
    scale = int(ref_lengths.max(initial=0)) + 1
    distance = np.abs(hyp_lengths[None, :] - ref_lengths)
    # One integer orders by distance first, then by length.
    rank = np.where(present, distance * scale + ref_lengths, np.iinfo(np.int64).max)
    return rank.min(axis=0) % scale
