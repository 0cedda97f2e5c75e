"""The NumPy backend's ``unique_inverse`` (``engine.backend.unique_inverse``'s packed sort for non-negative
integers, ``np.unique`` otherwise) equals ``np.unique(..., return_inverse=True)`` everywhere."""

import numpy as np
import pytest

from mtscore.engine.backend import NUMPY

EDGE = (1 << 63) - 1
CASES = {
    "empty": np.zeros(0, dtype=np.int64),
    "one": np.array([7]),
    "zeros": np.zeros(5, dtype=np.int64),
    "dense": np.array([3, 1, 3, 0, 2, 1]),
    "sparse": np.array([1 << 40, 5, 1 << 40, 1 << 20, 5]),
    "negative": np.array([-3, 4, -3, 0, 1 << 40]),
    "63-bit edge": np.array([EDGE, 0, EDGE, EDGE - 1, 1 << 62]),
    "below the edge": np.array([(1 << 50) + 3, 1 << 50, (1 << 50) + 3, 9]),  # 51 bits + positions fit
    "int32": np.array([5, -1, 5, 2], dtype=np.int32),
    "random": np.random.default_rng(0).integers(0, 1 << 45, 10_000),
    "random small": np.random.default_rng(1).integers(0, 50, 10_000),
}


@pytest.mark.parametrize("name", CASES)
def test_unique_inverse_is_numpys(name):
    values = CASES[name]
    unique, inverse = NUMPY.unique_inverse(values)
    expected_unique, expected_inverse = np.unique(values, return_inverse=True)
    assert unique.tolist() == expected_unique.tolist()
    assert inverse.tolist() == expected_inverse.reshape(-1).tolist()
