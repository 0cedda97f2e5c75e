"""Scoring options (smoothing, effective order, max order, weights), validated; no heavy imports.

Two families of smoothing: sacrebleu's (``none``, ``floor``, ``add-k``, ``exp``) and Chen & Cherry's
methods 0-7 as NLTK 3.10 implements them (``nltk-method0`` ... ``nltk-method7``), each with its
parameter as the smoothing value: epsilon (1), k (4 and 7), alpha (6).
"""

from __future__ import annotations

import math

from ...core.options import check_integer
from ...errors import InputError

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
NLTK_PREFIX = "nltk-method"
# NLTK's SmoothingFunction(epsilon=0.1, alpha=5, k=5): which methods take which parameter.
NLTK_DEFAULTS: dict[str, float | None] = {
    f"{NLTK_PREFIX}{number}": value for number, value in enumerate([None, 0.1, None, None, 5, None, 5, 5])
}
SMOOTH_DEFAULTS |= NLTK_DEFAULTS
# NLTK's method 5 (and 7, which uses it) looks one order past the weights: always at 5-grams.
NLTK_EXTRA_ORDER = 5
# The smoothing values of sacrebleu's methods that give a BLEU score: floor stands in for the matches of
# an order without any, so above one match its precision could pass 100%; add-k's k adds to matches and
# totals alike (0 is no smoothing), up to where 100 * (count + k) stays finite in single precision, in
# which resampled scores are computed as sacrebleu computes them. Negative values give a log of a
# negative number (sacrebleu's math domain error) or a precision of zero.
SMOOTH_VALUE_RANGES: dict[str, tuple[float, float]] = {"floor": (0.0, 1.0), "add-k": (0.0, 1e36)}
# The highest max order taken: each order adds statistics columns and a counting pass, so an
# absurd one (10**6) would take minutes and gigabytes to give 0.0; BLEU is used up to about 10.
MAX_ORDER = 100


class Scoring:
    """How statistics become a score: smoothing method and value, effective order, weights.

    Immutable and compared by value; a plain class rather than a dataclass so that the command
    line starts without importing ``dataclasses`` (and ``inspect``)."""

    # In the constructor's order, which __init__, _key and __repr__ follow.
    __slots__ = ("smooth", "smooth_value", "effective_order", "max_order", "weights")  # noqa: RUF023
    smooth: str
    smooth_value: float | None
    effective_order: bool
    max_order: int
    weights: tuple[float, ...] | None

    def __init__(
        self,
        smooth: str = "exp",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_order: int = 4,
        weights: tuple[float, ...] | None = None,
    ):
        values = (smooth, smooth_value, effective_order, max_order, weights)
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)
        self._validate()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Scoring is immutable")

    def __reduce__(self) -> tuple[type[Scoring], tuple[object, ...]]:
        """Pickled as its constructor's arguments (``__setattr__`` refuses the default way), so a
        BLEU object travels to worker processes (Ray, Dask, multiprocessing)."""
        return Scoring, self._key()

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scoring) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Scoring({fields})"

    def _validate(self) -> None:
        if self.smooth not in SMOOTH_DEFAULTS:
            raise InputError(f"unknown smoothing method {self.smooth!r}; choose one of: {', '.join(SMOOTH_DEFAULTS)}")
        check_integer(self.max_order, "max order", 1, MAX_ORDER)
        if self.smooth_value is not None and (
            isinstance(self.smooth_value, bool)
            or not isinstance(self.smooth_value, (int, float))
            or not math.isfinite(self.smooth_value)
        ):
            raise InputError(f"smoothing value must be a finite number, got {self.smooth_value!r}")
        self._check_smooth_value_range()
        if self.nltk_method is not None:
            self._check_nltk()
        if self.weights is not None:
            weights = tuple(float(w) for w in self.weights)
            if len(weights) != self.max_order:
                raise InputError(f"{len(weights)} weights given for max order {self.max_order}; give one per order")
            if any(not math.isfinite(w) or w < 0 for w in weights):
                raise InputError(f"weights must be finite and non-negative, got {weights}")
            # NLTK takes weights as given (a weighted sum of log precisions); sacrebleu's mean needs them to sum to 1.
            if self.nltk_method is None and not math.isclose(sum(weights), 1.0, abs_tol=1e-9):
                raise InputError(f"weights must sum to 1, got {weights}")
            object.__setattr__(self, "weights", weights)

    def _check_smooth_value_range(self) -> None:
        """floor's and add-k's values within the range where they give a valid BLEU."""
        if self.smooth_value is None or self.smooth not in SMOOTH_VALUE_RANGES:
            return
        low, high = SMOOTH_VALUE_RANGES[self.smooth]
        if not low <= self.smooth_value <= high:
            raise InputError(
                f"the smoothing value (smooth_value, -sv) of {self.smooth} must be from {low:g} to {high:g}, "
                f"got {self.smooth_value!r}"
            )

    def _check_nltk(self) -> None:
        if self.effective_order:
            raise InputError(
                f"effective order is sacrebleu's; {self.smooth} follows NLTK, which has no effective order"
            )
        method, value = self.nltk_method, self.value  # methods 1, 4, 6 and 7 always have a value (a default)
        if method == 6 and self.max_order < 3:
            raise InputError("nltk-method6 needs max order 3 or more (it interpolates from trigrams on)")
        if method in (4, 6, 7) and value is not None and value <= 0:
            raise InputError(f"{self.smooth} needs a positive smoothing value (k or alpha), got {value}")
        if method == 1 and value is not None and value < 0:
            raise InputError(f"nltk-method1 needs a non-negative epsilon, got {value}")

    @property
    def nltk_method(self) -> int | None:
        """Chen & Cherry's method number for NLTK smoothing, None for sacrebleu's methods."""
        return int(self.smooth[len(NLTK_PREFIX) :]) if self.smooth.startswith(NLTK_PREFIX) else None

    @property
    def stats_order(self) -> int:
        """The highest n-gram order the statistics must hold for this scoring."""
        if self.nltk_method in (5, 7):
            return max(self.max_order, NLTK_EXTRA_ORDER)
        return self.max_order

    @property
    def value(self) -> float | None:
        """The smoothing value in force (the method's default when none was given)."""
        return SMOOTH_DEFAULTS[self.smooth] if self.smooth_value is None else self.smooth_value

    def smooth_label(self) -> str:
        """``exp``, ``floor[0.10]``, ``add-k[1.00]``, ... as in sacrebleu's signature."""
        value = self.value
        return self.smooth if SMOOTH_DEFAULTS[self.smooth] is None else f"{self.smooth}[{value:.2f}]"


def sentence_effective_order(smooth: str, effective_order: bool | None) -> bool:
    """Sentence-level default: effective order on (sacrebleu), except for NLTK's methods."""
    if effective_order is not None:
        return effective_order
    return not smooth.startswith(NLTK_PREFIX)
