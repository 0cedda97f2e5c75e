"""NIST's counts for a whole corpus at once: n-gram ids, reference counts, information weights, clipped matches.

Every n-gram gets an id order by order: the id of an n-gram is the index of (id of its first n-1
tokens, its last token) among the sorted distinct pairs of the references, so one ``np.unique``
per order numbers all reference n-grams and a ``searchsorted`` finds a hypothesis's. Numbered
within groups (a unigram's "prefix" is its segment), the same walk numbers each segment's distinct
n-grams: a hypothesis finds its (segment, n-gram) pairs directly, in the small part of each table
its segment holds, and counting is a ``bincount`` over those pairs, never a Counter per segment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine.backend import NUMPY

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

    def prefixes(self) -> np.ndarray:
        """Each n-gram's prefix (its first n-1 tokens) as a global id; -1 for unigrams."""
        parts = [np.full(len(self.keys[0]), -1, dtype=np.int64)]
        for n in range(2, len(self.keys) + 1):
            parts.append(self.keys[n - 1] // self.vocab + self.offsets[n - 2])
        return np.concatenate(parts)


def occurrences(
    ids: np.ndarray,
    lengths: np.ndarray,
    max_order: int,
    ngrams: Ngrams | None = None,
    groups: np.ndarray | None = None,
):
    """The n-gram occurrences of token ids (lines of ``lengths``): per order, (start positions,
    global ids). Without ``ngrams`` (references): the n-grams are numbered here and returned;
    with it (hypotheses): ids looked up, -1 for n-grams (or tokens, id < 0) the references lack.
    ``groups`` (the group of each line, >= 0): n-grams of different groups numbered apart."""
    positions = np.arange(len(ids))
    remaining = np.repeat(np.cumsum(lengths), lengths) - positions  # tokens to the line's end
    vocab = ngrams.vocab if ngrams is not None else int(ids.max(initial=-1)) + 1
    keys_by_order: list[np.ndarray] = []
    found: list[tuple[np.ndarray, np.ndarray]] = []
    # Local id of the (n-1)-gram at each position; before unigrams, the position's group.
    prefix = np.zeros(len(ids), dtype=np.int64) if groups is None else np.repeat(groups, lengths)
    offset = 0
    for n in range(1, max_order + 1):
        starts = np.flatnonzero(remaining > n - 1) if n > 1 else positions
        last = ids[starts + n - 1]
        before = prefix[starts]
        known = (last >= 0) & (before >= 0)
        key = before * vocab + last
        if ngrams is None:
            distinct, local = unique_inverse(key)
            keys_by_order.append(distinct)
        else:  # only n-grams whose first n-1 tokens the references hold are looked up
            distinct, local = ngrams.keys[n - 1], np.full(len(key), -1, dtype=np.int64)
            asked = np.flatnonzero(known)
            wanted = key[asked]
            at = np.minimum(np.searchsorted(distinct, wanted), len(distinct) - 1)
            hit = distinct[at] == wanted if len(distinct) else np.zeros(len(asked), dtype=bool)
            local[asked[hit]] = at[hit]
        prefix = np.full(len(ids), -1, dtype=np.int64)
        prefix[starts] = local
        found.append((starts, np.where(local >= 0, local + offset, -1)))
        offset += len(distinct)
    if ngrams is None:
        sizes = [len(k) for k in keys_by_order]
        ngrams = Ngrams(keys_by_order, np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), vocab)
    return found, ngrams


def unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` of non-negative int64 keys, by one sort of the keys
    packed with their positions (several times faster than the argsort ``np.unique`` runs) when
    both fit in 63 bits."""
    bits = max(len(keys) - 1, 1).bit_length()
    if len(keys) == 0 or int(keys.max()).bit_length() + bits > 63:
        return np.unique(keys, return_inverse=True)
    packed = keys << bits
    packed |= np.arange(len(keys))
    packed.sort()
    ordered = packed >> bits
    first = np.empty(len(keys), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[packed & ((1 << bits) - 1)] = NUMPY.group_numbers(first[1:])
    return ordered[first], inverse


def line_of(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The line (index) of each token position."""
    return np.repeat(np.arange(len(lengths)), lengths)[starts]


def pair_counts(rows: np.ndarray, cols: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (row, col) pairs, sorted, with their number of occurrences."""
    packed, counts = np.unique(rows * width + cols, return_counts=True)
    return packed // width, packed % width, counts
