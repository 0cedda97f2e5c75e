"""Map tokens to integer ids so that counting works on arrays, not strings.

Text arrives as token spans over its UTF-8 bytes (``tokenizers.lines``). Each token becomes one
64-bit key without a Python string: a token of at most 7 bytes is its bytes and its length packed
together (distinct tokens, distinct keys); a token of 8-15 bytes is a hash of its bytes, kept with
them as two words so that equal keys of different tokens are found and never confused; a longer one
is numbered through a dict. Keys map to dense ids through an open-addressing hash table held in two
arrays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import count, pairwise, repeat
from random import Random

import numpy as np

from ..tokenizers.lines import Split, map_pieces, split_lines
from . import ragged
from .backend import NUMPY

UNKNOWN = -1
_EMPTY = np.uint64(0)  # no token has this key: a packed token's length byte is 1..7 (0xFE for "")
_LONG = np.uint64(0xFF << 56)  # key of a long token: this tag | its number
_HASHED = np.uint64(0xFD << 56)  # key of a medium token (8-15 bytes): this tag | 56 bits of its hash
_NUMBERED = np.uint64(0xFC << 56)  # key of a medium token numbered through a dict (no salt separated them)
_MEDIUM_END = 16  # tokens of 8 to 15 bytes are hashed, longer ones numbered
_SALTS = 8  # salts tried before medium tokens are numbered through a dict instead
_MIX = [np.uint64(m) for m in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xFF51AFD7ED558CCD)]
_SEPARATOR = 0xFF  # a byte that UTF-8 never holds
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the key's top bits pick its slot
# By token size 0..7 (8: longer): the bytes a short token's key keeps, and its length byte.
_SIZE_MASKS = np.array([(1 << 8 * size) - 1 for size in range(8)] + [0], dtype=np.uint64)
_SIZE_TAGS = np.array([0xFE << 56] + [size << 56 for size in range(1, 8)] + [0], dtype=np.uint64)  # 0xFE: ""
_PIECE_TOKENS = 1 << 18  # tokens are keyed in pieces of this many
_DISTINCT_WORTH = 0.75  # tokenize distinct lines only when at most this share of the lines is distinct
_SAMPLE_SIZE = 16  # lines sampled, times the square root of their number, to guess that none repeats


def distinct_lines(lines: list) -> tuple[list, np.ndarray | None]:
    """The distinct lines (or other hashable items), first seen first, and each line's index among
    them; or ``(lines, None)`` when few lines repeat. References scored against many systems
    repeat, and are tokenized and counted once."""
    if _sample_unique(lines) or len(set(lines)) > _DISTINCT_WORTH * len(lines):  # cheaper than numbering
        return lines, None
    first_seen: dict = {}
    at = np.fromiter(map(first_seen.setdefault, lines, count()), dtype=np.int64, count=len(lines))
    number = np.cumsum(at == np.arange(len(lines))) - 1
    return list(first_seen), number[at]


def _sample_unique(lines: list) -> bool:
    """Whether a fixed pseudo-random sample of ``_SAMPLE_SIZE * sqrt(n)`` of the n lines holds no line
    twice: then few lines repeat, as where every line is unique, and a set of all of them is skipped.
    Were a quarter of the lines repeats, such a sample would hold about 64 repeated pairs (never
    none in practice); a wrong guess costs only time, never exactness."""
    size = int(_SAMPLE_SIZE * len(lines) ** 0.5)
    if size >= len(lines):
        return False
    chosen = Random(0).sample(range(len(lines)), size)
    return len(set(map(lines.__getitem__, chosen))) == size


def _hash(words: np.ndarray, salt: int) -> np.ndarray:
    """Keys of medium tokens from their two words (first 8 bytes; the rest and the size in the top
    byte): a 56-bit hash under ``salt``, tagged ``_HASHED``."""
    h = words[:, 0] * _MIX[0]
    h ^= h >> np.uint64(31)
    h += words[:, 1] * _MIX[1] + np.uint64(salt) * _MIX[2]
    h ^= h >> np.uint64(29)
    h *= _MIX[3]
    h ^= h >> np.uint64(32)
    h >>= np.uint64(8)
    h |= _HASHED
    return h


@dataclass
class TokenKeys:
    """One uint64 key per token (``_EMPTY`` for the long ones until a vocabulary numbers them; a hash
    under salt 0 for the medium ones) of the lines held; with ``rows``, line i is held line
    ``rows[i]`` (repeated lines held once)."""

    keys: np.ndarray
    lengths: np.ndarray  # tokens per held line
    long_at: np.ndarray  # indices of the tokens longer than 15 bytes
    long_tokens: list[bytes]  # their bytes
    rows: np.ndarray | None = None
    medium_at: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # tokens of 8-15 bytes
    words: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.uint64))  # their bytes and size
    # Set where the keys are token ids already: 0..numbered-1 the reference tokens', any larger key a
    # token no reference has (``NumberedVocabulary``); such keys hold no long or medium tokens.
    numbered: int | None = None

    def line_lengths(self) -> np.ndarray:
        """Tokens per line."""
        return self.lengths if self.rows is None else self.lengths[self.rows]

    def expand(self, values: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Per-token ``values`` of the held lines as per-token values of every line (or of the
        held lines ``rows``, one after another)."""
        rows = self.rows if rows is None else rows
        if rows is None:
            return values
        starts = np.cumsum(self.lengths) - self.lengths
        return values[ranges(starts[rows], self.lengths[rows])]

    @classmethod
    def of_lines(
        cls, lines: list[str], tokenizer, lowercase: bool = False, rows: np.ndarray | None = None
    ) -> TokenKeys:
        """``of(split_lines(lines, tokenizer, lowercase), rows)``, each piece of text keyed as it is
        split, its spans still in cache (no spans of the whole text are kept)."""
        parts = map_pieces(lines, tokenizer, lowercase, lambda piece, _: cls.of(piece))[1]
        if not parts:
            return cls.of(split_lines(lines, tokenizer, lowercase), rows)
        at = np.cumsum([0, *(len(part.keys) for part in parts[:-1])])
        return cls(
            np.concatenate([part.keys for part in parts]),
            np.concatenate([part.lengths for part in parts]),
            np.concatenate([part.long_at + first for part, first in zip(parts, at, strict=True)]),
            [token for part in parts for token in part.long_tokens],
            rows,
            np.concatenate([part.medium_at + first for part, first in zip(parts, at, strict=True)]),
            np.concatenate([part.words for part in parts]),
        )

    @classmethod
    def of(cls, split: Split, rows: np.ndarray | None = None) -> TokenKeys:
        padded = np.concatenate([split.data, np.zeros(8, dtype=np.uint8)])
        windows = np.ndarray(shape=(len(split.data) + 1,), dtype="<u8", buffer=padded, strides=(1,))

        keys = np.empty(len(split.starts), dtype=np.uint64)

        def piece(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            starts = split.starts[span[0] : span[1]]
            sizes = split.ends[span[0] : span[1]] - starts
            size = np.minimum(sizes, 8)  # 8: medium or long
            found = windows[starts]  # 8 bytes from each token's start
            found &= _SIZE_MASKS[size]
            found |= _SIZE_TAGS[size]
            medium = np.flatnonzero((size == 8) & (sizes < _MEDIUM_END))
            rest = sizes[medium] - 8
            words = np.empty((len(medium), 2), dtype=np.uint64)
            words[:, 0] = windows[starts[medium]]
            words[:, 1] = (windows[starts[medium] + 8] & _SIZE_MASKS[rest]) | (rest.astype(np.uint64) << np.uint64(56))
            found[medium] = _hash(words, 0)
            keys[span[0] : span[1]] = found  # each piece's arrays freed as it ends
            return medium + span[0], words, np.flatnonzero(sizes >= _MEDIUM_END) + span[0]

        pieces = NUMPY.map_chunks(piece, _token_pieces(len(split.starts)))
        if not pieces:
            empty = np.zeros(0, dtype=np.int64)
            return cls(keys, split.lengths, empty, [], rows)
        medium_at, words, long_at = (np.concatenate(parts) for parts in zip(*pieces, strict=True))
        starts = split.starts[long_at]
        long_tokens = _gather(split.data, starts, split.ends[long_at] - starts)
        return cls(keys, split.lengths, long_at, long_tokens, rows, medium_at, words)


def _token_pieces(n_tokens: int) -> list[tuple[int, int]]:
    """Ranges of at most ``_PIECE_TOKENS`` tokens covering 0..n_tokens, for ``map_chunks``."""
    return list(pairwise([*range(0, n_tokens, _PIECE_TOKENS), n_tokens]))


def ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The indices of the ranges ``starts[i]``, ..., ``starts[i] + sizes[i] - 1``, one after another."""
    at = ragged.starts(sizes)  # where each range lands
    indices = np.repeat(starts - at, sizes)
    indices += np.arange(len(indices))
    return indices


def _gather(data: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> list[bytes]:
    """The byte strings at ``starts`` of ``sizes``, cut from one buffer in a single split."""
    if len(starts) == 0:
        return []
    at = ragged.starts(sizes + 1)  # where each lands, a separator after each
    buffer = data[np.minimum(ranges(starts, sizes + 1), len(data) - 1)]
    buffer[at + sizes] = _SEPARATOR
    return buffer.tobytes().split(b"\xff")[:-1]


class KeyTable:
    """Distinct non-empty uint64 keys -> their index, as an open-addressing hash table (load <= 1/4).

    Keys are placed in the order ``placing`` gives (default: as given); where several race for a
    slot, the last placed wins it, so the keys looked up most often, placed last, sit in their home
    slot and most lookups need no probe."""

    def __init__(self, keys: np.ndarray, placing: np.ndarray | None = None):
        bits = max(int(4 * len(keys)).bit_length(), 4)
        self.shift, self.mask = np.uint64(64 - bits), (1 << bits) - 1
        self.slots = np.zeros(1 << bits, dtype=np.uint64)
        self.ids = np.full(1 << bits, UNKNOWN, dtype=np.int64)
        slot = self._home(keys)
        todo = np.arange(len(keys)) if placing is None else placing
        while len(todo):
            at = slot[todo]
            free = self.slots[at] == _EMPTY
            self.slots[at[free]] = keys[todo[free]]  # several keys may race for a slot: one wins
            placed = free.copy()
            placed[free] = self.slots[at[free]] == keys[todo[free]]
            self.ids[at[placed]] = todo[placed]
            todo = todo[~placed]
            slot[todo] = (slot[todo] + 1) & self.mask

    def _home(self, keys: np.ndarray) -> np.ndarray:
        home = keys * _MULTIPLIER
        home >>= self.shift
        return home.view(np.int64)  # below 2**bits

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        """The index of each key, ``UNKNOWN`` where absent."""
        slot = self._home(keys)
        held = self.slots[slot]
        result = self.ids[slot]  # right where the key is home, and where its slot is empty (UNKNOWN)
        todo = np.flatnonzero((held != keys) & (held != _EMPTY))  # a collision: probe on
        result[todo] = UNKNOWN
        while len(todo):
            at = (slot[todo] + 1) & self.mask
            slot[todo] = at
            held = self.slots[at]
            hit = held == keys[todo]
            result[todo[hit]] = self.ids[at[hit]]
            todo = todo[~hit & (held != _EMPTY)]
        return result


class Vocabulary:
    """Ids 0..size-1 for the distinct tokens of the references; other tokens are ``UNKNOWN``.

    A medium token's id is the id of its hash under ``salt`` (a salt under which no two distinct
    reference tokens share one), confirmed against the id's two words (``words``): a hypothesis
    token that shares a hash with a reference token but not its bytes is ``UNKNOWN``. Should no
    salt separate them, medium tokens are numbered through a dict of their words (``medium``)."""

    def __init__(
        self,
        long: dict[bytes, int],
        distinct: np.ndarray,
        salt: int = 0,
        medium: dict | None = None,
        placing: np.ndarray | None = None,
    ):
        """``placing``: the distinct keys from the rarest to the most frequent (``KeyTable``)."""
        self.long, self.salt, self.medium = long, salt, medium
        self.size = len(distinct)
        self.table = KeyTable(distinct, placing)
        self.words = np.zeros((0, 2), dtype=np.uint64)  # each medium token's words, at its id

    @classmethod
    def of(cls, tokens: TokenKeys) -> tuple[Vocabulary, np.ndarray]:
        """The vocabulary of reference tokens, and the ids of the tokens of the lines held (keys that
        are ids already, ``numbered``, are taken as they are)."""
        if tokens.numbered is not None:
            return NumberedVocabulary(tokens.numbered), tokens.keys.astype(np.int64)
        long = {token: number for number, token in enumerate(dict.fromkeys(tokens.long_tokens))}
        for salt in range(_SALTS + 1):
            medium = None
            if salt == _SALTS:  # about n^2 / 2^57 for each salt before: practically never
                medium = {pair: number for number, pair in enumerate(dict.fromkeys(map(tuple, tokens.words.tolist())))}
            fills = _fills(tokens, long, salt, medium)
            ordered = tokens.keys.copy()
            for at, values in fills:
                ordered[at] = values
            ordered.sort()
            first = (
                np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
                if len(ordered)
                else np.zeros(0, np.intp)
            )
            frequency = np.diff(first, append=len(ordered))
            vocabulary = cls(long, ordered[first], salt, medium, np.argsort(frequency))
            del ordered
            ids = vocabulary._lookup(tokens, fills)
            if not len(tokens.medium_at):
                break
            # Each medium token's words at its id: if one id holds two tokens, their hashes collided.
            at = ids[tokens.medium_at]
            vocabulary.words = np.zeros((vocabulary.size, 2), dtype=np.uint64)
            vocabulary.words[at] = tokens.words
            if np.array_equal(vocabulary.words[at], tokens.words):
                break
        return vocabulary, ids

    def __len__(self) -> int:
        return self.size

    def _lookup(self, tokens: TokenKeys, fills: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """The ids of the tokens' keys with ``fills`` (``_fills``) in place, piece by piece (no
        copy of all the keys)."""
        ids = np.empty(len(tokens.keys), dtype=np.int64)

        def piece(span: tuple[int, int]) -> None:
            keys = tokens.keys[span[0] : span[1]].copy()
            for at, values in fills:
                first, last = np.searchsorted(at, span)
                keys[at[first:last] - span[0]] = values[first:last]
            ids[span[0] : span[1]] = self.table.lookup(keys)

        NUMPY.map_chunks(piece, _token_pieces(len(ids)))
        return ids

    def encode(self, tokens: TokenKeys) -> tuple[np.ndarray, np.ndarray]:
        """Flat token ids of all lines (``UNKNOWN`` where not in the vocabulary) and their lengths."""
        ids = self._lookup(tokens, _fills(tokens, self.long, self.salt, self.medium))
        if len(tokens.medium_at):
            found = ids[tokens.medium_at]
            words = self.words[np.maximum(found, 0)] if len(self.words) else np.zeros_like(tokens.words)
            other = (found >= 0) & ((words[:, 0] != tokens.words[:, 0]) | (words[:, 1] != tokens.words[:, 1]))
            ids[tokens.medium_at[other]] = UNKNOWN  # the hash of a reference token, not its bytes
        return tokens.expand(ids), tokens.line_lengths()


class NumberedVocabulary(Vocabulary):
    """The vocabulary of tokens numbered before they were keyed (``TokenKeys.numbered``): keys
    0..size-1 are the reference tokens' ids, any larger key a token no reference has."""

    def __init__(self, size: int):  # no table: a key is its id
        self.size = size

    def encode(self, tokens: TokenKeys) -> tuple[np.ndarray, np.ndarray]:
        """Flat token ids of all lines (``UNKNOWN`` for a key past the references' ids) and their lengths."""
        if tokens.numbered is None:
            raise ValueError("a numbered vocabulary encodes numbered keys only")
        ids = tokens.keys.astype(np.int64)
        ids[tokens.keys >= self.size] = UNKNOWN
        return tokens.expand(ids), tokens.line_lengths()


def _numbered(found: Iterable, n: int, tag: np.uint64) -> np.ndarray:
    """Keys ``tag | number`` of ``n`` tokens from their numbers (-1: unnumbered, ``_EMPTY``)."""
    numbers = np.fromiter(found, dtype=np.int64, count=n)
    return np.where(numbers >= 0, tag | numbers.astype(np.uint64), _EMPTY)


def _fills(
    tokens: TokenKeys, long: dict[bytes, int], salt: int = 0, medium: dict | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The keys that differ from ``tokens.keys``, as (ascending token indices, keys): the long tokens'
    numbers (``_EMPTY`` if unnumbered) and the medium tokens' hashes under ``salt`` (or their
    numbers in ``medium``)."""
    fills = [(tokens.long_at, _numbered(map(long.get, tokens.long_tokens, repeat(-1)), len(tokens.long_tokens), _LONG))]
    if medium is not None:
        pairs = map(tuple, tokens.words.tolist())
        fills.append(
            (tokens.medium_at, _numbered(map(medium.get, pairs, repeat(-1)), len(tokens.medium_at), _NUMBERED))
        )
    elif salt:
        fills.append((tokens.medium_at, _hash(tokens.words, salt)))
    return fills
