"""chrF's F-score from summed statistics, vectorised over rows, with sacrebleu's exact arithmetic.

Per order the statistics are [hypothesis n-grams, reference n-grams, matches]. By default precision and
recall are averaged over the orders where both counts are positive (sacrebleu's effective order), then
combined as F-beta; with ``eps_smoothing`` each order's F-beta is averaged, 1e-16 standing in for a
missing precision, recall or F. sacrebleu scores float32 sums (its resampling) on NumPy float32
scalars, where every operation rounds to float32 while Python floats (the 1e-16) do not: each value
here carries whether it is still a Python float, and each operation follows NumPy's promotion.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.stats import float32_arithmetic

EPS = 1e-16


class _Value:
    """Rows of numbers, each a Python float (``exact``: float64 arithmetic) or a NumPy scalar of type ``narrow``."""

    def __init__(self, value: Any, exact: Any, narrow: np.dtype[Any]):
        self.value, self.exact, self.narrow = np.asarray(value, dtype=np.float64), np.asarray(exact), narrow

    def _apply(self, ufunc: np.ufunc, other: _Value) -> _Value:
        exact = self.exact & other.exact
        wide = ufunc(self.value, other.value)
        narrow = ufunc(self.value.astype(self.narrow), other.value.astype(self.narrow)).astype(np.float64)
        return _Value(np.where(exact, wide, narrow), exact, self.narrow)

    def __add__(self, other: _Value) -> _Value:
        return self._apply(np.add, other)

    def __mul__(self, other: _Value) -> _Value:
        return self._apply(np.multiply, other)

    def __truediv__(self, other: _Value) -> _Value:
        return self._apply(np.divide, other)


def _ratios(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """numerator / denominator where the denominator is positive (0 elsewhere), in the sums' own precision."""
    return numerators / np.where(denominators > 0, denominators, 1)


def f_scores(sums: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """chrF (0-100) of each row of summed statistics (rows x 3*orders), exactly as sacrebleu computes it.

    Integer and float64 sums follow Python float arithmetic (float64 scores); float32 sums follow
    sacrebleu on float32 (float32 scores under NumPy 2)."""
    sums = np.atleast_2d(sums)
    own = np.float32 if sums.dtype == np.float32 else np.float64
    narrow = np.dtype(float32_arithmetic() if own is np.float32 else np.float64)
    hyp, ref, match = (sums[:, i::3].astype(own) for i in range(3))
    # Computed in the sums' precision, then held as float64 (exactly) so that mixing in 1e-16 rounds nothing.
    precision, recall = _ratios(match, hyp).astype(np.float64), _ratios(match, ref).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if eps_smoothing:
            scores, exact = _smoothed(hyp > 0, ref > 0, precision, recall, beta, narrow)
        else:
            scores, exact = _effective_order(hyp > 0, ref > 0, precision, recall, beta, narrow)
    # Held exactly in float64 above. sacrebleu's bootstrap means and intervals are computed on
    # np.array(scores): float32 when every score is a float32 scalar, float64 once one is a Python float.
    return scores if exact.any() else scores.astype(narrow)


def _effective_order(
    has_hyp: np.ndarray,
    has_ref: np.ndarray,
    precision: np.ndarray,
    recall: np.ndarray,
    beta: float,
    narrow: np.dtype[Any],
) -> tuple[np.ndarray, np.ndarray]:
    """F-beta of precision and recall averaged over the orders with both counts positive, and
    which rows are Python floats in sacrebleu."""
    factor = beta**2
    both = has_hyp & has_ref
    average_p = np.zeros(len(both), dtype=narrow)
    average_r = np.zeros(len(both), dtype=narrow)
    for order in range(both.shape[1]):
        average_p = np.where(both[:, order], average_p + precision[:, order].astype(narrow), average_p)
        average_r = np.where(both[:, order], average_r + recall[:, order].astype(narrow), average_r)
    orders = both.sum(axis=1)
    divisor = np.maximum(orders, 1).astype(narrow)
    average_p = np.where(orders > 0, average_p / divisor, 0).astype(narrow)
    average_r = np.where(orders > 0, average_r / divisor, 0).astype(narrow)
    f = narrow.type(1 + factor) * average_p * average_r
    f = f / (narrow.type(factor) * average_p + average_r)
    scored = average_p + average_r != 0
    return np.where(scored, narrow.type(100) * f, 0.0).astype(np.float64), ~scored  # 0.0 is a Python float


def _smoothed(
    has_hyp: np.ndarray,
    has_ref: np.ndarray,
    precision: np.ndarray,
    recall: np.ndarray,
    beta: float,
    narrow: np.dtype[Any],
) -> tuple[np.ndarray, np.ndarray]:
    """The mean over orders of each order's F-beta, 1e-16 for a missing precision, recall or F,
    and which rows are Python floats in sacrebleu."""
    rows, orders = has_hyp.shape

    def constant(number: float) -> _Value:
        return _Value(np.full(rows, number), np.ones(rows, dtype=bool), narrow)

    factor = beta**2
    score = constant(0.0)
    for order in range(orders):
        p = _Value(np.where(has_hyp[:, order], precision[:, order], EPS), ~has_hyp[:, order], narrow)
        r = _Value(np.where(has_ref[:, order], recall[:, order], EPS), ~has_ref[:, order], narrow)
        denominator = constant(factor) * p + r
        f = constant(1 + factor) * p * r / denominator
        positive = denominator.value > 0
        score = score + _Value(np.where(positive, f.value, EPS), np.where(positive, f.exact, True), narrow)
    result = constant(100) * score / constant(orders)
    return result.value, result.exact
