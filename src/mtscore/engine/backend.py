"""The few array operations the counting stage needs, for NumPy and for torch tensors.

``count`` is written once against these; torch tensors are counted on their own device
(a GPU inside a training loop), NumPy arrays on the CPU. torch is imported only when a
tensor is given.
"""

from __future__ import annotations

import numpy as np

from ..threads import THREADS, map_threads

_SORT_QUERIES_FROM = 1 << 16  # below this, a direct search is as fast


class NumpyOps:
    """Counting on NumPy int64 arrays."""

    chunk_tokens = 1 << 18  # a chunk's arrays stay in cache
    threads = THREADS

    def __reduce__(self) -> str:
        """Unpickled as the module's one ``NUMPY`` (callers tell NumPy from torch by ``is NUMPY``)."""
        return "NUMPY"

    def asarray(self, values) -> np.ndarray:
        return np.asarray(values, dtype=np.int64)

    def arange(self, n: int) -> np.ndarray:
        return np.arange(n, dtype=np.int64)

    def full(self, n: int, value: int) -> np.ndarray:
        return np.full(n, value, dtype=np.int64)

    def concat(self, arrays: list) -> np.ndarray:
        return np.concatenate(arrays)

    def flags(self, n: int) -> np.ndarray:
        return np.zeros(n, dtype=bool)

    def repeat(self, values, counts) -> np.ndarray:
        return np.repeat(values, counts)

    def nonzero(self, mask) -> np.ndarray:
        return np.flatnonzero(mask)

    def unique_inverse(self, values) -> tuple[np.ndarray, np.ndarray]:
        """``np.unique(values, return_inverse=True)``; non-negative integers by ``unique_inverse``'s
        packed sort (it falls back to ``np.unique`` where keys and positions need more than 63 bits)."""
        if values.dtype.kind == "i" and len(values) and int(values.min()) >= 0:
            return unique_inverse(values.astype(np.int64, copy=False))
        unique, inverse = np.unique(values, return_inverse=True)
        return unique, inverse.reshape(-1)

    def sort(self, values) -> np.ndarray:
        values.sort()  # in place: callers pass arrays they own
        return values

    def searchsorted(self, table, values, ascending: bool = False) -> np.ndarray:
        """Positions of ``values`` in the sorted ``table``. Many queries are searched in sorted
        order and put back: each search then starts near the last one, in cache (several times
        faster on tables of millions); ``ascending``: the values are sorted already."""
        if ascending or len(values) < _SORT_QUERIES_FROM or len(table) < _SORT_QUERIES_FROM:
            return np.searchsorted(table, values)
        order = np.argsort(values)
        positions = np.empty(len(values), dtype=np.intp)
        positions[order] = np.searchsorted(table, values[order])
        return positions

    def minimum(self, a, b) -> np.ndarray:
        return np.minimum(a, b)

    def maximum(self, a, b) -> np.ndarray:
        return np.maximum(a, b)

    def map_chunks(self, function, chunks: list) -> list:
        """``function`` over ``chunks``, on a few threads when there are several."""
        return map_threads(function, chunks, self.threads)

    def group_numbers(self, new) -> np.ndarray:
        """Each item's group number (0, 1, ...), from flags that say where item i+1 starts a new group."""
        numbers = np.empty(len(new) + 1, dtype=np.int64)
        numbers[0] = 0
        np.cumsum(new, out=numbers[1:])
        return numbers

    def group_sum(self, groups, values, n_groups: int) -> np.ndarray:
        """Sum of integer ``values`` per group index in 0..n_groups-1 (``np.add.at``: in integers,
        and faster than a weighted ``bincount``)."""
        sums = np.zeros(n_groups, dtype=np.int64)
        np.add.at(sums, groups, values)
        return sums

    def group_count(self, groups, n_groups: int) -> np.ndarray:
        """How many items each group index in 0..n_groups-1 has."""
        return np.bincount(groups, minlength=n_groups)

    def to_numpy(self, values) -> np.ndarray:
        return np.asarray(values)


class TorchOps:
    """Counting on torch int64 tensors of one device."""

    chunk_tokens = 1 << 22  # larger chunks keep an accelerator busy
    threads = 1

    def __init__(self, device):
        import torch

        self.torch = torch
        self.device = device

    def asarray(self, values):
        return self.torch.as_tensor(values, dtype=self.torch.int64, device=self.device)

    def arange(self, n: int):
        return self.torch.arange(n, dtype=self.torch.int64, device=self.device)

    def full(self, n: int, value: int):
        return self.torch.full((n,), value, dtype=self.torch.int64, device=self.device)

    def concat(self, arrays: list):
        return self.torch.cat(arrays)

    def flags(self, n: int):
        return self.torch.zeros(n, dtype=self.torch.bool, device=self.device)

    def repeat(self, values, counts):
        return self.torch.repeat_interleave(values, counts)

    def nonzero(self, mask):
        return self.torch.nonzero(mask).reshape(-1)

    def unique_inverse(self, values):
        return self.torch.unique(values, sorted=True, return_inverse=True)

    def sort(self, values):
        return self.torch.sort(values).values

    def searchsorted(self, table, values, ascending: bool = False):
        return self.torch.searchsorted(table, values)

    def minimum(self, a, b):
        return self.torch.minimum(a, b)

    def maximum(self, a, b):
        return self.torch.maximum(a, b)

    def map_chunks(self, function, chunks: list) -> list:
        return [function(chunk) for chunk in chunks]

    def group_numbers(self, new):
        return self.torch.cat([self.arange(1), new.cumsum(0)])

    def group_sum(self, groups, values, n_groups: int):
        result = self.torch.zeros(n_groups, dtype=self.torch.int64, device=self.device)
        return result.index_add_(0, groups, values.to(self.torch.int64))

    def group_count(self, groups, n_groups: int):
        return self.torch.bincount(groups, minlength=n_groups)

    def to_numpy(self, values) -> np.ndarray:
        return values.detach().cpu().numpy()


NUMPY = NumpyOps()
_DENSE_KEYS = 4  # ``unique_inverse`` counts keys below this many per key instead of sorting them


def unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` of non-negative int64 keys, by one sort of the keys
    packed with their positions (several times faster than the argsort ``np.unique`` runs) when
    both fit in 63 bits; without a sort when the keys are few (below 4 per key)."""
    bits = max(len(keys) - 1, 1).bit_length()
    largest = int(keys.max(initial=-1))
    if 0 <= largest < _DENSE_KEYS * len(keys):  # a table of the keys 0..largest, which are there
        there = np.bincount(keys, minlength=largest + 1) > 0
        rank = np.cumsum(there) - 1
        return np.flatnonzero(there), rank[keys]
    if len(keys) == 0 or largest.bit_length() + bits > 63:
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


def is_tensor(value) -> bool:
    """A torch tensor, recognised without importing torch."""
    return type(value).__module__.startswith("torch") and hasattr(value, "device")


def lookup(ops, table, values):
    """Index of each value in the sorted ``table`` and whether it is there."""
    index = ops.searchsorted(table, values)
    if len(table) == 0:
        return index, index < 0  # nothing is found
    index = index.clip(0, len(table) - 1)
    return index, table[index] == values
