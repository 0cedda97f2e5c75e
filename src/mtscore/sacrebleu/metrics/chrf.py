"""sacrebleu's ``sacrebleu.metrics.chrf``: ``CHRF`` with its keywords, and ``CHRFScore``."""

from __future__ import annotations

from typing import Any, ClassVar

from ...metrics.chrf.metric import CHRF as _CHRF
from ...metrics.chrf.metric import CHRFScore as _CHRFScore
from .base import SacrebleuMethods, SacrebleuScore, Signature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]


class CHRFScore(SacrebleuScore, _CHRFScore):
    """A chrF result as sacrebleu's: its fields, ``format`` and ``repr``."""


class CHRF(SacrebleuMethods, _CHRF):
    """sacrebleu's ``CHRF`` (``word_order=2``: chrF++)."""

    result_type = CHRFScore
    CHAR_ORDER: ClassVar[int] = 6
    WORD_ORDER: ClassVar[int] = 0
    BETA: ClassVar[int] = 2

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
        self.order = char_order + word_order


# sacrebleu's signature class of CHRF results: every drop-in metric's signature is mtscore's ``Signature``.
CHRFSignature = Signature
