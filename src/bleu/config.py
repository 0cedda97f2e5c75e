"""Scoring options (smoothing, effective order, max order, weights), validated; no heavy imports."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import BleuInputError

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


@dataclass(frozen=True)
class Scoring:
    """How statistics become a score: smoothing method and value, effective order, weights."""

    smooth: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False
    max_order: int = 4
    weights: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.smooth not in SMOOTH_DEFAULTS:
            raise BleuInputError(
                f"unknown smoothing method {self.smooth!r}; choose one of: {', '.join(SMOOTH_DEFAULTS)}"
            )
        if isinstance(self.max_order, bool) or not hasattr(self.max_order, "__index__") or self.max_order < 1:
            raise BleuInputError(f"max order must be a positive integer, got {self.max_order!r}")
        if self.smooth_value is not None and (
            isinstance(self.smooth_value, bool)
            or not isinstance(self.smooth_value, (int, float))
            or not math.isfinite(self.smooth_value)
        ):
            raise BleuInputError(f"smoothing value must be a finite number, got {self.smooth_value!r}")
        if self.weights is not None:
            weights = tuple(float(w) for w in self.weights)
            if len(weights) != self.max_order:
                raise BleuInputError(f"{len(weights)} weights given for max order {self.max_order}; give one per order")
            if any(not math.isfinite(w) or w < 0 for w in weights) or not math.isclose(sum(weights), 1.0, abs_tol=1e-9):
                raise BleuInputError(f"weights must be non-negative and sum to 1, got {weights}")
            object.__setattr__(self, "weights", weights)

    @property
    def value(self) -> float | None:
        """The smoothing value in force (the method's default when none was given)."""
        return SMOOTH_DEFAULTS[self.smooth] if self.smooth_value is None else self.smooth_value

    def smooth_label(self) -> str:
        """``exp``, ``floor[0.10]``, ``add-k[1.00]``, ... as in sacrebleu's signature."""
        value = self.value
        return self.smooth if SMOOTH_DEFAULTS[self.smooth] is None else f"{self.smooth}[{value:.2f}]"
