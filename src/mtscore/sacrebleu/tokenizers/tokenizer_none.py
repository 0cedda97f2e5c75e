"""sacrebleu's ``tokenizers.tokenizer_none``: ``NoneTokenizer``, the line itself."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer

__all__ = ["NoneTokenizer"]


class NoneTokenizer(BaseTokenizer):
    NAME = "none"

    def __call__(self, line: str) -> str:
        return line  # as sacrebleu's: its whitespace untouched
