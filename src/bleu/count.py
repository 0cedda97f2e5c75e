"""Vectorised n-gram counting and clipping over whole corpora of token ids.

An n-gram gets a dense integer key built order by order: the key of an n-gram is
the rank of the pair (key of its first n-1 tokens, id of its last token) among all
such pairs in the references. A hypothesis n-gram absent from the references gets
no key and cannot match. Counts per (segment, key) come from sorting, and the
clipped count is min(hypothesis count, max count in any single reference).
"""

from __future__ import annotations

import numpy as np

NO_KEY = -1


def _remaining(lengths: np.ndarray) -> np.ndarray:
    """For each token position: how many tokens its segment has from there on (itself included)."""
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    return np.repeat(ends, lengths) - np.arange(total, dtype=np.int64)


def _lookup(table: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each value in the sorted ``table`` and whether it is there."""
    index = np.searchsorted(table, values)
    if len(table) == 0:
        return index, np.zeros(len(values), dtype=bool)
    np.minimum(index, len(table) - 1, out=index)
    return index, table[index] == values


def _group_max(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ``keys`` (sorted) and the largest count each has."""
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    if len(keys) == 0:
        return keys, counts
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.maximum.reduceat(counts, starts)


class ReferenceNgrams:
    """The n-grams of every reference of every segment, ready to clip many hypotheses against.

    ``streams`` holds one (ids, lengths) pair per reference stream; all streams have
    the same number of segments, and a missing reference is a segment of length 0.
    """

    def __init__(self, streams: list[tuple[np.ndarray, np.ndarray]], vocab_size: int, max_order: int):
        self.max_order = max_order
        self.vocab_size = max(vocab_size, 1)
        self.n_segments = len(streams[0][1])
        ids = np.concatenate([stream_ids for stream_ids, _ in streams])
        lengths = np.concatenate([stream_lengths for _, stream_lengths in streams])
        remaining = _remaining(lengths)
        # Segment and stream of every token position.
        n_streams = len(streams)
        segment = np.repeat(np.tile(np.arange(self.n_segments), n_streams), lengths)
        stream = np.repeat(np.repeat(np.arange(n_streams), self.n_segments), lengths)

        self.pair_tables: list[np.ndarray] = []  # order n >= 2: sorted (prefix key, last id) pairs
        self.clip_keys: list[np.ndarray] = []  # per order: sorted segment * n_keys + key
        self.clip_max: list[np.ndarray] = []  # per order: max count in a single reference
        self.n_keys: list[int] = []
        keys = ids
        for order in range(1, max_order + 1):
            if order > 1:
                start = np.flatnonzero(remaining >= order)
                pairs = keys[start] * self.vocab_size + ids[start + order - 1]
                table, rank = np.unique(pairs, return_inverse=True)
                keys = np.full(len(ids), NO_KEY, dtype=np.int64)
                keys[start] = rank.reshape(-1)
                self.pair_tables.append(table)
            n_keys = self.vocab_size if order == 1 else len(self.pair_tables[-1])
            start = np.flatnonzero(keys >= 0)
            span = self.n_segments * max(n_keys, 1)
            segment_keys = segment[start] * n_keys + keys[start]
            unique, counts = np.unique(stream[start] * span + segment_keys, return_counts=True)
            if n_streams == 1:
                clip_keys, clip_max = unique, counts
            else:
                clip_keys, clip_max = _group_max(unique % span, counts)
            self.n_keys.append(n_keys)
            self.clip_keys.append(clip_keys)
            self.clip_max.append(clip_max)

    def hypothesis_keys(self, ids: np.ndarray, lengths: np.ndarray) -> list[np.ndarray]:
        """Per order, the key of the n-gram starting at each position (``NO_KEY``: none or unseen)."""
        remaining = _remaining(lengths)
        known = (ids >= 0) & (ids < self.vocab_size)
        keys = np.where(known, ids, NO_KEY)
        all_keys = [keys]
        for order in range(2, self.max_order + 1):
            start = np.flatnonzero(remaining >= order)
            prefix, last = keys[start], ids[start + order - 1]
            ok = (prefix >= 0) & known[start + order - 1]
            start = start[ok]
            index, found = _lookup(self.pair_tables[order - 2], prefix[ok] * self.vocab_size + last[ok])
            keys = np.full(len(ids), NO_KEY, dtype=np.int64)
            keys[start[found]] = index[found]
            all_keys.append(keys)
        return all_keys

    def matches(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Clipped n-gram matches, shape (segments, max_order), for hypotheses aligned with the references."""
        if len(lengths) != self.n_segments:
            raise ValueError(f"{len(lengths)} hypotheses for {self.n_segments} reference segments")
        segment = np.repeat(np.arange(self.n_segments), lengths)
        result = np.zeros((self.n_segments, self.max_order), dtype=np.int64)
        for order, keys in enumerate(self.hypothesis_keys(ids, lengths)):
            start = np.flatnonzero(keys >= 0)
            n_keys = self.n_keys[order]
            unique, counts = np.unique(segment[start] * n_keys + keys[start], return_counts=True)
            index, found = _lookup(self.clip_keys[order], unique)
            clipped = np.minimum(counts[found], self.clip_max[order][index[found]])
            result[:, order] = np.bincount(
                unique[found] // n_keys, weights=clipped, minlength=self.n_segments
            ).astype(np.int64)
        return result


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
