"""Tokenizers: the registry (a name maps to a factory, imported only when first used), token spans of
whole corpora over their UTF-8 bytes (``lines``, ``spans``) and tercom's normalisation (``tercom``).
May import only the leaf modules (``errors``, ``threads``); nothing else of ``mtscore``.

Every tokenizer is a callable ``line -> str`` (tokens joined by single spaces) with a
``batch(lines) -> list[str]`` method that processes many lines at once and may leave
runs of whitespace between tokens (the pipeline splits on whitespace anyway). Its ``name`` is
what signatures show, sacrebleu's ``signature()``: the registered name, with MeCab's version and
dictionary for ``ja-mecab`` and ``ko-mecab``, the model's name for the SentencePiece ones.

``ja-mecab``, ``ko-mecab`` (MeCab) and the SentencePiece tokenizers (``spm``, ``flores101``,
``flores200``, ``spBLEU-1K``) need optional packages (``EXTRAS``), imported only when built.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Protocol


class Tokenizer(Protocol):
    """What the pipeline needs from a tokenizer."""

    name: str

    def __call__(self, line: str) -> str: ...

    def batch(self, lines: list[str]) -> list[str]: ...


_REGISTRY: dict[str, str | Callable[[], Tokenizer]] = {
    "none": "mtscore.tokenizers.simple:NoneTokenizer",
    "char": "mtscore.tokenizers.simple:CharTokenizer",
    "13a": "mtscore.tokenizers.mteval:Tokenizer13a",
    "intl": "mtscore.tokenizers.intl:TokenizerIntl",
    "zh": "mtscore.tokenizers.zh:TokenizerZh",
    "ja-mecab": "mtscore.tokenizers.mecab:japanese",
    "ko-mecab": "mtscore.tokenizers.mecab:korean",
    "spm": "mtscore.tokenizers.spm:spm",
    "flores101": "mtscore.tokenizers.spm:flores101",
    "flores200": "mtscore.tokenizers.spm:flores200",
    "spBLEU-1K": "mtscore.tokenizers.spm:spbleu_1k",
}
# Tokenizers that need an optional package: name -> the extra that installs it (``pip install mtscore[EXTRA]``).
EXTRAS = {
    "ja-mecab": "ja",
    "ko-mecab": "ko",
    "spm": "spm",
    "flores101": "spm",
    "flores200": "spm",
    "spBLEU-1K": "spm",
}
# sacrebleu's tokenizer for a target language when none is given (``BLEU(trg_lang=...)``, ``-l``).
_LANGUAGE_DEFAULTS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
_CACHE: dict[str, Tokenizer] = {}
# How many times ``register`` has run: a metric that resolved its tokenizer by name before a later
# ``register`` may hold another tokenizer than the name now gives (``registrations``).
_REGISTRATIONS = 0


def available() -> list[str]:
    """Names of the registered tokenizers."""
    return list(_REGISTRY)


def default_for_target(language: str) -> str:
    """sacrebleu's default tokenizer for a target language code: ``zh`` for ``zh``, ``ja-mecab`` for
    ``ja``, ``ko-mecab`` for ``ko``, ``13a`` for any other (the code as given: ``zh-TW`` gets ``13a``)."""
    return _LANGUAGE_DEFAULTS.get(language, "13a")


def register(name: str, factory: Callable[[], Tokenizer]) -> None:
    """Add (or replace) a tokenizer under ``name``; ``factory()`` builds it on first use."""
    global _REGISTRATIONS
    _REGISTRY[name] = factory
    _CACHE.pop(name, None)
    _REGISTRATIONS += 1


def registrations() -> int:
    """How many times ``register`` has run: metrics kept between calls are made again once it changes."""
    return _REGISTRATIONS


def get(name: str) -> Tokenizer:
    """The tokenizer registered as ``name``."""
    if name not in _CACHE:
        if name not in _REGISTRY:
            from ..errors import InputError

            raise InputError(f"unknown tokenizer {name!r}; choose one of: {', '.join(available())}")
        factory = _REGISTRY[name]
        if isinstance(factory, str):
            module, attr = factory.split(":")
            factory = getattr(import_module(module), attr)
        _CACHE[name] = factory()
    return _CACHE[name]


def text_error(name: str, lines: list[str]) -> Exception:
    """The error for lines a native tokenizer (MeCab, SentencePiece) refused: a line with a lone
    surrogate, which is no UTF-8, is named; any other failure is no input error."""
    from ..errors import InputError

    for line in lines:
        try:
            line.encode("utf-8")
        except UnicodeEncodeError as error:
            return InputError(
                f"the {name} tokenizer takes UTF-8 text only; this line holds {error.reason} "
                f"(character {error.start}): {line[:60]!r}"
            )
    return RuntimeError(f"the {name} tokenizer failed on text it should take")
