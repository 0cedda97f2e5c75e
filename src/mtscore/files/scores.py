"""One score as score files write it (mt-metrics-eval's ``.score`` files, TSVs of scores): a finite
number, or ``None`` for a segment nobody rated where that is allowed."""

from __future__ import annotations

import math
from pathlib import Path

from ..errors import InputError


def parse_score(text: str, path: str | Path, number: int, allow_none: bool = True) -> float | None:
    """The score ``text`` on line ``number`` of ``path``; an input error naming both for anything else."""
    if text == "None":
        if allow_none:
            return None
        raise InputError(f"{path} line {number}: None (not rated) is for human scores; a metric needs a number")
    try:
        value = float(text)
    except ValueError:
        unrated = " (or None: not rated)" if allow_none else ""
        raise InputError(f"{path} line {number}: the score {text!r} is not a number{unrated}") from None
    if not math.isfinite(value):
        raise InputError(f"{path} line {number}: the score is {text}; scores must be finite numbers")
    return value
