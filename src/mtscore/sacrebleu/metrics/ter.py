"""sacrebleu's ``sacrebleu.metrics.ter``: ``TER`` with its keywords, and ``TERScore``."""

from __future__ import annotations

from typing import Any

from ...core.options import is_switch_value
from ...errors import InputError
from ...metrics.ter.metric import TER as _TER
from ...metrics.ter.metric import TERScore as _TERScore
from .base import SacrebleuMethods, SacrebleuScore, Signature

__all__ = ["TER", "TERScore", "TERSignature"]


class TERScore(SacrebleuScore, _TERScore):
    """A TER result as sacrebleu's: its fields, ``format`` and ``repr``."""


class TER(SacrebleuMethods, _TER):
    """sacrebleu's ``TER``, with its option attributes."""

    result_type = TERScore
    renamed_options = ()  # ``case_sensitive`` is sacrebleu's own keyword here: taken without a warning

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Any = None,
    ):
        if not is_switch_value(case_sensitive):
            raise InputError(f"TER: case_sensitive must be True or False, got {case_sensitive!r}")
        super().__init__(
            references,
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            lowercase=not case_sensitive,
        )
        self.normalized, self.no_punct = normalized, no_punct
        self.asian_support, self.case_sensitive = asian_support, case_sensitive
        self.tokenizer_signature = "tercom"


# sacrebleu's signature class of TER results: every drop-in metric's signature is mtscore's ``Signature``.
TERSignature = Signature
