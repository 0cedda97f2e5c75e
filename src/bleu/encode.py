"""Map tokens to integer ids so that counting works on arrays, not strings."""

from __future__ import annotations

from itertools import chain, count, repeat

import numpy as np

UNKNOWN = -1


def build_vocabulary(segments: list[list[str]]) -> dict[str, int]:
    """Ids 0..V-1 for every distinct token, in order of first appearance."""
    return dict(zip(dict.fromkeys(chain.from_iterable(segments)), count()))


def encode(segments: list[list[str]], vocabulary: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Flat token ids of all segments (``UNKNOWN`` where not in the vocabulary) and their lengths."""
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
    total = int(lengths.sum())
    tokens = chain.from_iterable(segments)
    ids = np.fromiter(map(vocabulary.get, tokens, repeat(UNKNOWN)), dtype=np.int64, count=total)
    return ids, lengths
