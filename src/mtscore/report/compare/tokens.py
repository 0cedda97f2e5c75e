"""Several streams of tokenized segments (systems, references) as ids over one vocabulary, built
once for every word-level view of the report."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Encoded:
    """``ids[stream]``: the ids of a stream's tokens, segment after segment; ``lengths[stream]``:
    tokens per segment; ``words[id]``: the token."""

    ids: list[np.ndarray]
    lengths: list[np.ndarray]
    words: list[str]

    def segments(self, stream: int) -> np.ndarray:
        """The segment of each token of ``stream``."""
        lengths = self.lengths[stream]
        return np.repeat(np.arange(len(lengths)), lengths)


def encode(streams: list[list[list[str]]]) -> Encoded:
    """Number every token of every stream, in order of first appearance."""
    vocabulary: dict[str, int] = {}
    number = vocabulary.setdefault
    ids = [
        np.fromiter((number(token, len(vocabulary)) for line in stream for token in line), dtype=np.int64)
        for stream in streams
    ]
    lengths = [np.fromiter((len(line) for line in stream), dtype=np.int64, count=len(stream)) for stream in streams]
    return Encoded(ids, lengths, list(vocabulary))
