"""chrF's symbols: characters (code points) and chrF++'s words, numbered by the references' vocabulary.

Symbols are numbered 1..size from the references; any symbol the references lack gets size + 1, so a
hypothesis is encoded against references prepared once. Both kinds give all lines' symbols one after
another and each line's count, the form the n-gram counting takes.
"""

from __future__ import annotations

from itertools import chain, repeat

import numpy as np

# str.split()'s whitespace (no such character above U+3000).
_SPACES = np.array([code for code in range(0x3001) if chr(code).isspace()])
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def segment_sums(flags: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per-segment sums of ``flags`` laid out segment after segment (``lengths`` items each)."""
    sums = np.zeros(len(lengths), dtype=np.int64)
    nonempty = lengths > 0
    if nonempty.any():
        starts = np.cumsum(lengths) - lengths
        sums[nonempty] = np.add.reduceat(flags, starts[nonempty], dtype=np.int64)
    return sums


class Characters:
    """Characters as symbols: code points, whitespace removed (by the vocabulary) unless ``whitespace``."""

    def __init__(self, whitespace: bool):
        self.whitespace = whitespace

    @staticmethod
    def split(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Code points of all lines, one after another, and each line's count."""
        data = "".join(lines).encode("utf-32-le", "surrogatepass")  # lone surrogates are code points too
        return np.frombuffer(data, dtype="<u4"), np.fromiter(map(len, lines), np.int64, len(lines))

    def vocabulary(self, codes: list[np.ndarray]) -> CodeVocabulary:
        """The vocabulary of the references' code points (one array per stream)."""
        return CodeVocabulary(np.concatenate(codes), self.whitespace)


class CodeVocabulary:
    """Code points numbered 1..size; any other code point is ``size + 1``, whitespace (unless kept) 0:
    removed by ``encode``."""

    def __init__(self, codes: np.ndarray, whitespace: bool):
        seen = np.zeros(max(int(codes.max(initial=0)), _SPACES[-1]) + 2, dtype=bool)  # the last: any larger
        seen[codes] = True
        self.whitespace = whitespace
        if not whitespace:
            seen[_SPACES] = False
        self.size = int(seen.sum())
        self.table = np.full(len(seen), self.size + 1, dtype=np.int32)
        self.table[seen] = np.arange(1, self.size + 1, dtype=np.int32)
        if not whitespace:
            self.table[_SPACES] = 0

    def encode(self, codes: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Symbol ids of code points, whitespace removed unless kept, and the line lengths that leaves."""
        if len(codes) and int(codes.max()) >= len(self.table):
            codes = np.minimum(codes, len(self.table) - 1)
        ids = self.table[codes]
        if self.whitespace:
            return ids, lengths
        kept = ids != 0
        return ids[kept], segment_sums(kept, lengths)


def _pieces(words: list[str]) -> list[tuple[str, ...]]:
    """sacrebleu's chrF++ split of each word: one punctuation mark off the end, else off the start."""
    return [
        (word[:-1], word[-1])
        if word[-1] in PUNCTUATION and len(word) > 1
        else (word[0], word[1:])
        if word[0] in PUNCTUATION and len(word) > 1
        else (word,)
        for word in words
    ]


class Words:
    """chrF++'s words as symbols: whitespace-separated words, one edge punctuation mark split off
    (by the vocabulary, which does it once per distinct word)."""

    @staticmethod
    def split(lines: list[str]) -> tuple[list[str], np.ndarray]:
        """The whitespace-separated words of all lines, one after another, and each line's count."""
        split = [line.split() for line in lines]
        return list(chain.from_iterable(split)), np.fromiter(map(len, split), np.int64, len(split))

    @staticmethod
    def vocabulary(words: list[list[str]]) -> WordVocabulary:
        """The vocabulary of the references' words (one list per stream)."""
        return WordVocabulary(list(dict.fromkeys(chain.from_iterable(words))))


class WordVocabulary:
    """Tokens (reference words and their split-off pieces) numbered 1..size, any other token ``size + 1``.
    Indexed by a reference word's number, ``first`` and ``second`` give the tokens it splits into
    (``second`` 0: not split); ``first`` is 0 for the numbers that are not reference words."""

    def __init__(self, words: list[str]):
        edge = [
            number
            for number, word in enumerate(words, 1)
            if (word[-1] in PUNCTUATION or word[0] in PUNCTUATION) and len(word) > 1
        ]
        pieces = _pieces([words[number - 1] for number in edge])
        # The distinct words first: word i is token i + 1.
        tokens = dict.fromkeys(chain(words, chain.from_iterable(pieces)))
        self.tokens = {token: number for number, token in enumerate(tokens, 1)}
        self.size = len(self.tokens)
        self.first, self.second = np.zeros(self.size + 2, dtype=np.int64), np.zeros(self.size + 2, dtype=np.int64)
        self.first[1 : len(words) + 1] = np.arange(1, len(words) + 1)
        self.first[edge], self.second[edge] = self._token_ids(pieces)

    def _token_ids(self, pieces: list[tuple[str, ...]]) -> tuple[np.ndarray, np.ndarray]:
        get, unknown = self.tokens.get, self.size + 1
        first = [get(piece[0], unknown) for piece in pieces]
        second = [get(piece[1], unknown) if len(piece) > 1 else 0 for piece in pieces]
        return np.array(first, dtype=np.int64), np.array(second, dtype=np.int64)

    def encode(self, words: list[str], lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Token ids of all words, and each line's token count."""
        ids = np.fromiter(map(self.tokens.get, words, repeat(0)), np.int64, len(words))
        first, second = self.first, self.second
        unseen = np.flatnonzero(first[ids] == 0).tolist()
        if unseen:
            new = list(dict.fromkeys(words[at] for at in unseen))
            numbers = dict(zip(new, range(len(first), len(first) + len(new)), strict=True))
            ids[unseen] = [numbers[words[at]] for at in unseen]
            more_first, more_second = self._token_ids(_pieces(new))
            first, second = np.concatenate([first, more_first]), np.concatenate([second, more_second])
        first, second = first[ids], second[ids]
        ids = np.stack([first, second], axis=1).ravel()
        return ids[ids != 0], lengths + segment_sums(second != 0, lengths)
