"""sacrebleu's ``tokenizers.tokenizer_zh``: ``TokenizerZh``, Chinese characters split, the rest as 13a."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["TokenizerZh"]


class TokenizerZh(BaseTokenizer):
    NAME = "zh"
