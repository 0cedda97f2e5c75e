"""Per-segment clipped n-gram matches for chrF, for every segment and order at once.

Every symbol position becomes one sortable key: its segment, then the next K symbols (0 past the
segment's end), packed into as few 63-bit words as fit. Sorting puts the equal n-grams of a segment
side by side for every order n <= K at once, since they share the key's leading fields. References are
sorted and counted once; a hypothesis' n-gram finds its reference group next to where its key would
be inserted among the reference keys.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .symbols import Characters, Words, running_type


class KeyLayout:
    """Fields of a key (segment, symbols 1..K, tag), high to low, packed greedily into 63-bit words."""

    def __init__(self, n_segments: int, n_symbols: int, order: int, n_tags: int):
        symbol = (n_symbols + 1).bit_length()
        widths = [(n_segments - 1).bit_length()] + [symbol] * order + [(n_tags - 1).bit_length()]
        words: list[list[int]] = [[]]
        for width in widths:
            if sum(words[-1]) + width > 63:
                words.append([])
            words[-1].append(width)
        self.order, self.n_words = order, len(words)
        self.places = [(w, sum(fields[i + 1 :])) for w, fields in enumerate(words) for i in range(len(fields))]
        self.masks = [(1 << width) - 1 for width in widths]
        # For order n: (word, shift) pairs whose higher bits hold the fields 0..n (segment, first n symbols).
        self.prefixes = {n: self._prefix(n) for n in range(1, order + 1)}

    def _prefix(self, n: int) -> list[tuple[int, int]]:
        lowest: dict[int, int] = {}
        for word, shift in self.places[: n + 1]:
            lowest[word] = min(shift, lowest.get(word, shift))
        return list(lowest.items())

    def pack(self, ids: np.ndarray, lengths: np.ndarray, tag: int, pad: int) -> np.ndarray:
        """Keys (words x positions) of every symbol position of every segment; ``pad`` past a segment's end."""
        segment = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        at = np.arange(len(ids)) + segment * (self.order - 1)
        padded = np.full(len(ids) + len(lengths) * (self.order - 1), pad, dtype=np.int64)
        padded[at] = ids
        # The key of every padded position from shifted slices, then the keys of the symbol positions.
        size = len(padded) - self.order + 1 if len(ids) else 0
        keys = np.zeros((self.n_words, size), dtype=np.int64)
        for k, (word, shift) in enumerate(self.places[1 : self.order + 1]):
            keys[word] |= padded[k : k + size] << shift
        keys = keys[:, at]
        for (word, shift), column in ((self.places[0], segment), (self.places[-1], tag)):
            keys[word] |= column << shift
        return keys

    def field(self, keys: np.ndarray, index: int) -> np.ndarray:
        """Field ``index`` (0: segment, 1..K: symbols, K + 1: tag) of every key."""
        word, shift = self.places[index]
        return (keys[word] >> shift) & self.masks[index]

    def group_starts(self, steps: np.ndarray, n: int) -> np.ndarray:
        """True where an order-n group (same segment and n-gram) starts in sorted keys, from ``steps``
        (the xor of neighbouring keys): where a neighbour differs in the fields 0..n."""
        starts = np.ones(steps.shape[1] + 1, dtype=bool)
        (word, shift), *others = self.prefixes[n]
        np.greater_equal(steps[word], 1 << shift, out=starts[1:])
        for word, shift in others:
            starts[1:] |= steps[word] >= (1 << shift)
        return starts

    def shares_prefix(self, xor: np.ndarray, n: int) -> np.ndarray:
        """Whether keys whose xor (per word) is ``xor`` share the fields 0..n (segment and first n symbols)."""
        (word, shift), *others = self.prefixes[n]
        same = xor[word] < (1 << shift)
        for word, shift in others:
            same &= xor[word] < (1 << shift)
        return same


def _as_bytes(keys: np.ndarray) -> np.ndarray:
    """Multi-word keys as fixed-width big-endian byte strings, which sort like the keys."""
    return np.ascontiguousarray(keys.T.astype(">i8")).view(f"S{8 * len(keys)}").ravel()


def sort_keys(keys: np.ndarray) -> np.ndarray:
    """Keys (words x positions) in ascending order, words compared first to last."""
    if len(keys) == 1:
        return np.sort(keys, axis=1)
    ordered = np.sort(_as_bytes(keys))
    return np.frombuffer(ordered.tobytes(), dtype=">i8").reshape(-1, len(keys)).T.astype(np.int64)


def insertion_points(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Where each key would go in the sorted ``table``."""
    if len(keys) == 1:
        return np.searchsorted(table[0], keys[0])
    return np.searchsorted(_as_bytes(table), _as_bytes(keys))


def _nearer(right: np.ndarray, left: np.ndarray) -> np.ndarray:
    """Whether xor ``right`` is at most xor ``left`` (words in order): its keys share at least as long a prefix."""
    nearer = right[-1] <= left[-1]
    for word in reversed(range(len(right) - 1)):
        nearer = (right[word] < left[word]) | ((right[word] == left[word]) & nearer)
    return nearer


class NgramCounter:
    """Reference n-grams of orders 1..K over symbol ids, counted once per stream, clipped against hypotheses.

    Past a segment's end reference keys hold 0 and hypothesis keys the unknown symbol, so that an n-gram
    running past the end matches nothing."""

    def __init__(self, streams: list[tuple[np.ndarray, np.ndarray]], n_symbols: int, order: int):
        self.n_segments, self.n_streams = len(streams[0][1]), len(streams)
        self.layout = KeyLayout(self.n_segments, n_symbols, order, self.n_streams)
        self.unknown = n_symbols + 1
        packed = [self.layout.pack(ids, lengths, tag, 0) for tag, (ids, lengths) in enumerate(streams)]
        self.keys = sort_keys(np.concatenate(packed, axis=1))
        tags = self.layout.field(self.keys, order + 1)
        # Running count of each stream's keys, to count a run of keys per stream by a subtraction.
        counter = running_type(len(tags))
        running = [np.concatenate([[0], np.cumsum(tags == tag, dtype=counter)]) for tag in range(self.n_streams)]
        steps = self.keys[:, 1:] ^ self.keys[:, :-1]
        # Per order: each reference key's group (same segment and n-gram) numbered from 1, and per stream
        # each group's count after a 0 for "no group" (group 0).
        self.groups, self.counts = [], []
        for n in range(1, order + 1):
            flags = self.layout.group_starts(steps, n)[: self.keys.shape[1]]
            bounds = np.append(np.flatnonzero(flags), len(flags))
            self.groups.append(np.cumsum(flags, dtype=counter))
            self.counts.append([np.diff(counts[bounds], prepend=0) for counts in running])

    def matches(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Clipped matches (streams x segments x orders) of hypothesis symbol ids with each reference stream."""
        layout = self.layout
        result = np.zeros((self.n_streams, self.n_segments, layout.order), dtype=np.int64)
        keys = sort_keys(layout.pack(ids, lengths, 0, self.unknown))
        if keys.shape[1] == 0 or self.keys.shape[1] == 0:
            return result
        nearest, xor = self._nearest(keys)
        segment = layout.field(keys, 0)
        steps = keys[:, 1:] ^ keys[:, :-1]
        for n in range(1, layout.order + 1):
            starts = np.flatnonzero(layout.group_starts(steps, n))
            sizes = np.diff(starts, append=keys.shape[1])
            group = np.where(layout.shares_prefix(xor[:, starts], n), self.groups[n - 1][nearest[starts]], 0)
            # Groups come segment by segment: a segment's sum is a difference of running sums.
            bounds = np.searchsorted(segment[starts], np.arange(self.n_segments + 1))
            running = np.zeros(len(starts) + 1, dtype=running_type(keys.shape[1]))
            for stream, counts in enumerate(self.counts[n - 1]):
                np.minimum(sizes, counts[group], out=running[1:])
                np.cumsum(running, out=running)
                result[stream, :, n - 1] = np.diff(running[bounds])
        return result

    def _nearest(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each sorted hypothesis key, the reference key sharing the longest prefix with it (the one
        just after or just before where it would be inserted) and the xor of the two."""
        after = np.minimum(insertion_points(self.keys, keys), self.keys.shape[1] - 1)
        before = np.maximum(after - 1, 0)
        right, left = keys ^ self.keys[:, after], keys ^ self.keys[:, before]
        nearer = _nearer(right, left)
        return np.where(nearer, after, before), np.where(nearer, right, left)


def ngram_totals(lengths: np.ndarray, order: int) -> np.ndarray:
    """n-grams of each order 1..order in sequences of ``lengths`` symbols (lengths x orders)."""
    return np.maximum(lengths[..., None] - np.arange(order), 0)


class SymbolNgrams:
    """One kind of symbol's reference n-grams (orders 1..order), ready to give chrF statistics for hypotheses."""

    def __init__(self, streams: list[list[str]], symbols: Characters | Words, order: int):
        split: list[tuple[Any, np.ndarray]] = [symbols.split(lines) for lines in streams]  # code points or words
        self.symbols, self.order = symbols, order
        self.vocabulary = symbols.vocabulary([items for items, _ in split])
        encoded = [self.vocabulary.encode(items, lengths) for items, lengths in split]
        self.lengths = np.stack([lengths for _, lengths in encoded])
        self.counter = NgramCounter(encoded, self.vocabulary.size, order)

    def statistics(self, lines: list[str]) -> np.ndarray:
        """Per stream, segment and order: [hypothesis n-grams, reference n-grams, clipped matches].

        As sacrebleu, hypothesis n-grams count as 0 where the reference has none of that order."""
        ids, lengths = self.vocabulary.encode(*self.symbols.split(lines))
        matches = self.counter.matches(ids, lengths)
        references = ngram_totals(self.lengths, self.order)
        hypotheses = ngram_totals(lengths, self.order) * (references > 0)
        return np.stack([hypotheses, references, matches], axis=-1)
