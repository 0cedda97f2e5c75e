"""sacrebleu's tokenizers (``sacrebleu.tokenizers``): each class in the module sacrebleu has it in
(``tokenizer_13a.Tokenizer13a``, ``tokenizer_ter.TercomTokenizer`` ...), and all of them here by
name. Each is built with no arguments (``TercomTokenizer`` with TER's four options), turns a line
into its tokens joined by single spaces, and says its ``signature()``, on mtscore's tokenizers."""

from __future__ import annotations

from .tokenizer_13a import Tokenizer13a
from .tokenizer_base import BaseTokenizer
from .tokenizer_char import TokenizerChar
from .tokenizer_intl import TokenizerV14International
from .tokenizer_ja_mecab import TokenizerJaMecab
from .tokenizer_ko_mecab import TokenizerKoMecab
from .tokenizer_none import NoneTokenizer
from .tokenizer_spm import Flores101Tokenizer, Flores200Tokenizer, TokenizerSPM, spBLEU1KTokenizer
from .tokenizer_ter import TercomTokenizer
from .tokenizer_zh import TokenizerZh

__all__ = [
    "BaseTokenizer",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "NoneTokenizer",
    "TercomTokenizer",
    "Tokenizer13a",
    "TokenizerChar",
    "TokenizerJaMecab",
    "TokenizerKoMecab",
    "TokenizerSPM",
    "TokenizerV14International",
    "TokenizerZh",
    "spBLEU1KTokenizer",
]
