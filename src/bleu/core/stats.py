"""Additive per-segment statistics, and the arithmetic their resampled sums are scored in."""

from __future__ import annotations

import numpy as np


def float32_arithmetic() -> type:
    """The scalar type of ``100.0 * numpy.float32(x)`` under the installed NumPy: float32 from
    NumPy 2 (NEP 50), float64 before. sacrebleu's resampled scores are computed with it."""
    return type(100.0 * np.float32(1.0))
