"""The punctuation rules of mteval-v13a, shared by the ``13a`` and ``zh`` tokenizers."""

import re

# Characters that always stand alone: ASCII symbols and punctuation except
# '-', '.', ',' (handled by the digit-aware rules below) and digits/letters.
_SYMBOL = re.compile(r"([ -&(-+:-@/\[-`{-~])")
_DOT_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_DOT_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def split_punctuation(text: str) -> str:
    """Space out punctuation as mteval-v13a does; the result may hold runs of whitespace.

    ``text`` may hold many padded lines joined by newlines: no rule matches across
    a newline when each line starts and ends with a space.
    """
    text = _SYMBOL.sub(r" \1 ", text)
    text = _DOT_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _DOT_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def squeeze(text: str) -> str:
    """Tokens joined by single spaces, no leading or trailing whitespace."""
    return " ".join(text.split())
