"""BLEU's results: one score (``BLEUScore``) and every segment's scores at once (``SentenceScores``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...core.score import ScoreResult
from ...core.signature import Signature


@dataclass(frozen=True)
class BLEUScore(ScoreResult):
    """A BLEU result. ``counts``/``totals`` are the integer statistics (before any add-k),
    ``precisions`` are percentages as used by the formula."""

    score: float
    counts: list[int]
    totals: list[int]
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    signature: Signature = field(compare=False)
    name: str = "BLEU"

    @property
    def hyp_len(self) -> int:
        """The hypotheses' tokens (``sys_len``, sacrebleu's name, is the same number)."""
        return self.sys_len

    @property
    def ratio(self) -> float:
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @property
    def verbose(self) -> str:
        """``82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)``"""
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    # ``to_dict``: sacrebleu's attributes, without the name.
    dict_fields = ("counts", "totals", "precisions", "bp", "sys_len", "ref_len")
    dict_has_name = False


@dataclass(frozen=True)
class SentenceScores:
    """Every segment's BLEU: ``scores`` (0-100; a NumPy array, or a torch tensor on the input's
    device), ``precisions`` (segments x orders, percent), ``bp``, the per-segment ``stats`` and
    the ``signature``. ``result[i]`` (and iteration) gives segment i as a ``BLEUScore``."""

    scores: Any
    precisions: Any
    bp: Any
    stats: Any
    signature: Signature
    max_order: int = 4

    def __len__(self) -> int:
        return len(self.scores)

    def __getitem__(self, index: int) -> BLEUScore:
        order, stats = self.max_order, self.stats
        return BLEUScore(
            score=float(self.scores[index]),
            counts=stats.matches[index, :order].tolist(),
            totals=stats.totals[index, :order].tolist(),
            precisions=self.precisions[index].tolist(),
            bp=float(self.bp[index]),
            sys_len=int(stats.hyp_len[index]),
            ref_len=int(stats.ref_len[index]),
            signature=self.signature,
        )

    def __iter__(self) -> Iterator[BLEUScore]:
        return (self[index] for index in range(len(self)))
