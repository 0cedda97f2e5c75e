"""sacrebleu's ``tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab``, Korean by MeCab."""

from __future__ import annotations

from .tokenizer_base import MecabTokenizer

__all__ = ["TokenizerKoMecab"]


class TokenizerKoMecab(MecabTokenizer):
    NAME = "ko-mecab"
