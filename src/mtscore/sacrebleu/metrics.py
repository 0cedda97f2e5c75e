"""sacrebleu's metric classes (``sacrebleu.metrics``): its keyword names and defaults and its
methods, on mtscore's BLEU, chrF and TER."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.signature import Signature
from ..metrics.bleu.metric import BLEU as _BLEU
from ..metrics.chrf.metric import CHRF as _CHRF
from ..metrics.ter.metric import TER as _TER
from ..tokenizers import default_for_target

__all__ = ["BLEU", "CHRF", "TER"]


class _Sacrebleu:
    """What sacrebleu's metric classes add over ours: ``n_bootstrap`` and ``get_signature``."""

    def corpus_score(self, hypotheses: Sequence[str], references: Any = None, n_bootstrap: int = 1) -> Any:
        """The corpus score; with ``n_bootstrap`` > 1, also its bootstrap mean and 95% interval."""
        score = super().corpus_score(hypotheses, references)  # type: ignore[misc]
        if n_bootstrap <= 1:
            return score
        from ..report.confidence import with_confidence

        statistics = self.segment_statistics(hypotheses, references)  # type: ignore[attr-defined]
        return with_confidence(self, score, statistics, n_bootstrap, None)  # type: ignore[arg-type]

    def get_signature(self) -> Signature:
        """The reproducibility signature (sacrebleu's name for ``signature()``)."""
        return self.signature()  # type: ignore[attr-defined]


class BLEU(_Sacrebleu, _BLEU):
    """sacrebleu's ``BLEU``: its keyword names and defaults, mtscore's engine."""

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Any = None,
    ):
        tokenize = tokenize or default_for_target(trg_lang)
        super().__init__(
            references,
            tokenize=tokenize,
            lowercase=lowercase,
            smooth=smooth_method,
            smooth_value=smooth_value,
            max_order=max_ngram_order,
            effective_order=effective_order,
        )

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = 4,
    ) -> Any:
        """BLEU of sufficient statistics (matches and totals per order, the two lengths), as
        sacrebleu's ``BLEU.compute_bleu``: no smoothing unless asked."""
        row = [sys_len, ref_len, *correct[:max_ngram_order], *total[:max_ngram_order]]
        metric = _BLEU(
            smooth=smooth_method, smooth_value=smooth_value, max_order=max_ngram_order, effective_order=effective_order
        )
        return metric.score_statistics(np.array([row], dtype=np.int64))


class CHRF(_Sacrebleu, _CHRF):
    """sacrebleu's ``CHRF`` (``word_order=2``: chrF++)."""

    def __init__(
        self,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Any = None,
    ):
        super().__init__(
            references,
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
            eps_smoothing=eps_smoothing,
        )


class TER(_Sacrebleu, _TER):
    """sacrebleu's ``TER``."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Any = None,
    ):
        super().__init__(
            references,
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        )
