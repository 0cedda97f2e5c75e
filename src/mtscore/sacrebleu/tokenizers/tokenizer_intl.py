"""sacrebleu's ``tokenizers.tokenizer_intl``: ``TokenizerV14International``, mteval-v14's
international tokenization."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["TokenizerV14International"]


class TokenizerV14International(BaseTokenizer):
    NAME = "intl"
