"""Lines to token spans: every token as a (start, end) pair over the lines' UTF-8 bytes.

Tokenizers that find spans on bytes (13a, none) split a whole batch at once; the others give
strings that are split on whitespace. Pieces of whole lines are split on a few threads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain, pairwise
from typing import TypeVar

import numpy as np

from ..threads import map_threads
from .spans import whitespace_spans

_PIECE_BYTES = 1 << 20  # text is split in pieces of about this size, in cache
Piece = TypeVar("Piece")


@dataclass
class Split:
    """Tokens of a batch of lines as spans over the lines' UTF-8 bytes (joined by "\n"); the offsets
    are int32 below 2 GiB of text."""

    data: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    lengths: np.ndarray  # tokens per line

    def tokens(self) -> list[list[str]]:
        """Each line's tokens as strings."""
        raw = self.data.tobytes()
        spans = zip(self.starts.tolist(), self.ends.tolist(), strict=True)
        words = [raw[a:b].decode("utf-8", "surrogatepass") for a, b in spans]
        bounds = np.concatenate([[0], np.cumsum(self.lengths)]).tolist()
        return [words[a:b] for a, b in pairwise(bounds)]


def join_lines(lines: list[str]) -> str:
    """Lines joined by "\n"; a newline inside a line becomes a space, so every "\n" ends a line."""
    text = "\n".join(lines)
    if text.count("\n") != max(len(lines) - 1, 0):
        text = "\n".join(line.replace("\n", " ") for line in lines)
    return text


def split_lines(lines: list[str], tokenizer, lowercase: bool = False) -> Split:
    """Tokenize ``lines`` (lowercased first if asked) into spans: at once for tokenizers that find
    spans on bytes (``join`` + ``spans``), else through the tokenizer's strings split on whitespace."""
    data, found = map_pieces(lines, tokenizer, lowercase, _offsets)
    if not found:
        empty = np.zeros(0, dtype=np.int32)
        return Split(data, empty, empty, np.zeros(0, dtype=np.int64))
    starts, ends, lengths = (np.concatenate(parts) for parts in zip(*found, strict=True))
    return Split(data, starts, ends, lengths)


def _offsets(piece: Split, at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A piece's spans as offsets into the whole text (int32 below 2 GiB: half the memory), and its
    lines' token counts."""
    offset = np.int32 if at + len(piece.data) < 1 << 31 else np.int64
    starts, ends = piece.starts.astype(offset), piece.ends.astype(offset)
    starts += at
    ends += at
    return starts, ends, piece.lengths


def map_pieces(
    lines: list[str], tokenizer, lowercase: bool, function: Callable[[Split, int], Piece]
) -> tuple[np.ndarray, list[Piece]]:
    """The lines' UTF-8 text (as ``split_lines`` tokenizes it), and ``function`` of each piece of
    whole lines as its own ``Split`` (offsets within the piece) and where the piece starts, in
    order, on a few threads. Lines never share a token, so each piece (cut after a newline) is
    tokenized apart, counting its own lines' tokens; no lines, no pieces."""
    if lowercase:
        lines = [line.lower() for line in lines]
    if hasattr(tokenizer, "join_bytes"):
        raw, find = tokenizer.join_bytes(lines), tokenizer.spans
    elif hasattr(tokenizer, "spans"):
        raw, find = tokenizer.join(lines).encode("utf-8", "surrogatepass"), tokenizer.spans
    else:
        text = join_lines(tokenizer.batch([line.rstrip() for line in lines]))
        raw, find = text.encode("utf-8", "surrogatepass"), whitespace_spans
    data = np.frombuffer(raw, dtype=np.uint8)
    bounds = [0]
    # A piece ends after a newline, never the text's last byte (an empty piece would count one more line).
    while (
        bounds[-1] + _PIECE_BYTES < len(data)
        and 0 <= (cut := raw.find(b"\n", bounds[-1] + _PIECE_BYTES)) < len(data) - 1
    ):
        bounds.append(cut + 1)
    bounds.append(len(data))

    def piece(span: tuple[int, int]) -> Piece:
        text = data[span[0] : span[1]]
        starts, ends = find(text)
        line_ends = np.flatnonzero(text == 10)  # every line of a piece but the last one's ends with one
        if span[1] == len(data):
            line_ends = np.append(line_ends, len(text))
        counts = np.diff(np.searchsorted(starts, line_ends), prepend=0)
        return function(Split(text, starts, ends, counts), span[0])

    return data, map_threads(piece, list(pairwise(bounds))) if lines else []


def split_tokens(segments: list[list[str]]) -> Split:
    """Already tokenized lines (lists of token strings) as spans."""
    words = [word.encode("utf-8", "surrogatepass") for word in chain.from_iterable(segments)]
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
    data = np.frombuffer(b"\xff".join(words), dtype=np.uint8)
    sizes = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    ends = np.cumsum(sizes + 1) - 1
    return Split(data, ends - sizes, ends, lengths)
