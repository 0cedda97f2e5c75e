"""sacrebleu's ``sacrebleu.metrics.bleu``: ``BLEU`` with its keywords and ``compute_bleu``, and
``BLEUScore`` (the type of its results)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ...metrics.bleu.metric import BLEU as _BLEU
from ...metrics.bleu.result import BLEUScore as _BLEUScore
from ...tokenizers import available, default_for_target
from .base import SacrebleuMethods, SacrebleuScore, Signature

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature"]

MAX_NGRAM_ORDER = 4


class BLEUScore(SacrebleuScore, _BLEUScore):
    """A BLEU result as sacrebleu's: its fields, ``prec_str``, ``format`` and ``repr``."""

    @property
    def prec_str(self) -> str:
        """The precisions, one decimal each, joined by slashes."""
        return "/".join(f"{p:.1f}" for p in self.precisions)


class BLEU(SacrebleuMethods, _BLEU):
    """sacrebleu's ``BLEU``: its keyword names, defaults, constants and option attributes, mtscore's
    engine."""

    result_type = BLEUScore
    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
    TOKENIZERS: ClassVar[list[str]] = available()
    TOKENIZER_DEFAULT: ClassVar[str] = "13a"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
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
        self.trg_lang, self.smooth_method, self.smooth_value = trg_lang, smooth_method, smooth_value
        self.max_ngram_order, self.effective_order = max_ngram_order, effective_order
        self.tokenizer_signature = self.tokenizer.name

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> Any:
        """BLEU of sufficient statistics (matches and totals per order, the two lengths), as
        sacrebleu's ``BLEU.compute_bleu``: no smoothing unless asked."""
        row = [sys_len, ref_len, *correct[:max_ngram_order], *total[:max_ngram_order]]
        metric = BLEU(
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        return metric.score_statistics(np.array([row], dtype=np.int64))


# sacrebleu's signature class of BLEU results: every drop-in metric's signature is mtscore's ``Signature``.
BLEUSignature = Signature
