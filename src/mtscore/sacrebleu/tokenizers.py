"""sacrebleu's tokenizer classes by their names (``sacrebleu.tokenizers``): each is built with no
arguments (``TercomTokenizer`` with TER's four options), turns a line into its tokens joined by
single spaces, and says its ``signature()``, on mtscore's tokenizers."""

from __future__ import annotations

from typing import ClassVar

from .. import tokenizers
from ..tokenizers.tercom import TercomTokenizer as _Tercom

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


class BaseTokenizer:
    """A tokenizer of mtscore's registry under sacrebleu's class name (``NAME``: its registry name)."""

    NAME: ClassVar[str] = "none"

    def __init__(self) -> None:
        self._tokenizer = tokenizers.get(self.NAME)

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)

    def signature(self) -> str:
        return self._tokenizer.name


class NoneTokenizer(BaseTokenizer):
    NAME = "none"

    def __call__(self, line: str) -> str:
        return line  # as sacrebleu's: the line itself, its whitespace untouched


class Tokenizer13a(BaseTokenizer):
    NAME = "13a"


class TokenizerV14International(BaseTokenizer):
    NAME = "intl"


class TokenizerZh(BaseTokenizer):
    NAME = "zh"


class TokenizerChar(BaseTokenizer):
    NAME = "char"


class _Mecab(BaseTokenizer):
    def __call__(self, line: str) -> str:
        return self._tokenizer.batch([line])[0].strip()  # MeCab's own spacing, as sacrebleu returns it


class TokenizerJaMecab(_Mecab):
    NAME = "ja-mecab"


class TokenizerKoMecab(_Mecab):
    NAME = "ko-mecab"


class TokenizerSPM(BaseTokenizer):
    NAME = "spm"


class Flores101Tokenizer(BaseTokenizer):
    NAME = "flores101"


class Flores200Tokenizer(BaseTokenizer):
    NAME = "flores200"


class spBLEU1KTokenizer(BaseTokenizer):
    NAME = "spBLEU-1K"


class TercomTokenizer:
    """TER's tokenizer with sacrebleu's options; a line becomes its tokens joined by spaces."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ):
        self._tokenizer = _Tercom(normalized, no_punct, asian_support, case_sensitive)

    def __call__(self, line: str) -> str:
        return " ".join(self._tokenizer(line))

    def signature(self) -> str:
        return "tercom"
