"""chrF's symbols: characters (code points) and chrF++'s words, numbered by the references' vocabulary.

Symbols are numbered 1..size from the references; any symbol the references lack gets size + 1, so a
hypothesis is encoded against references prepared once. Both kinds give all lines' symbols one after
another and each line's count, the form the n-gram counting takes.
"""

from __future__ import annotations

from itertools import pairwise, repeat

import numpy as np

from ...engine import ragged
from ...engine.keys import UNKNOWN, TokenKeys, Vocabulary
from ...tokenizers.lines import Split, split_lines
from ...tokenizers.simple import NoneTokenizer

BLOCK_LINES = 1 << 13  # lines encoded at once: the arrays of a block stay in cache
# str.split()'s whitespace (no such character above U+3000).
_SPACES = np.array([code for code in range(0x3001) if chr(code).isspace()])
PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def segment_sums(flags: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per-segment sums of ``flags`` laid out segment after segment (``lengths`` items each)."""
    sums = np.zeros(len(lengths), dtype=np.int64)
    nonempty = lengths > 0
    if nonempty.any():
        sums[nonempty] = np.add.reduceat(flags, ragged.starts(lengths)[nonempty], dtype=np.int64)
    return sums


class Characters:
    """Characters as symbols: code points, whitespace removed (by the vocabulary) unless ``whitespace``."""

    def __init__(self, whitespace: bool):
        self.whitespace = whitespace

    @staticmethod
    def split(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Code points of all lines, one after another, and each line's count (block by block of lines:
        the time per line stays that of a block's, in cache, at any number of lines)."""
        codes = [
            np.frombuffer("".join(lines[a : a + BLOCK_LINES]).encode("utf-32-le", "surrogatepass"), dtype="<u4")
            for a in range(0, len(lines), BLOCK_LINES)
        ]  # lone surrogates are code points too
        lengths = np.fromiter(map(len, lines), np.int64, len(lines))
        return (np.concatenate(codes) if codes else np.zeros(0, dtype=np.uint32)), lengths

    def vocabulary(self, codes: np.ndarray, lengths: np.ndarray) -> tuple[CodeVocabulary, np.ndarray, np.ndarray]:
        """The vocabulary of the references' code points, and their ids and line lengths."""
        vocabulary = CodeVocabulary(codes, self.whitespace)
        return (vocabulary, *vocabulary.encode(codes, lengths))


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
        """Symbol ids of code points, whitespace removed unless kept, and the line lengths that leaves
        (block by block of lines)."""
        bounds = ragged.offsets(lengths)
        blocks = [self._encode(codes[bounds[a] : bounds[b]], lengths[a:b]) for a, b in line_blocks(len(lengths))]
        if not blocks:
            return np.zeros(0, dtype=np.int32), lengths
        return np.concatenate([ids for ids, _ in blocks]), np.concatenate([kept for _, kept in blocks])

    def _encode(self, codes: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(codes) and int(codes.max()) >= len(self.table):
            codes = np.minimum(codes, len(self.table) - 1)
        ids = self.table[codes]
        if self.whitespace:
            return ids, lengths
        kept = ids != 0
        return ids[kept], segment_sums(kept, lengths)


def line_blocks(n_lines: int) -> list[tuple[int, int]]:
    """Ranges of at most ``BLOCK_LINES`` lines covering 0..n_lines."""
    return list(pairwise([*range(0, n_lines, BLOCK_LINES), n_lines]))


LONG_WORDS = 16  # bytes per word on average beyond which words are numbered as bytes, not keyed
_PUNCTUATION_BYTES = np.zeros(256, dtype=bool)
_PUNCTUATION_BYTES[list(PUNCTUATION.encode())] = True


def _pieces(split: Split) -> Split:
    """sacrebleu's chrF++ split of each word (a span of UTF-8 bytes): one punctuation mark off the end,
    else off the start, of a word longer than it (a word of more than one byte, as the mark is ASCII)."""
    starts, ends, data = split.starts, split.ends, split.data
    longer = ends - starts > 1
    last = _PUNCTUATION_BYTES[data[ends - 1]] if len(ends) else longer
    last &= longer
    two = _PUNCTUATION_BYTES[data[starts]] if len(starts) else longer
    two &= longer
    two |= last
    words = np.flatnonzero(two)  # the words that split (few): each gets a second piece after its first
    if len(words) == 0:
        return split
    cuts = np.where(last[words], ends[words] - 1, starts[words] + 1)
    extra = np.zeros(len(starts), dtype=np.int64)
    extra[words] = 1
    firsts = np.cumsum(extra) - extra  # second pieces before each word's first
    firsts += np.arange(len(starts))
    piece_starts = np.empty(len(starts) + len(words), dtype=starts.dtype)
    piece_ends = np.empty_like(piece_starts)
    piece_starts[firsts], piece_ends[firsts] = starts, ends
    at = firsts[words]
    piece_ends[at], piece_starts[at + 1], piece_ends[at + 1] = cuts, cuts, ends[words]
    return Split(data, piece_starts, piece_ends, split.lengths + segment_sums(two, split.lengths))


class Words:
    """chrF++'s words as symbols: whitespace-separated words, one edge punctuation mark split off."""

    @staticmethod
    def split(lines: list[str]) -> tuple[Split, np.ndarray]:
        """The spans of all lines' words (UTF-8 bytes), one after another, and each line's count."""
        split = _pieces(split_lines(lines, NoneTokenizer()))
        return split, split.lengths

    @staticmethod
    def vocabulary(split: Split, lengths: np.ndarray) -> tuple[WordVocabulary, np.ndarray, np.ndarray]:
        """The vocabulary of the references' words, and their ids and line lengths."""
        vocabulary = WordVocabulary(split)
        return vocabulary, vocabulary.reference_ids, lengths


def _words(split: Split) -> list[bytes]:
    """The words' bytes."""
    raw = split.data.tobytes()
    return [raw[a:b] for a, b in zip(split.starts.tolist(), split.ends.tolist(), strict=True)]


class WordVocabulary:
    """Words numbered 1..size; any other word is ``size + 1``. Words are keyed by the engine's token keys
    (short words packed in an integer) or, when long on average (a language written without spaces, where
    a word is a phrase or a sentence), numbered by a dict of their bytes."""

    def __init__(self, split: Split):
        sizes = split.ends - split.starts
        self.by_bytes = len(sizes) > 0 and sizes.mean() > LONG_WORDS
        if self.by_bytes:
            self.numbers = {word: number for number, word in enumerate(dict.fromkeys(_words(split)), 1)}
            self.size = len(self.numbers)
            self.reference_ids = self.encode(split, split.lengths)[0]
        else:
            self.vocabulary, ids = Vocabulary.of(TokenKeys.of(split))
            self.size, self.reference_ids = len(self.vocabulary), ids + 1

    def encode(self, split: Split, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Word ids of the words; the line lengths stay."""
        if self.by_bytes:
            words = _words(split)
            return np.fromiter(map(self.numbers.get, words, repeat(self.size + 1)), np.int64, len(words)), lengths
        ids, _ = self.vocabulary.encode(TokenKeys.of(split))
        return np.where(ids == UNKNOWN, self.size + 1, ids + 1), lengths
