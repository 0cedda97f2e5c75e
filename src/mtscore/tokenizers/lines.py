"""Lines to token spans: every token as a (start, end) pair over the lines' UTF-8 bytes.

Tokenizers that find spans on bytes (13a, none) split a whole batch at once; the others give
strings that are split on whitespace. Pieces of whole lines are split on a few threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, pairwise

import numpy as np

from ..threads import map_threads
from .spans import to_bytes, whitespace_spans

_PIECE_BYTES = 1 << 20  # text is split in pieces of about this size, in cache


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
    if lowercase:
        lines = [line.lower() for line in lines]
    if hasattr(tokenizer, "join_bytes"):
        data, find = np.frombuffer(tokenizer.join_bytes(lines), dtype=np.uint8), tokenizer.spans
    elif hasattr(tokenizer, "spans"):
        data, find = to_bytes(tokenizer.join(lines)), tokenizer.spans
    else:
        data, find = to_bytes(join_lines(tokenizer.batch([line.rstrip() for line in lines]))), whitespace_spans
    line_ends = np.flatnonzero(data == 10)
    # Lines never share a token, so pieces of whole lines are split apart, on a few threads.
    at = np.searchsorted(line_ends, np.arange(_PIECE_BYTES, len(data), _PIECE_BYTES))
    cuts = line_ends[at[at < len(line_ends)]]
    bounds = sorted({0, *cuts.tolist(), len(data)})

    offset = np.int32 if len(data) < 1 << 31 else np.int64  # half the memory for the usual corpus

    def piece(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        starts, ends = find(data[span[0] : span[1]])
        starts, ends = starts.astype(offset), ends.astype(offset)
        starts += span[0]
        ends += span[0]
        return starts, ends

    found = map_threads(piece, list(pairwise(bounds)))
    starts = np.concatenate([s for s, _ in found]) if found else np.zeros(0, dtype=offset)
    ends = np.concatenate([e for _, e in found]) if found else np.zeros(0, dtype=offset)
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
