"""Map tokens to integer ids so that counting works on arrays, not strings; read token-id input.

Text arrives as token spans over its UTF-8 bytes (``tokenizers.spans``). Each token becomes one
64-bit key without a Python string: a token of at most 7 bytes is its bytes and its length packed
together (distinct tokens, distinct keys), a longer one is numbered through a dict. Keys map to
dense ids through an open-addressing hash table held in two arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, count, pairwise, repeat

import numpy as np

from .backend import NUMPY, is_tensor, lookup
from .errors import BleuInputError
from .tokenizers.spans import to_bytes, whitespace_spans

UNKNOWN = -1
_EMPTY = np.uint64(0)  # no token has this key: a packed token's length byte is 1..7 (0xFE for "")
_LONG = np.uint64(0xFF << 56)  # key of a long token: this tag | its number
_SEPARATOR = 0xFF  # a byte that UTF-8 never holds
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the key's top bits pick its slot
# By token size 0..7 (8: longer): the bytes a short token's key keeps, and its length byte.
_SIZE_MASKS = np.array([(1 << 8 * size) - 1 for size in range(8)] + [0], dtype=np.uint64)
_SIZE_TAGS = np.array([0xFE << 56] + [size << 56 for size in range(1, 8)] + [0], dtype=np.uint64)  # 0xFE: ""
_PIECE_BYTES = 1 << 20  # text is split in pieces of about this size, in cache
_PIECE_TOKENS = 1 << 18  # and tokens are keyed in pieces of this many
_DISTINCT_WORTH = 0.75  # tokenize distinct lines only when at most this share of the lines is distinct


@dataclass
class Split:
    """Tokens of a batch of lines as spans over the lines' UTF-8 bytes (joined by "\n")."""

    data: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    lengths: np.ndarray  # tokens per line

    def tokens(self) -> list[list[str]]:
        """Each line's tokens as strings."""
        raw = self.data.tobytes()
        words = [raw[a:b].decode("utf-8", "surrogatepass") for a, b in zip(self.starts.tolist(), self.ends.tolist())]
        bounds = np.concatenate([[0], np.cumsum(self.lengths)]).tolist()
        return [words[a:b] for a, b in pairwise(bounds)]


def join_lines(lines: list[str]) -> str:
    """Lines joined by "\n"; a newline inside a line becomes a space, so every "\n" ends a line."""
    text = "\n".join(lines)
    if text.count("\n") != max(len(lines) - 1, 0):
        text = "\n".join(line.replace("\n", " ") for line in lines)
    return text


def distinct_lines(lines: list) -> tuple[list, np.ndarray | None]:
    """The distinct lines (or other hashable items), first seen first, and each line's index among
    them; or ``(lines, None)`` when few lines repeat. References scored against many systems
    repeat, and are tokenized and counted once."""
    first_seen: dict = {}
    at = np.fromiter(map(first_seen.setdefault, lines, count()), dtype=np.int64, count=len(lines))
    if len(first_seen) > _DISTINCT_WORTH * len(lines):
        return lines, None
    number = np.cumsum(at == np.arange(len(lines))) - 1
    return list(first_seen), number[at]


def split_lines(lines: list[str], tokenizer, lowercase: bool = False) -> Split:
    """Tokenize ``lines`` (lowercased first if asked) into spans: at once for tokenizers that find
    spans on bytes (``join`` + ``spans``), else through the tokenizer's strings split on whitespace."""
    if lowercase:
        lines = [line.lower() for line in lines]
    if hasattr(tokenizer, "spans"):
        data, find = to_bytes(tokenizer.join(lines)), tokenizer.spans
    else:
        data, find = to_bytes(join_lines(tokenizer.batch([line.rstrip() for line in lines]))), whitespace_spans
    line_ends = np.flatnonzero(data == 10)
    # Lines never share a token, so pieces of whole lines are split apart, on a few threads.
    at = np.searchsorted(line_ends, np.arange(_PIECE_BYTES, len(data), _PIECE_BYTES))
    cuts = line_ends[at[at < len(line_ends)]]
    bounds = sorted({0, *cuts.tolist(), len(data)})

    def piece(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        starts, ends = find(data[span[0] : span[1]])
        return starts + span[0], ends + span[0]

    found = NUMPY.map_chunks(piece, list(pairwise(bounds)))
    starts = np.concatenate([s for s, _ in found]) if found else np.zeros(0, dtype=np.int64)
    ends = np.concatenate([e for _, e in found]) if found else np.zeros(0, dtype=np.int64)
    before = np.searchsorted(starts, np.append(line_ends, len(data)))  # tokens before each line's end
    lengths = np.diff(before, prepend=0) if len(lines) else starts[:0]
    return Split(data, starts, ends, lengths.astype(np.int64))


def split_tokens(segments: list[list[str]]) -> Split:
    """Already tokenized lines (lists of token strings) as spans."""
    words = [word.encode("utf-8", "surrogatepass") for word in chain.from_iterable(segments)]
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
    data = np.frombuffer(b"\xff".join(words), dtype=np.uint8)
    sizes = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    ends = np.cumsum(sizes + 1) - 1
    return Split(data, ends - sizes, ends, lengths)


@dataclass
class TokenKeys:
    """One uint64 key per token (``_EMPTY`` for the long ones until a vocabulary numbers them) of
    the lines held; with ``rows``, line i is held line ``rows[i]`` (repeated lines held once)."""

    keys: np.ndarray
    lengths: np.ndarray  # tokens per held line
    long_at: np.ndarray  # indices of the tokens longer than 7 bytes
    long_tokens: list[bytes]  # their bytes
    rows: np.ndarray | None = None

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
    def of(cls, split: Split, rows: np.ndarray | None = None) -> "TokenKeys":
        padded = np.concatenate([split.data, np.zeros(8, dtype=np.uint8)])
        windows = np.ndarray(shape=(len(split.data) + 1,), dtype="<u8", buffer=padded, strides=(1,))

        def piece(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
            starts = split.starts[span[0] : span[1]]
            size = np.minimum(split.ends[span[0] : span[1]] - starts, 8)  # 8: long
            keys = windows[starts]  # 8 bytes from each token's start
            keys &= _SIZE_MASKS[size]
            keys |= _SIZE_TAGS[size]
            return keys, np.flatnonzero(size == 8) + span[0]

        pieces = NUMPY.map_chunks(piece, _token_pieces(len(split.starts)))
        keys = np.concatenate([keys for keys, _ in pieces]) if pieces else np.zeros(0, dtype=np.uint64)
        long_at = np.concatenate([at for _, at in pieces]) if pieces else np.zeros(0, dtype=np.int64)
        starts = split.starts[long_at]
        return cls(keys, split.lengths, long_at, _gather(split.data, starts, split.ends[long_at] - starts), rows)


def _token_pieces(n_tokens: int) -> list[tuple[int, int]]:
    """Ranges of at most ``_PIECE_TOKENS`` tokens covering 0..n_tokens, for ``map_chunks``."""
    return list(pairwise([*range(0, n_tokens, _PIECE_TOKENS), n_tokens]))


def ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The indices of the ranges ``starts[i]``, ..., ``starts[i] + sizes[i] - 1``, one after another."""
    at = np.cumsum(sizes) - sizes  # where each range lands
    indices = np.repeat(starts - at, sizes)
    indices += np.arange(len(indices))
    return indices


def _gather(data: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> list[bytes]:
    """The byte strings at ``starts`` of ``sizes``, cut from one buffer in a single split."""
    if len(starts) == 0:
        return []
    at = np.cumsum(sizes + 1) - (sizes + 1)  # where each lands, a separator after each
    buffer = data[np.minimum(ranges(starts, sizes + 1), len(data) - 1)]
    buffer[at + sizes] = _SEPARATOR
    return buffer.tobytes().split(b"\xff")[:-1]


class KeyTable:
    """Distinct non-empty uint64 keys -> their index, as an open-addressing hash table (load <= 1/4)."""

    def __init__(self, keys: np.ndarray):
        bits = max(int(4 * len(keys)).bit_length(), 4)
        self.shift, self.mask = np.uint64(64 - bits), (1 << bits) - 1
        self.slots = np.zeros(1 << bits, dtype=np.uint64)
        self.ids = np.full(1 << bits, UNKNOWN, dtype=np.int64)
        slot = self._home(keys)
        todo = np.arange(len(keys))
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
        return ((keys * _MULTIPLIER) >> self.shift).astype(np.int64)

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        """The index of each key, ``UNKNOWN`` where absent."""
        slot = self._home(keys)
        held = self.slots[slot]
        hit = held == keys
        result = np.where(hit, self.ids[slot], UNKNOWN)
        todo = np.flatnonzero(~hit & (held != _EMPTY))  # a collision: probe on
        while len(todo):
            at = (slot[todo] + 1) & self.mask
            slot[todo] = at
            held = self.slots[at]
            hit = held == keys[todo]
            result[todo[hit]] = self.ids[at[hit]]
            todo = todo[~hit & (held != _EMPTY)]
        return result


class Vocabulary:
    """Ids 0..size-1 for the distinct tokens of the references; other tokens are ``UNKNOWN``."""

    def __init__(self, long: dict[bytes, int], distinct: np.ndarray):
        self.long = long
        self.size = len(distinct)
        self.table = KeyTable(distinct)

    @classmethod
    def of(cls, tokens: TokenKeys) -> tuple["Vocabulary", np.ndarray]:
        """The vocabulary of reference tokens, and the ids of the tokens of the lines held."""
        long = {token: number for number, token in enumerate(dict.fromkeys(tokens.long_tokens))}
        keys = _with_long_keys(tokens, long)
        ordered = np.sort(keys)
        distinct = ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])] if len(keys) else keys
        vocabulary = cls(long, distinct)
        return vocabulary, vocabulary._lookup(keys)

    def __len__(self) -> int:
        return self.size

    def _lookup(self, keys: np.ndarray) -> np.ndarray:
        found = NUMPY.map_chunks(lambda span: self.table.lookup(keys[span[0] : span[1]]), _token_pieces(len(keys)))
        return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)

    def encode(self, tokens: TokenKeys) -> tuple[np.ndarray, np.ndarray]:
        """Flat token ids of all lines (``UNKNOWN`` where not in the vocabulary) and their lengths."""
        return tokens.expand(self._lookup(_with_long_keys(tokens, self.long))), tokens.line_lengths()


def _with_long_keys(tokens: TokenKeys, long: dict[bytes, int]) -> np.ndarray:
    """The tokens' keys with the long tokens' numbers filled in (``_EMPTY`` if unnumbered)."""
    keys = tokens.keys.copy()
    numbers = np.fromiter(map(long.get, tokens.long_tokens, repeat(-1)), dtype=np.int64, count=len(tokens.long_tokens))
    keys[tokens.long_at] = np.where(numbers >= 0, _LONG | numbers.astype(np.uint64), _EMPTY)
    return keys


def is_token_ids(batch) -> bool:
    """Token ids rather than text: an array or tensor, or a list whose items are sequences of ints."""
    if isinstance(batch, np.ndarray) or is_tensor(batch):
        return True
    if isinstance(batch, (str, bytes)) or not isinstance(batch, Sequence):
        return False
    first = next((item for item in batch if item is not None), None)
    return isinstance(first, (np.ndarray, Sequence)) and not isinstance(first, (str, bytes)) or is_tensor(first)


def _check_integer(array, what: str) -> None:
    dtype = array.dtype
    if is_tensor(array):
        integer = not (dtype.is_floating_point or dtype.is_complex) and str(dtype) != "torch.bool"
    else:
        integer = dtype.kind in "iu"
    if not integer:
        raise BleuInputError(f"{what} must hold integer token ids, got dtype {dtype}")


def id_rows(batch, pad_id: int | None, ops, what: str) -> tuple:
    """Flat ids, lengths and presence of a batch of id sequences: a 2-D array or tensor (rows
    are segments; every ``pad_id`` is dropped) or a list of int sequences (``None``: missing)."""
    if isinstance(batch, np.ndarray) or is_tensor(batch):
        if batch.ndim != 2:
            raise BleuInputError(f"{what} must be a 2-D array of token ids (segments x positions), got {batch.ndim}-D")
        _check_integer(batch, what)
        rows = ops.asarray(batch)
        present = np.ones(len(rows), dtype=bool)
        if pad_id is None:
            return rows.reshape(-1), ops.full(len(rows), rows.shape[1]), present
        keep = rows != pad_id
        return rows[keep], keep.sum(1), present
    present = np.array([row is not None for row in batch], dtype=bool)
    rows = [ops.asarray(np.zeros(0, dtype=np.int64)) if row is None else _as_row(row, ops, what, i)
            for i, row in enumerate(batch)]
    ids = ops.concat(rows) if rows else ops.asarray(np.zeros(0, dtype=np.int64))
    lengths = ops.asarray([len(row) for row in rows])
    if pad_id is not None:
        keep = ids != pad_id
        segment = ops.repeat(ops.arange(len(rows)), lengths)
        ids, lengths = ids[keep], ops.group_sum(segment, keep, len(rows))
    return ids, lengths, present


def _as_row(row, ops, what: str, index: int):
    if is_tensor(row):
        array = row
    else:
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise BleuInputError(f"{what}, segment {index} is {type(row).__name__}, expected a sequence of int ids")
        array = np.asarray(row) if len(row) else np.zeros(0, dtype=np.int64)
    if array.ndim != 1:
        raise BleuInputError(f"{what}, segment {index} must be a flat sequence of int ids")
    _check_integer(array, f"{what}, segment {index}")
    return ops.asarray(array)


def encode_ids(ids, table, ops):
    """Raw token ids as their index in the sorted reference ``table`` (``UNKNOWN`` where absent);
    through a ``range`` table, the ids themselves (counting ignores ids outside it)."""
    if isinstance(table, range):
        return ids
    index, found = lookup(ops, table, ids)
    index[~found] = UNKNOWN
    return index
