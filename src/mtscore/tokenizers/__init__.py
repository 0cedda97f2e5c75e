"""Tokenizers: the registry (a name maps to a factory, imported only when first used), token spans of
whole corpora over their UTF-8 bytes (``lines``, ``spans``) and tercom's normalisation (``tercom``).
May import only the leaf modules (``errors``, ``threads``); nothing else of ``mtscore``.

Every tokenizer is a callable ``line -> str`` (tokens joined by single spaces) with a
``batch(lines) -> list[str]`` method that processes many lines at once and may leave
runs of whitespace between tokens (the pipeline splits on whitespace anyway).
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
}
_CACHE: dict[str, Tokenizer] = {}


def available() -> list[str]:
    """Names of the registered tokenizers."""
    return list(_REGISTRY)


def register(name: str, factory: Callable[[], Tokenizer]) -> None:
    """Add (or replace) a tokenizer under ``name``; ``factory()`` builds it on first use."""
    _REGISTRY[name] = factory
    _CACHE.pop(name, None)


def get(name: str) -> Tokenizer:
    """The tokenizer registered as ``name``."""
    if name not in _CACHE:
        if name not in _REGISTRY:
            from ..errors import BleuInputError

            raise BleuInputError(f"unknown tokenizer {name!r}; choose one of: {', '.join(available())}")
        factory = _REGISTRY[name]
        if isinstance(factory, str):
            module, attr = factory.split(":")
            factory = getattr(import_module(module), attr)
        _CACHE[name] = factory()
    return _CACHE[name]
