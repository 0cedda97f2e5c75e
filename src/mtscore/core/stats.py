"""``Statistics``: additive per-segment sufficient statistics, the seam every feature is built on.

One row per segment, one column per statistic. A corpus score is a function of the column sums,
a sentence score of one row; shards merge with ``+``, resamples are row selections, and a file
of statistics scores later exactly as the text would have.
"""

from __future__ import annotations

import json
import os
from typing import Any, TypeVar

import numpy as np

Self = TypeVar("Self", bound="Statistics")


class Statistics:
    """A read-only (segments x columns) matrix of one metric's statistics (int64 or float64)."""

    def __init__(self, matrix: Any):
        matrix = np.asarray(matrix)
        matrix = matrix.astype(np.float64 if matrix.dtype.kind == "f" else np.int64, copy=False).view()
        if matrix.ndim != 2:
            raise ValueError(f"statistics must be a (segments x columns) matrix, got shape {matrix.shape}")
        matrix.setflags(write=False)
        self.matrix = matrix

    def _like(self: Self, matrix: np.ndarray) -> Self:
        """Statistics of the same kind holding ``matrix`` (subclasses check their own columns)."""
        return type(self).from_matrix(matrix)

    @classmethod
    def from_matrix(cls: type[Self], matrix: Any) -> Self:
        """Statistics holding ``matrix`` (segments x columns), checked as the class checks them."""
        return cls(matrix)

    def to_matrix(self) -> np.ndarray:
        """The (segments x columns) matrix: what ``segment_statistics`` gives and resampling sums."""
        return self.matrix

    def __len__(self) -> int:
        return len(self.matrix)

    def __getitem__(self: Self, index: Any) -> Self:
        """Segments selected by an int, a slice, an index array or a boolean mask."""
        if isinstance(index, (int, np.integer)):
            index = slice(index, index + 1 if index != -1 else None)
        return self._like(self.matrix[index])

    def __add__(self: Self, other: Any) -> Self:
        """The segments of both, self's first: how shards of one corpus merge."""
        if not isinstance(other, type(self)):
            return NotImplemented
        if other.matrix.shape[1] != self.matrix.shape[1]:
            raise ValueError(f"cannot merge statistics of {self.matrix.shape[1]} and {other.matrix.shape[1]} columns")
        return self._like(np.concatenate([self.matrix, other.matrix]))

    def __radd__(self: Self, other: Any) -> Self:
        if isinstance(other, int) and other == 0:  # lets sum(list_of_statistics) work
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statistics):
            return NotImplemented
        return type(self) is type(other) and np.array_equal(self.matrix, other.matrix)

    __hash__ = None  # type: ignore[assignment]  # mutable-looking value type: equal by content

    def total(self: Self) -> Self:
        """One row: the corpus-level sums."""
        return self._like(self.matrix.sum(axis=0, keepdims=True))

    def to_json(self) -> str:
        """The statistics as JSON: dtype, number of columns and rows (``from_json`` reads it back)."""
        return json.dumps(
            {"dtype": self.matrix.dtype.name, "columns": self.matrix.shape[1], "rows": self.matrix.tolist()}
        )

    @classmethod
    def from_json(cls: type[Self], text: str) -> Self:
        """Statistics from ``to_json``'s text."""
        data = json.loads(text)
        return cls.from_matrix(np.array(data["rows"], dtype=data["dtype"]).reshape(-1, data["columns"]))

    def save(self, path: str | os.PathLike) -> None:
        """Write a NumPy ``.npz`` file."""
        with open(path, "wb") as handle:
            np.savez(handle, matrix=self.matrix)

    @classmethod
    def load(cls: type[Self], path: str | os.PathLike) -> Self:
        """Statistics from a ``.npz`` file that ``save`` wrote."""
        with np.load(path) as data:
            return cls.from_matrix(data["matrix"])


class DetailedRows(np.ndarray):
    """Per-segment rows that also carry ``detail``: what a metric that is not additive (NIST) needs
    to score resamples exactly. Any array derived from them (a slice, a sum, a copy) drops it."""

    detail: Any = None

    def __new__(cls, rows: np.ndarray, detail: Any) -> DetailedRows:
        array = np.asarray(rows).view(cls)
        array.detail = detail
        return array

    def __array_finalize__(self, obj: Any) -> None:
        self.detail = None


def float32_arithmetic() -> type[np.floating[Any]]:
    """The scalar type of ``100.0 * numpy.float32(x)`` under the installed NumPy: float32 from
    NumPy 2 (NEP 50), float64 before. sacrebleu's resampled scores are computed with it."""
    return type(100.0 * np.float32(1.0))
