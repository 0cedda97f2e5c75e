"""sacrebleu's ``tokenizers.tokenizer_base``: ``BaseTokenizer``, a tokenizer of mtscore's registry
under sacrebleu's class name."""

from __future__ import annotations

from typing import ClassVar

from ... import tokenizers

__all__ = ["BaseTokenizer"]


class BaseTokenizer:
    """Built with no arguments; turns a line into its tokens joined by single spaces and says its
    ``signature()`` (``NAME``: the registry name)."""

    NAME: ClassVar[str] = "none"

    def __init__(self) -> None:
        self._tokenizer = tokenizers.get(self.NAME)

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)

    def signature(self) -> str:
        return self._tokenizer.name


class MecabTokenizer(BaseTokenizer):
    """A MeCab tokenizer: the line as MeCab spaces it, as sacrebleu returns it."""

    def __call__(self, line: str) -> str:
        return self._tokenizer.batch([line])[0].strip()
