"""What WER and CER results share: the edit counts, jiwer's measures of them, and their result base."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.score import ScoreResult

# The counts of a result, in the order ``to_dict`` lists them.
COUNT_FIELDS = ("hits", "substitutions", "deletions", "insertions")


def jiwer_measures(hits: int, substitutions: int, deletions: int, insertions: int) -> dict[str, float]:
    """jiwer's wer, mer, wil and wip of counts, with its edge cases and arithmetic order."""
    h, s, d, i = map(float, (hits, substitutions, deletions, insertions))
    n_ref, n_hyp = h + s + d, h + s + i
    if n_ref == 0:
        wer, mer, wip = i, (0.0 if n_hyp == 0 else 1.0), (1.0 if n_hyp == 0 else 0.0)
    else:
        wer, mer = (s + d + i) / n_ref, (s + d + i) / (n_ref + i)
        wip = (h / n_ref) * (h / n_hyp) if n_hyp >= 1 else 0.0
    return {"wer": wer, "mer": mer, "wil": 1 - wip, "wip": wip}


@dataclass(frozen=True)
class EditCounts(ScoreResult):
    """What WER and CER results share: ``score`` (percent) and the summed edit counts."""

    score: float
    hits: int
    substitutions: int
    deletions: int
    insertions: int

    @property
    def verbose(self) -> str:
        """The counts after the score: ``(H 12, S 3, D 1, I 2)``."""
        return f"(H {self.hits}, S {self.substitutions}, D {self.deletions}, I {self.insertions})"

    def counts(self) -> dict[str, Any]:
        """The counts by name: hits, substitutions, deletions, insertions."""
        return {field: getattr(self, field) for field in COUNT_FIELDS}
