"""Index arithmetic of ragged arrays: runs (segments, lines, pairs) of ``lengths[i]`` items laid one
after another in one flat array. Results keep the dtype NumPy gives the expressions (``cumsum`` of
integers: the platform's int64), as the copies these replace did."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def starts(lengths: ArrayLike) -> np.ndarray:
    """Where each run begins in the flat array: 0, ``lengths[0]``, ``lengths[0] + lengths[1]``, ...
    (runs along the last axis, each row of a matrix on its own)."""
    return np.cumsum(lengths, axis=-1) - lengths


def offsets(lengths: ArrayLike) -> np.ndarray:
    """The runs' boundaries: 0, then where each run ends; run ``i`` is ``flat[offsets[i]:offsets[i + 1]]``."""
    return np.concatenate([[0], np.cumsum(lengths)])


def run_ids(lengths: np.ndarray) -> np.ndarray:
    """For each item of the flat array, the number of the run it belongs to."""
    return np.repeat(np.arange(len(lengths)), lengths)


def remaining(lengths: np.ndarray) -> np.ndarray:
    """For each item of the flat array, the items from it to its run's end (itself included)."""
    return np.repeat(np.cumsum(lengths), lengths) - np.arange(int(np.sum(lengths)))


def places(lengths: np.ndarray) -> np.ndarray:
    """For each item of the flat array, its place in its run (0 for a run's first item)."""
    return np.arange(int(np.sum(lengths))) - np.repeat(starts(lengths), lengths)
