"""sacrebleu's n-gram helpers (``sacrebleu.metrics.helpers``, also at the package's top level):
word and character n-gram counts of one line, as ``Counter`` objects with sacrebleu's keys."""

from __future__ import annotations

from collections import Counter

__all__ = ["extract_all_char_ngrams", "extract_all_word_ngrams", "extract_char_ngrams", "extract_word_ngrams"]


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> tuple[Counter, int]:
    """Every word n-gram of orders ``min_order`` to ``max_order`` (token tuples), and the line's
    length in whitespace-split tokens."""
    tokens = line.split()
    counts: Counter = Counter()
    for n in range(min_order, max_order + 1):
        counts.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return counts, len(tokens)


def extract_word_ngrams(tokens: list[str], n: int) -> Counter:
    """The n-grams of order ``n`` of ``tokens``, each its words joined by a space."""
    return Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter:
    """The character n-grams of order ``n``; whitespace is removed first unless included."""
    text = line if include_whitespace else "".join(line.split())
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> list[Counter]:
    """The character n-gram counts of each order from 1 to ``max_order``."""
    return [extract_char_ngrams(line, n, include_whitespace) for n in range(1, max_order + 1)]
