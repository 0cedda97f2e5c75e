"""The ``intl`` tokenizer: mteval-v14's international tokenization (Unicode classes)."""

import regex

from .western import squeeze

_PUNCT_AFTER_NON_DIGIT = regex.compile(r"(\P{N})(\p{P})")
_PUNCT_BEFORE_NON_DIGIT = regex.compile(r"(\p{P})(\P{N})")
_SYMBOL = regex.compile(r"(\p{S})")

# Lines of a batch are joined by a rare digit: as a number it keeps every rule
# inside its own line, as if each line were processed alone.
_SEPARATOR = "\U0001d7ce"  # MATHEMATICAL BOLD DIGIT ZERO


def _split(text: str) -> str:
    text = _PUNCT_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PUNCT_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _SYMBOL.sub(r" \1 ", text)


class TokenizerIntl:
    """Split punctuation unless between digits, and every symbol (mteval-v14 ``--international``)."""

    name = "intl"

    def __call__(self, line: str) -> str:
        return squeeze(_split(line))

    def batch(self, lines: list[str]) -> list[str]:
        if not lines:
            return []
        text = _SEPARATOR.join(lines)
        if text.count(_SEPARATOR) != max(len(lines) - 1, 0):
            return [_split(line) for line in lines]
        return _split(text).split(_SEPARATOR)
