"""Tercom's text normalisation (its ``Normalizer``), as sacrebleu 2.6.0 applies it before TER.

A line is right-stripped and, unless case-sensitive, lowercased. ``normalized`` then joins lines,
unescapes four XML entities and splits Western punctuation off words (periods and commas only
when not next to a digit, dashes after a digit); with ``asian_support`` it also puts every CJK
ideograph, stroke, radical, compatibility character and CJK/full-width punctuation mark on its
own. ``no_punct`` deletes ``.,?:;!"()`` (and, with ``asian_support``, the CJK and full-width
punctuation). Tokens are the whitespace-separated pieces of the result.
"""

from __future__ import annotations

import re

# XML entities tercom decodes, in its order ("&amp;quot;" becomes "&quot;", not '"').
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

# ASCII symbols that become tokens of their own: space to '&', '(' to '+', '/', ':' to '@',
# '[' to '`', '{' to '~'. Not among them: quote, comma, hyphen, period, digits and letters.
_SYMBOL = re.compile(r"([\x20-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])")
_POSSESSIVE = re.compile(r"'s ")
# A period or comma is split off unless a digit precedes it, then unless a digit follows it:
# "3.5" stays whole, "end." and "x,y" are split. Two passes, as tercom does, each left to right.
_STOP_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_STOP_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

_ASIAN_PUNCT = "\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
_FULL_WIDTH_PUNCT = "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09"
# Every character that asian normalisation splits off: CJK unified ideographs (and extension A),
# strokes, radicals, compatibility blocks, enclosed letters up to U+3F22, and the punctuation.
# Tercom pads each block in its own pass; padding only adds spaces, so one pass gives the same
# tokens. (Its Hiragana/Katakana rules are anchored at the start of the line, which Western
# normalisation has already padded with a space, so they never apply.)
_ASIAN_CHAR = re.compile(
    "([\u4e00-\u9fff\u3400-\u4dbf\u31c0-\u31ef\u2e80-\u2eff\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f"
    f"\u3200-\u3f22{_ASIAN_PUNCT}{_FULL_WIDTH_PUNCT}])"
)
_PUNCT = re.compile(r'[.,?:;!"()]')
_PUNCT_WITH_ASIAN = re.compile(f'[.,?:;!"(){_ASIAN_PUNCT}{_FULL_WIDTH_PUNCT}]')


class TercomTokenizer:
    """Turns a line into tercom's tokens for the given options."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive

    def __call__(self, line: str) -> list[str]:
        """The tokens of one line."""
        line = line.rstrip()
        if not self.case_sensitive:
            line = line.lower()
        if self.normalized:
            line = _normalize(line, self.asian_support)
        if self.no_punct:
            line = (_PUNCT_WITH_ASIAN if self.asian_support else _PUNCT).sub("", line)
        return line.split()


def _normalize(line: str, asian_support: bool) -> str:
    """Tercom's normalisation: joined lines, decoded entities, punctuation split off words."""
    line = line.replace("\n-", "").replace("\n", " ")
    for entity, char in _ENTITIES:
        line = line.replace(entity, char)
    line = _SYMBOL.sub(r" \1 ", f" {line} ")
    # A possessive at the very end cannot occur here: the line ends with the padding space.
    line = _POSSESSIVE.sub(" 's ", line)
    line = _STOP_AFTER_NON_DIGIT.sub(r"\1 \2 ", line)
    line = _STOP_BEFORE_NON_DIGIT.sub(r" \1 \2", line)
    line = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    if asian_support:
        line = _ASIAN_CHAR.sub(r" \1 ", line)
    return line
