"""sacrebleu's ``tokenizers.tokenizer_char``: ``TokenizerChar``, every character a token."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["TokenizerChar"]


class TokenizerChar(BaseTokenizer):
    NAME = "char"
