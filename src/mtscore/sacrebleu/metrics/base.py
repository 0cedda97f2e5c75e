"""What sacrebleu's metric classes add over mtscore's (``n_bootstrap``, ``get_signature``), and the
names of ``sacrebleu.metrics.base``: ``Score`` (every result's base) and ``Signature``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.score import SacrebleuFormat as Score
from ...core.signature import Signature

__all__ = ["SacrebleuMethods", "Score", "Signature"]


class SacrebleuMethods:
    """Mixed in before an mtscore metric: sacrebleu's ``corpus_score(..., n_bootstrap=)`` and
    ``get_signature``."""

    def corpus_score(self, hypotheses: Sequence[str], references: Any = None, n_bootstrap: int = 1) -> Any:
        """The corpus score; with ``n_bootstrap`` > 1, also its bootstrap mean and 95% interval."""
        score = super().corpus_score(hypotheses, references)  # type: ignore[misc]
        if n_bootstrap <= 1:
            return score
        from ...report.confidence import with_confidence

        statistics = self.segment_statistics(hypotheses, references)  # type: ignore[attr-defined]
        return with_confidence(self, score, statistics, n_bootstrap, None)  # type: ignore[arg-type]

    def get_signature(self) -> Signature:
        """The reproducibility signature (sacrebleu's name for ``signature()``)."""
        return self.signature()  # type: ignore[attr-defined]
