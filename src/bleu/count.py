"""Vectorised n-gram counting and clipping over whole corpora of token ids.

An n-gram gets a dense integer key built order by order: the key of an n-gram is
the rank of the pair (key of its first n-1 tokens, id of its last token) among all
such pairs in the references. A hypothesis n-gram absent from the references gets
no key and cannot match. Counts per (segment, key) come from sorting, and the
clipped count is min(hypothesis count, max count in any single reference).

``ReferenceNgrams`` runs on NumPy arrays or, through ``backend.TorchOps``, on torch tensors.
"""

from __future__ import annotations

import numpy as np

from .backend import NUMPY, lookup

NO_KEY = -1


def _remaining(ops, lengths):
    """For each token position: how many tokens its segment has from there on (itself included)."""
    ends = lengths.cumsum(0)
    total = int(ends[-1]) if len(ends) else 0
    return ops.repeat(ends, lengths) - ops.arange(total)


class ReferenceNgrams:
    """The n-grams of every reference of every segment, ready to clip many hypotheses against.

    ``streams`` holds one (ids, lengths) pair per reference stream; all streams have
    the same number of segments, and a missing reference is a segment of length 0.
    """

    def __init__(self, streams: list, vocab_size: int, max_order: int, ops=NUMPY):
        self.ops = ops
        self.max_order = max_order
        self.vocab_size = max(vocab_size, 1)
        self.n_segments = len(streams[0][1])
        ids = ops.concat([stream_ids for stream_ids, _ in streams])
        lengths = ops.concat([stream_lengths for _, stream_lengths in streams])
        remaining = _remaining(ops, lengths)
        # Segment and stream of every token position.
        n_streams = len(streams)
        row = ops.arange(n_streams * self.n_segments)
        segment = ops.repeat(row % self.n_segments, lengths)
        stream = ops.repeat(row // self.n_segments, lengths)

        self.pair_tables: list = []  # order n >= 2: sorted (prefix key, last id) pairs
        self.clip_keys: list[np.ndarray] = []  # per order: sorted segment * n_keys + key
        self.clip_max: list[np.ndarray] = []  # per order: max count in a single reference
        self.n_keys: list[int] = []
        keys = ids
        for order in range(1, max_order + 1):
            if order > 1:
                start = ops.nonzero(remaining >= order)
                pairs = keys[start] * self.vocab_size + ids[start + order - 1]
                table, rank = ops.unique_inverse(pairs)
                keys = ops.full(len(ids), NO_KEY)
                keys[start] = rank
                self.pair_tables.append(table)
            n_keys = self.vocab_size if order == 1 else len(self.pair_tables[-1])
            start = ops.nonzero(keys >= 0)
            span = self.n_segments * max(n_keys, 1)
            segment_keys = segment[start] * n_keys + keys[start]
            unique, counts = ops.unique_counts(stream[start] * span + segment_keys)
            if n_streams == 1:
                clip_keys, clip_max = unique, counts
            else:
                clip_keys, clip_max = ops.group_max(unique % span, counts)
            self.n_keys.append(n_keys)
            self.clip_keys.append(clip_keys)
            self.clip_max.append(clip_max)

    def hypothesis_keys(self, ids, lengths) -> list:
        """Per order, the key of the n-gram starting at each position (``NO_KEY``: none or unseen)."""
        ops = self.ops
        remaining = _remaining(ops, lengths)
        known = (ids >= 0) & (ids < self.vocab_size)
        keys = ids.clone() if hasattr(ids, "clone") else ids.copy()
        keys[~known] = NO_KEY
        all_keys = [keys]
        for order in range(2, self.max_order + 1):
            start = ops.nonzero(remaining >= order)
            prefix, last = keys[start], ids[start + order - 1]
            ok = (prefix >= 0) & known[start + order - 1]
            start = start[ok]
            index, found = lookup(ops, self.pair_tables[order - 2], prefix[ok] * self.vocab_size + last[ok])
            keys = ops.full(len(ids), NO_KEY)
            keys[start[found]] = index[found]
            all_keys.append(keys)
        return all_keys

    def matches(self, ids, lengths) -> np.ndarray:
        """Clipped n-gram matches as a NumPy array of shape (segments, max_order), for hypotheses
        aligned with the references."""
        if len(lengths) != self.n_segments:
            raise ValueError(f"{len(lengths)} hypotheses for {self.n_segments} reference segments")
        ops = self.ops
        segment = ops.repeat(ops.arange(self.n_segments), lengths)
        columns = []
        for order, keys in enumerate(self.hypothesis_keys(ids, lengths)):
            start = ops.nonzero(keys >= 0)
            n_keys = self.n_keys[order]
            unique, counts = ops.unique_counts(segment[start] * n_keys + keys[start])
            index, found = lookup(ops, self.clip_keys[order], unique)
            clip_max = self.clip_max[order][index[found]]
            clipped = ops.minimum(counts[found], clip_max)
            columns.append(ops.to_numpy(ops.group_sum(unique[found] // n_keys, clipped, self.n_segments)))
        return np.stack(columns, axis=1).astype(np.int64).reshape(self.n_segments, self.max_order)


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
