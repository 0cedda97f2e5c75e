"""The lengths BLEU compares: each segment's best-match reference length and the brevity penalty."""

from __future__ import annotations

import math

import numpy as np

from ...engine import libm


def closest_lengths(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Per segment, the reference length closest to the hypothesis length, ties to the shorter.

    ``ref_lengths`` and ``present`` have shape (streams, segments); absent references are ignored.
    """
    scale = int(ref_lengths.max(initial=0)) + 1
    distance = np.abs(hyp_lengths[None, :] - ref_lengths)
    # One integer orders by distance first, then by length.
    rank = np.where(present, distance * scale + ref_lengths, np.iinfo(np.int64).max)
    return rank.min(axis=0) % scale


def brevity_penalty(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """exp(1 - r/c) when the hypothesis is shorter than the reference, else 1 (0 for empty ones)."""
    sys_len = sys_len.astype(np.float64)
    short = (sys_len < ref_len) & (sys_len > 0)
    penalty = np.ones(np.shape(sys_len))
    # math.exp (the C library's) only where it is needed, as sacrebleu computes it
    penalty[short] = libm.exp(1.0 - np.broadcast_to(ref_len, np.shape(sys_len))[short] / sys_len[short])
    return np.where((sys_len < ref_len) & (sys_len <= 0), 0.0, penalty)


def nltk_brevity_penalty(ref_len: int, hyp_len: int) -> float | int:
    """One brevity penalty with NLTK's types: the int 1 when the hypothesis is longer, the int 0
    when it is empty, else ``math.exp(1 - ref_len / hyp_len)``."""
    if hyp_len > ref_len:
        return 1
    return 0 if hyp_len == 0 else math.exp(1 - ref_len / hyp_len)
