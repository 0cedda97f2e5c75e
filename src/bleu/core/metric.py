"""What every metric offers the significance tests and the command line, and the metrics by name.

A metric turns each segment into a row of additive sufficient statistics; a corpus score is a
function of the column sums. Bootstrap resamples and randomization trials are just other sums,
so one vectorised ``scores_of_sums`` serves them all.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class Score(Protocol):
    """A corpus result: ``score``, ``name``, ``signature``, and sacrebleu's text and JSON forms."""

    name: str
    score: float
    signature: Any

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str: ...

    def to_json(self, width: int = 2) -> str: ...


class Metric(Protocol):
    """A metric with fixed options whose references were given when it was created."""

    name: str  # the column title: "BLEU", "chrF2", "chrF2++", "TER"
    higher_is_better: bool

    def segment_statistics(self, hypotheses) -> np.ndarray:
        """One row of additive sufficient statistics per segment (int64 or float64)."""
        ...

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The score of each row of column sums (float64). float32 sums are scored with
        sacrebleu's float32 arithmetic (what its bootstrap resampling does)."""
        ...

    def score_statistics(self, statistics: np.ndarray) -> Score:
        """The corpus score of per-segment statistics, with its signature."""
        ...


def systems_statistics(metric: Metric, systems: list) -> list[np.ndarray]:
    """Each system's ``segment_statistics``: all at once where the metric counts systems together
    (BLEU sorts the references once for all of them), else one system after another."""
    together = getattr(metric, "systems_statistics", None)
    return together(systems) if together else [metric.segment_statistics(lines) for lines in systems]
