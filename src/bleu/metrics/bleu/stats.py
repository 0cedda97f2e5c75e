"""``Stats``: BLEU's sufficient statistics per segment, the seam every feature is built on.

A corpus score is the BLEU formula over the column sums, a sentence score is the
formula over one row; shards merge with ``+`` and resamples are row selections.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np

_FIELDS = ("matches", "totals", "hyp_len", "ref_len")


@dataclass(frozen=True, eq=False)
class Stats:
    """Per-segment clipped n-gram ``matches`` and hypothesis n-gram ``totals`` (segments x orders),
    hypothesis lengths ``hyp_len`` and closest reference lengths ``ref_len`` (segments)."""

    matches: np.ndarray
    totals: np.ndarray
    hyp_len: np.ndarray
    ref_len: np.ndarray

    def __post_init__(self) -> None:
        arrays = [np.asarray(getattr(self, name), dtype=np.int64) for name in _FIELDS]
        matches, totals, hyp_len, ref_len = arrays
        if matches.ndim != 2 or matches.shape != totals.shape:
            raise ValueError(f"matches {matches.shape} and totals {totals.shape} must be equal 2-D shapes")
        if hyp_len.shape != (len(matches),) or ref_len.shape != (len(matches),):
            raise ValueError("hyp_len and ref_len need one entry per segment")
        if (matches > totals).any() or (arrays[0] < 0).any() or (hyp_len < 0).any() or (ref_len < 0).any():
            raise ValueError("statistics must be non-negative with matches <= totals")
        for name, array in zip(_FIELDS, arrays):
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @classmethod
    def empty(cls, max_order: int = 4) -> "Stats":
        """Statistics of no segments."""
        none = np.zeros((0, max_order), dtype=np.int64)
        return cls(none, none, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))

    @property
    def max_order(self) -> int:
        return self.matches.shape[1]

    def __len__(self) -> int:
        return len(self.matches)

    def __getitem__(self, index) -> "Stats":
        """Segments selected by an int, a slice, an index array or a boolean mask."""
        if isinstance(index, (int, np.integer)):
            index = slice(index, index + 1 if index != -1 else None)
        return Stats(*(getattr(self, name)[index] for name in _FIELDS))

    def __add__(self, other: "Stats") -> "Stats":
        """The segments of both, self's first: how shards of one corpus merge."""
        if not isinstance(other, Stats):
            return NotImplemented
        if other.max_order != self.max_order:
            raise ValueError(f"cannot merge max order {self.max_order} with {other.max_order}")
        return Stats(*(np.concatenate([getattr(self, f), getattr(other, f)]) for f in _FIELDS))

    def __radd__(self, other) -> "Stats":
        if isinstance(other, int) and other == 0:  # lets sum(list_of_stats) work
            return self
        return NotImplemented

    def __eq__(self, other) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in _FIELDS)

    def total(self) -> "Stats":
        """One row: the corpus-level sums."""
        return Stats(*(getattr(self, f).sum(axis=0, keepdims=True) for f in _FIELDS))

    def to_matrix(self) -> np.ndarray:
        """One row per segment in sacrebleu's layout: hyp_len, ref_len, matches per order, totals per order."""
        return np.column_stack([self.hyp_len, self.ref_len, self.matches, self.totals])

    @classmethod
    def from_matrix(cls, matrix: np.ndarray) -> "Stats":
        """The inverse of ``to_matrix``."""
        order = (matrix.shape[1] - 2) // 2
        return cls(matrix[:, 2 : 2 + order], matrix[:, 2 + order :], matrix[:, 0], matrix[:, 1])

    def to_dict(self) -> dict:
        """Plain lists, for JSON."""
        return {name: getattr(self, name).tolist() for name in _FIELDS} | {"max_order": self.max_order}

    @classmethod
    def from_dict(cls, data: dict) -> "Stats":
        order = int(data.get("max_order", 4))
        shape = (-1, order)
        return cls(
            np.asarray(data["matches"], dtype=np.int64).reshape(shape),
            np.asarray(data["totals"], dtype=np.int64).reshape(shape),
            data["hyp_len"],
            data["ref_len"],
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "Stats":
        return cls.from_dict(json.loads(text))

    def save(self, path: str | os.PathLike) -> None:
        """Write a NumPy ``.npz`` file."""
        with open(path, "wb") as handle:
            np.savez(handle, **{name: getattr(self, name) for name in _FIELDS})

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Stats":
        with np.load(path) as data:
            return cls(*(data[name] for name in _FIELDS))
