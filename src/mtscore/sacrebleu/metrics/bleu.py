"""sacrebleu's ``sacrebleu.metrics.bleu``: ``BLEU`` with its keywords and ``compute_bleu``, and
``BLEUScore`` (the type of its results)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...metrics.bleu.metric import BLEU as _BLEU
from ...metrics.bleu.result import BLEUScore
from ...tokenizers import default_for_target
from .base import SacrebleuMethods

__all__ = ["BLEU", "BLEUScore"]


class BLEU(SacrebleuMethods, _BLEU):
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
