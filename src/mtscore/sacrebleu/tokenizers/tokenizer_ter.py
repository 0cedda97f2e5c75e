"""sacrebleu's ``tokenizers.tokenizer_ter``: ``TercomTokenizer``, TER's tokenizer with its options."""

from __future__ import annotations

from ...tokenizers.tercom import TercomTokenizer as _Tercom
from .tokenizer_base import BaseTokenizer

__all__ = ["TercomTokenizer"]


class TercomTokenizer(BaseTokenizer):
    """TER's tokenizer with sacrebleu's four options; a line becomes its tokens joined by spaces."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ):
        self._tercom = _Tercom(normalized, no_punct, asian_support, case_sensitive)

    def __call__(self, line: str) -> str:
        return " ".join(self._tercom(line))

    def signature(self) -> str:
        return "tercom"
