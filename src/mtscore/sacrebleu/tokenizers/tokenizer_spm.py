"""sacrebleu's ``tokenizers.tokenizer_spm``: the SentencePiece tokenizers (``spm``, FLORES-101/200, spBLEU-1K)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["Flores101Tokenizer", "Flores200Tokenizer", "TokenizerSPM", "spBLEU1KTokenizer"]


class TokenizerSPM(BaseTokenizer):
    NAME = "spm"


class Flores101Tokenizer(TokenizerSPM):
    NAME = "flores101"


class Flores200Tokenizer(TokenizerSPM):
    NAME = "flores200"


class spBLEU1KTokenizer(TokenizerSPM):
    NAME = "spBLEU-1K"
