"""Porter's stemmer (Porter 1980) with the extensions NLTK's ``PorterStemmer`` applies by default.

METEOR's second stage matches words by stem, so this reproduces NLTK 3.10's default mode
(``NLTK_EXTENSIONS``) word for word. Beyond the paper: a few irregular words map straight to their
stem; words of at most two characters are only lowercased; ``-ies``/``-ied`` of four-letter words
give ``-ie`` and ``-ied`` otherwise ``-i``; step 1c turns ``y`` into ``i`` only after a consonant
that is not the whole stem; a two-letter vowel-consonant stem ends "cvc"; step 2 turns ``-bli``
into ``-ble``, ``-fulli`` into ``-ful``, ``-logi`` into ``-log`` and re-runs after ``-alli`` -> ``-al``.
Each step tries its suffixes in order and the *first* that the word ends with decides, whether
its condition holds or not (then the word stays as it is).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

VOWELS = frozenset("aeiou")

# Irregular words and the stem they get, before any rule.
IRREGULAR = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}


def consonants(word: str) -> list[bool]:
    """Per letter whether it is a consonant: not a vowel, and ``y`` only first or after a vowel."""
    flags: list[bool] = []
    for letter in word:
        flags.append(letter not in VOWELS and (letter != "y" or not flags or not flags[-1]))
    return flags


def measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant transitions of ``stem``."""
    flags = consonants(stem)
    return sum(1 for before, after in itertools.pairwise(flags) if not before and after)


def has_vowel(stem: str) -> bool:
    """Porter's ``*v*``: the stem has a vowel."""
    return not all(consonants(stem))


def double_consonant(word: str) -> bool:
    """Porter's ``*d``: the word ends with two equal consonants."""
    return len(word) >= 2 and word[-1] == word[-2] and consonants(word)[-1]


def cvc(word: str) -> bool:
    """Porter's ``*o``: ends consonant-vowel-consonant, the last not w, x or y (NLTK: or is a vowel-consonant pair)."""
    flags = consonants(word)
    if len(word) == 2:
        return not flags[0] and flags[1]
    return len(word) >= 3 and flags[-3] and not flags[-2] and flags[-1] and word[-1] not in "wxy"


Rule = tuple[str, str, Callable[[str], bool]]


class Rules(NamedTuple):
    """A step's rules in order, and their suffixes (to test them all at once)."""

    rules: tuple[Rule, ...]
    endings: tuple[str, ...]


def rules_of(rules: tuple[Rule, ...]) -> Rules:
    return Rules(rules, tuple(suffix for suffix, _, _ in rules))


def first_rule(word: str, step: Rules) -> str:
    """The first rule whose suffix ends ``word`` decides: its replacement if its condition holds
    for the rest of the word, else the word unchanged."""
    if not word.endswith(step.endings):  # most words: one test for all suffixes
        return word
    for suffix, replacement, condition in step.rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def m_positive(stem: str) -> bool:
    return measure(stem) > 0


def m_above_one(stem: str) -> bool:
    return measure(stem) > 1


def always(stem: str) -> bool:
    return True


STEP_1A = rules_of((("sses", "ss", always), ("ies", "i", always), ("ss", "ss", always), ("s", "", always)))
STEP_2 = rules_of(
    (
        *(
            (suffix, replacement, m_positive)
            for suffix, replacement in (
                ("ational", "ate"),
                ("tional", "tion"),
                ("enci", "ence"),
                ("anci", "ance"),
                ("izer", "ize"),
                ("bli", "ble"),
                ("alli", "al"),
                ("entli", "ent"),
                ("eli", "e"),
                ("ousli", "ous"),
                ("ization", "ize"),
                ("ation", "ate"),
                ("ator", "ate"),
                ("alism", "al"),
                ("iveness", "ive"),
                ("fulness", "ful"),
                ("ousness", "ous"),
                ("aliti", "al"),
                ("iviti", "ive"),
                ("biliti", "ble"),
                ("fulli", "ful"),
            )
        ),
        ("logi", "log", lambda stem: m_positive(stem + "l")),  # the measure of the stem with its "l"
    )
)
STEP_3 = rules_of(
    tuple(
        (suffix, replacement, m_positive)
        for suffix, replacement in (
            ("icate", "ic"),
            ("ative", ""),
            ("alize", "al"),
            ("iciti", "ic"),
            ("ical", "ic"),
            ("ful", ""),
            ("ness", ""),
        )
    )
)
_STEP_4_SUFFIXES = "al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize"
STEP_4 = rules_of(
    tuple(
        (suffix, "", (lambda stem: m_above_one(stem) and stem[-1] in "st") if suffix == "ion" else m_above_one)
        for suffix in _STEP_4_SUFFIXES.split(" ")
    )
)


def step_1a(word: str) -> str:
    """Plurals: -sses, -ies, -ss, -s (a four-letter -ies word keeps -ie)."""
    if len(word) == 4 and word.endswith("ies"):
        return word[:-1]
    return first_rule(word, STEP_1A)


def step_1b(word: str) -> str:
    """Past and progressive forms: -ied, -eed, -ed, -ing, then tidying the stem left."""
    if word.endswith("ied"):
        return word[:-1] if len(word) == 4 else word[:-2]
    if word.endswith("eed"):
        return word[:-1] if measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and has_vowel(word[: -len(suffix)]):
            return _after_1b(word[: -len(suffix)])
    return word


def _after_1b(stem: str) -> str:
    """Step 1b's tidying after -ed or -ing: restore -e, undouble a final consonant, or add -e to short cvc stems."""
    for suffix in ("at", "bl", "iz"):
        if stem.endswith(suffix):
            return stem + "e"
    if double_consonant(stem):
        return stem[:-1] if stem[-1] not in "lsz" else stem
    return stem + "e" if measure(stem) == 1 and cvc(stem) else stem


def step_1c(word: str) -> str:
    """A final y after a consonant (not the stem's only letter) becomes i."""
    if word.endswith("y") and len(word) > 2 and consonants(word[:-1])[-1]:
        return word[:-1] + "i"
    return word


def step_2(word: str) -> str:
    """Double suffixes to single ones; -alli first becomes -al and the step runs again."""
    if word.endswith("alli") and m_positive(word[:-4]):
        return step_2(word[:-2])
    return first_rule(word, STEP_2)


def step_5a(word: str) -> str:
    """A final -e goes when m > 1, or m = 1 and the stem does not end cvc."""
    if word.endswith("e"):
        stem = word[:-1]
        m = measure(stem)
        if m > 1 or (m == 1 and not cvc(stem)):
            return stem
    return word


def step_5b(word: str) -> str:
    """-ll becomes -l when m > 1 (measured with one l)."""
    return word[:-1] if word.endswith("ll") and measure(word[:-1]) > 1 else word


# The last letters of every suffix a step tests (steps 1a, 2, 3, 4; 1b's -ed/-ing, 1c's -y, 5a's -e,
# 5b's -ll): no step changes a word ending otherwise, so neither does the chain.
_LAST_LETTERS = frozenset(
    [suffix[-1] for step in (STEP_1A, STEP_2, STEP_3, STEP_4) for suffix in step.endings] + ["d", "g", "y", "e", "l"]
)


@lru_cache(maxsize=1 << 18)
def stem(word: str) -> str:
    """The stem NLTK's ``PorterStemmer().stem(word)`` gives (lowercased); kept for the most recent words."""
    lower = word.lower()
    if lower in IRREGULAR:
        return IRREGULAR[lower]
    if len(word) <= 2 or lower[-1] not in _LAST_LETTERS:  # the length before lowercasing, as NLTK measures it
        return lower
    lower = step_2(step_1c(step_1b(step_1a(lower))))
    lower = first_rule(first_rule(lower, STEP_3), STEP_4)
    return step_5b(step_5a(lower))
