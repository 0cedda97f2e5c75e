"""``Statistics``: additive per-segment sufficient statistics, the seam every feature is built on.

One row per segment, one column per statistic. A corpus score is a function of the column sums,
a sentence score of one row; shards merge with ``+``, resamples are row selections, and a file
of statistics scores later exactly as the text would have.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from ..errors import InputError

Self = TypeVar("Self", bound="Statistics")


class Statistics:
    """A read-only (segments x columns) matrix of one metric's statistics (int64 or float64).

    ``settings``: what made them (the metric and the signature fields that change statistics, as
    ``Metric.statistics_settings`` gives them; ``None``: not known). Statistics of different settings
    are not added, nor scored by a metric of other settings: their sums would mean nothing."""

    settings: dict[str, str] | None = None  # also for objects pickled before statistics had settings

    def __init__(self, matrix: Any, settings: Mapping[str, str] | None = None):
        matrix = np.asarray(matrix)
        matrix = matrix.astype(np.float64 if matrix.dtype.kind == "f" else np.int64, copy=False).view()
        if matrix.ndim != 2:
            raise InputError(f"statistics must be a (segments x columns) matrix, got shape {matrix.shape}")
        matrix.setflags(write=False)
        self.matrix = matrix
        self.settings = None if settings is None else dict(settings)

    def _like(self: Self, matrix: np.ndarray) -> Self:
        """Statistics of the same kind and settings holding ``matrix`` (subclasses check their own columns)."""
        return type(self).from_matrix(matrix, self.settings)

    @classmethod
    def from_matrix(cls: type[Self], matrix: Any, settings: Mapping[str, str] | None = None) -> Self:
        """Statistics holding ``matrix`` (segments x columns), checked as the class checks them."""
        return cls(matrix, settings)

    def to_matrix(self) -> np.ndarray:
        """The (segments x columns) matrix: what ``segment_statistics`` gives and resampling sums."""
        return self.matrix

    def __len__(self) -> int:
        return len(self.matrix)

    def __getitem__(self: Self, index: Any) -> Self:
        """Segments selected by an int, a slice, an index array or a boolean mask; an int or index
        past the segments (either way) is an ``IndexError``, as for a list."""
        if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
            if not -len(self) <= index < len(self):
                raise IndexError(f"segment {index} of statistics of {len(self)} segments")
            index = slice(index, index + 1 if index != -1 else None)
        return self._like(self.matrix[index])

    def __add__(self: Self, other: Any) -> Self:
        """The segments of both, self's first: how shards of one corpus merge."""
        if not isinstance(other, type(self)):
            return NotImplemented
        if other.matrix.shape[1] != self.matrix.shape[1]:
            raise InputError(f"cannot merge statistics of {self.matrix.shape[1]} and {other.matrix.shape[1]} columns")
        check_same_settings(self.settings, other.settings, "merge")
        merged = self._like(np.concatenate([self.matrix, other.matrix]))
        merged.settings = self.settings if self.settings is not None else other.settings
        return merged

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
        """The statistics as JSON: dtype, number of columns and rows, and settings when known
        (``from_json`` reads it back)."""
        data: dict[str, Any] = {"dtype": self.matrix.dtype.name, "columns": self.matrix.shape[1]}
        data["rows"] = self.matrix.tolist()
        if self.settings is not None:
            data["settings"] = self.settings
        return json.dumps(data)

    @classmethod
    def from_json(cls: type[Self], text: str) -> Self:
        """Statistics from ``to_json``'s text; anything else is a ``InputError`` saying what is wrong."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise InputError(f"statistics JSON that cannot be read ({error})") from None
        if not isinstance(data, dict) or not {"dtype", "columns", "rows"} <= set(data):
            raise InputError("statistics JSON must be an object with dtype, columns and rows (what to_json writes)")
        if data["dtype"] not in ("int64", "float64"):
            raise InputError(f"statistics JSON of dtype {data['dtype']!r}, expected 'int64' or 'float64'")
        columns, rows = data["columns"], data["rows"]
        if not isinstance(columns, int) or isinstance(columns, bool) or columns < 1:
            raise InputError(f"statistics JSON with {columns!r} columns, expected a positive number")
        if not isinstance(rows, list) or not all(isinstance(row, list) and len(row) == columns for row in rows):
            raise InputError(f"statistics JSON rows must be a list of lists of {columns} numbers each")
        try:
            matrix = np.array(rows, dtype=data["dtype"]).reshape(-1, columns)
        except (TypeError, ValueError, OverflowError) as error:
            raise InputError(f"statistics JSON rows that are not {data['dtype']} numbers ({error})") from None
        return cls.from_matrix(checked(matrix, "statistics JSON"), read_settings(data.get("settings"), "JSON"))

    def save(self, path: str | os.PathLike) -> None:
        """Write a NumPy ``.npz`` file (the matrix, and the settings when known)."""
        arrays = {"matrix": self.matrix}
        if self.settings is not None:
            arrays["settings"] = np.array(json.dumps(self.settings))
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)

    @classmethod
    def load(cls: type[Self], path: str | os.PathLike) -> Self:
        """Statistics from a ``.npz`` file that ``save`` wrote; anything else (a missing, cut or
        foreign file, counts of another type) is a ``InputError`` naming the file."""
        import zipfile
        import zlib

        try:
            with np.load(path, allow_pickle=False) as data:
                matrix = data["matrix"]
                settings = json.loads(str(data["settings"])) if "settings" in data.files else None
        except FileNotFoundError:
            raise InputError(f"{os.fspath(path)}: no such file") from None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as error:
            raise InputError(f"{os.fspath(path)}: not statistics written by save ({error})") from None
        if matrix.dtype not in (np.dtype(np.int64), np.dtype(np.float64)) or matrix.ndim != 2:
            raise InputError(
                f"{os.fspath(path)}: statistics must be an int64 or float64 matrix, got {matrix.dtype} of shape "
                f"{matrix.shape}"
            )
        where = os.fspath(path)
        return cls.from_matrix(checked(matrix, where), read_settings(settings, where))


def checked(matrix: np.ndarray, where: str) -> np.ndarray:
    """``matrix`` if its values could be statistics (finite and non-negative), else a ``InputError``."""
    if matrix.dtype.kind == "f" and not np.isfinite(matrix).all():
        raise InputError(f"{where}: statistics must be finite, got inf or NaN")
    if matrix.size and matrix.min() < 0:
        raise InputError(f"{where}: statistics must be non-negative, got {matrix.min()}")
    return matrix


def read_settings(settings: Any, where: str) -> dict[str, str] | None:
    """Settings read from a file: a mapping of names to strings, or ``None``; else a ``InputError``."""
    if settings is None:
        return None
    if not isinstance(settings, dict) or not all(isinstance(v, str) for v in settings.values()):
        raise InputError(f"{where}: statistics settings must map names to strings, got {settings!r}")
    return settings


def check_same_settings(first: Mapping[str, str] | None, second: Mapping[str, str] | None, doing: str) -> None:
    """Raise ``InputError`` naming the differences if both settings are known and differ."""
    if first is None or second is None or dict(first) == dict(second):
        return
    names = sorted(set(first) | set(second), key=lambda name: (name != "metric", name))
    differences = [
        f"{name} {first.get(name)!r} and {second.get(name)!r}" for name in names if first.get(name) != second.get(name)
    ]
    raise InputError(
        f"cannot {doing} statistics counted with different settings ({'; '.join(differences)}): "
        "count them with the same metric and options"
    )


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
