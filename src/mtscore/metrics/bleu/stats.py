"""``Stats``: BLEU's sufficient statistics per segment, with named columns over ``Statistics``.

Each row is sacrebleu's layout: hypothesis length, closest reference length, clipped n-gram
matches per order, hypothesis n-grams per order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.stats import Statistics
from ...engine.ngrams import ngram_totals
from ...errors import InputError


class Stats(Statistics):
    """Per-segment clipped n-gram ``matches`` and hypothesis n-gram ``totals`` (segments x orders),
    hypothesis lengths ``hyp_len`` and closest reference lengths ``ref_len`` (segments)."""

    def __init__(
        self, matches: Any, totals: Any, hyp_len: Any, ref_len: Any, settings: Mapping[str, str] | None = None
    ):
        matches, totals, hyp_len, ref_len = (np.asarray(a, dtype=np.int64) for a in (matches, totals, hyp_len, ref_len))
        if matches.ndim != 2 or matches.shape != totals.shape:
            raise InputError(f"matches {matches.shape} and totals {totals.shape} must be equal 2-D shapes")
        if hyp_len.shape != (len(matches),) or ref_len.shape != (len(matches),):
            raise InputError("hyp_len and ref_len need one entry per segment")
        super().__init__(np.column_stack([hyp_len, ref_len, matches, totals]), settings)
        self._check()

    def _check(self) -> None:
        if (self.matches > self.totals).any() or (self.matrix < 0).any():
            raise InputError("statistics must be non-negative with matches <= totals")

    @classmethod
    def from_matrix(cls, matrix: Any, settings: Mapping[str, str] | None = None) -> Stats:
        """Statistics in sacrebleu's layout (``to_matrix``)."""
        stats = cls.__new__(cls)
        Statistics.__init__(stats, matrix, settings)
        if stats.matrix.shape[1] < 4 or stats.matrix.shape[1] % 2:
            raise InputError(f"BLEU statistics have 2 + 2 * order columns, got {stats.matrix.shape[1]}")
        stats._check()
        return stats

    @classmethod
    def empty(cls, max_order: int = 4) -> Stats:
        """Statistics of no segments."""
        return cls.from_matrix(np.zeros((0, 2 + 2 * max_order), dtype=np.int64))

    @property
    def max_order(self) -> int:
        return (self.matrix.shape[1] - 2) // 2

    @property
    def hyp_len(self) -> np.ndarray:
        return self.matrix[:, 0]

    @property
    def ref_len(self) -> np.ndarray:
        return self.matrix[:, 1]

    @property
    def matches(self) -> np.ndarray:
        return self.matrix[:, 2 : 2 + self.max_order]

    @property
    def totals(self) -> np.ndarray:
        return self.matrix[:, 2 + self.max_order :]


def check_totals(stats: Stats) -> None:
    """Raise ``InputError`` unless each segment's n-gram totals are those of its hypothesis length
    (L tokens hold max(L - n + 1, 0) n-grams of order n)."""
    expected = ngram_totals(stats.hyp_len, stats.max_order)
    wrong = np.flatnonzero((stats.totals != expected).any(axis=1))
    if len(wrong):
        segment = int(wrong[0])
        raise InputError(
            f"BLEU statistics of segment {segment}: n-gram totals {stats.totals[segment].tolist()} do not fit its "
            f"hypothesis length {int(stats.hyp_len[segment])} (expected {expected[segment].tolist()})"
        )
