"""sacrebleu's ``tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab``, Japanese by MeCab."""

from __future__ import annotations

from .tokenizer_base import MecabTokenizer

__all__ = ["TokenizerJaMecab"]


class TokenizerJaMecab(MecabTokenizer):
    NAME = "ja-mecab"
