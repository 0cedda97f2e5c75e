"""jiwer 4.0's default text transformations, re-implemented: lines to lists of words or characters.

``words`` is ``wer_default``: runs of two or more whitespace characters become one space, the line
is stripped, and the words are the non-empty pieces between single spaces (a lone tab or newline
stays inside a word, as in jiwer). ``standardize`` is ``wer_standardize``: lowercase, expand common
English contractions, drop Kaldi non-words (``[laugh]``, ``<unk>``), every ASCII whitespace
character to a space, then as ``words``. ``characters`` is ``cer_default``: the stripped line's
characters, spaces included. Python's ``re`` and ``str`` methods, as jiwer uses them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

_SPACES = re.compile(r"\s\s+")
_KALDI_NON_WORD = re.compile(r"[<\[][^>\]]*[>\]]")
# jiwer's ExpandCommonEnglishContractions, in its order (each a literal replacement).
_CONTRACTIONS = (
    ("won't", "will not"),
    ("can't", "can not"),
    ("let's", "let us"),
    ("n't", " not"),
    ("'re", " are"),
    ("'s", " is"),
    ("'d", " would"),
    ("'ll", " will"),
    ("'t", " not"),
    ("'ve", " have"),
    ("'m", " am"),
)
_OTHER_WHITESPACE = string.whitespace.replace(" ", "")  # jiwer's RemoveWhiteSpace(replace_by_space=True)


def words(line: str) -> list[str]:
    """jiwer's ``wer_default``."""
    return [word for word in _SPACES.sub(" ", line).strip().split(" ") if word]


def standardize(line: str) -> list[str]:
    """jiwer's ``wer_standardize``."""
    line = line.lower()
    if "'" in line:  # every contraction has one
        for contraction, expansion in _CONTRACTIONS:
            line = line.replace(contraction, expansion)
    line = _KALDI_NON_WORD.sub("", line)
    for character in _OTHER_WHITESPACE:
        line = line.replace(character, " ")
    return words(line)


def characters(line: str) -> str:
    """jiwer's ``cer_default``: the characters of the stripped line."""
    return line.strip()


# The word transformations by the name the signature records.
WORD_TRANSFORMS: dict[str, Callable[[str], list[str]]] = {"default": words, "standardize": standardize}
