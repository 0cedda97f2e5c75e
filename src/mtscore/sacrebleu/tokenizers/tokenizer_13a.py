"""sacrebleu's ``tokenizers.tokenizer_13a``: ``Tokenizer13a``, mteval-v13a's tokenization."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["Tokenizer13a"]


class Tokenizer13a(BaseTokenizer):
    NAME = "13a"
