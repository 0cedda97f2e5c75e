"""NIST's counts for a whole corpus at once: n-gram ids, reference counts, information weights, clipped matches.

Each segment's distinct n-grams (all its references together) are numbered order by order: an
n-gram's id is the index of (its first n-1 tokens' id, its last token) among the sorted distinct
such pairs, a unigram's "prefix" being its segment, so one sort per order (``unique_inverse``)
numbers them all. The corpus's n-grams, whose counts give the information weights, are numbered
again from those (``Ngrams.ungrouped``). A hypothesis n-gram is looked up in its segment's n-grams
only when its first n-1 tokens were found there, and only among their continuations; counting is a
``bincount`` over the (segment, n-gram) pairs found, never a Counter per segment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine import ragged
from ...engine.backend import unique_inverse

LOG2 = np.log(2.0)


@dataclass
class Ngrams:
    """The reference n-grams of orders 1..max_order: ``keys[n-1]`` sorted (prefix id * V + last
    token), global ids ``offsets[n-1] + index``."""

    keys: list[np.ndarray]
    offsets: np.ndarray
    vocab: int

    @property
    def size(self) -> int:
        return int(self.offsets[-1])

    def order_of(self, ids: np.ndarray) -> np.ndarray:
        """The order (1..max_order) of each global n-gram id."""
        return np.searchsorted(self.offsets, ids, side="right")

    def group_ranks(self, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
        """Numbered with groups (``occurrences``): each id's rank in (group, order, id) order, by
        counting, no sort, and its group. An order's ids ascend by group (its keys lead with its
        prefix's, the first with its group), so an id's rank is where its (group, order) run
        starts plus its place in that run."""
        groups: list[np.ndarray] = []
        for n, keys in enumerate(self.keys):
            before = keys // self.vocab
            groups.append(before if n == 0 else groups[-1][before])
        sizes = np.stack([np.bincount(g, minlength=n_groups) for g in groups], axis=1)  # groups x orders
        runs = (np.cumsum(sizes) - sizes.ravel()).reshape(sizes.shape)  # where each run starts
        firsts = np.cumsum(sizes, axis=0) - sizes  # where each group starts within its order
        ranks = [runs[g, n] + np.arange(len(g)) - firsts[g, n] for n, g in enumerate(groups)]
        return np.concatenate(ranks), np.concatenate(groups)

    def ungrouped(self) -> tuple[Ngrams, np.ndarray]:
        """Numbered with groups: the same n-grams numbered across groups, as ``occurrences`` without
        groups would number them, one sort per order of the distinct ones; and each id's id there."""
        keys_by_order: list[np.ndarray] = []
        ids: list[np.ndarray] = []
        offset = 0
        local = np.zeros(0, dtype=np.int64)  # the previous order's ids, within that order
        for n, keys in enumerate(self.keys):
            before = local[keys // self.vocab] if n else np.zeros(len(keys), dtype=np.int64)
            distinct, local = unique_inverse(before * self.vocab + keys % self.vocab)
            keys_by_order.append(distinct)
            ids.append(local + offset)
            offset += len(distinct)
        sizes = [len(k) for k in keys_by_order]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return Ngrams(keys_by_order, offsets, self.vocab), np.concatenate(ids)

    def continuations(self) -> list[np.ndarray]:
        """Per order from 2 on, where each (n-1)-gram's continuations start among the n-grams (an
        order's keys ascend by their prefix's id), and where the last ones end."""
        runs = []
        for n in range(1, len(self.keys)):
            sizes = np.bincount(self.keys[n] // self.vocab, minlength=len(self.keys[n - 1]))
            runs.append(np.concatenate([[0], np.cumsum(sizes)]))
        return runs

    def prefixes(self) -> np.ndarray:
        """Each n-gram's prefix (its first n-1 tokens) as a global id; -1 for unigrams."""
        parts = [np.full(len(self.keys[0]), -1, dtype=np.int64)]
        for n in range(2, len(self.keys) + 1):
            parts.append(self.keys[n - 1] // self.vocab + self.offsets[n - 2])
        return np.concatenate(parts)


def occurrences(ids: np.ndarray, lengths: np.ndarray, max_order: int, groups: np.ndarray):
    """The n-grams of reference token ids (lines of ``lengths``), numbered here: per order, (start
    positions, ids), and the numbering (``Ngrams``). ``groups`` (the group of each line, >= 0):
    n-grams of different groups numbered apart."""
    positions = np.arange(len(ids))
    remaining = ragged.remaining(lengths)  # tokens to the line's end
    vocab = int(ids.max(initial=-1)) + 1
    keys_by_order: list[np.ndarray] = []
    found: list[tuple[np.ndarray, np.ndarray]] = []
    # Local id of the (n-1)-gram at each position; before unigrams, the position's group.
    prefix = np.repeat(groups, lengths)
    offset = 0
    for n in range(1, max_order + 1):
        starts = np.flatnonzero(remaining > n - 1) if n > 1 else positions
        distinct, local = unique_inverse(prefix[starts] * vocab + ids[starts + n - 1])
        keys_by_order.append(distinct)
        prefix = np.full(len(ids), -1, dtype=np.int64)
        prefix[starts] = local
        found.append((starts, local + offset))
        offset += len(distinct)
    sizes = [len(k) for k in keys_by_order]
    return found, Ngrams(keys_by_order, np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), vocab)


def held_occurrences(ids: np.ndarray, lengths: np.ndarray, ngrams: Ngrams, groups: np.ndarray, runs: list):
    """Per order, (start positions, ids) of the n-grams of token ids (lines of ``lengths``; id < 0:
    unknown) that ``ngrams`` (numbered with ``groups``) holds, in position order. Only n-grams
    whose first n-1 tokens it holds are looked up, so each order looks up fewer; from bigrams on,
    only among the continuations of their first n-1 tokens (``runs``: ``ngrams.continuations()``)."""
    ends = np.repeat(np.cumsum(lengths), lengths)  # each position's line end
    starts = np.flatnonzero(ids >= 0)
    local = np.repeat(groups, lengths)[starts]  # before unigrams: the line's group
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for n in range(1, len(ngrams.keys) + 1):
        distinct = ngrams.keys[n - 1]
        if n > 1:
            room = starts + n - 1 < ends[starts]
            starts, local = starts[room], local[room]
            last = ids[starts + n - 1]
            known = last >= 0
            starts, local, last = starts[known], local[known], last[known]
            key = local * ngrams.vocab + last
            first = runs[n - 2][local]
            at = _lower_bound(distinct, key, first, runs[n - 2][local + 1] - first)
        else:
            key = local * ngrams.vocab + ids[starts]
            at = np.searchsorted(distinct, key)
        at = np.minimum(at, max(len(distinct) - 1, 0))
        hit = distinct[at] == key if len(distinct) else np.zeros(len(key), dtype=bool)
        starts, local = starts[hit], at[hit]
        found.append((starts, local + ngrams.offsets[n - 1]))
    return found


def _lower_bound(table: np.ndarray, keys: np.ndarray, first: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Where each key would go in the sorted ``table``, searched only in ``first`` .. ``first +
    size`` (runs of a few entries: a few vectorised halvings beat ``searchsorted``'s long ones)."""
    at = first.copy()
    for _ in range(int(size.max(initial=0)).bit_length()):
        half = size >> 1
        beyond = (size > 0) & (table[np.minimum(at + half, len(table) - 1)] < keys)
        at += beyond * (half + 1)
        size = np.where(beyond, size - half - 1, half)
    return at


def position_lines(lengths: np.ndarray) -> np.ndarray:
    """The line (index) of each token position."""
    return ragged.run_ids(lengths)
