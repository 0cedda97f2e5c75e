"""PERM-BOTH: whether one metric agrees with humans significantly better than another, and the
significance clusters it yields, as mt-metrics-eval's ``PermutationSigDiff`` and ``AssignRanks``
define them (Deutsch et al., 2021).

Both metrics' scores are standardised (z-scores); each draw swaps every score between the two metrics
with probability 1/2 and recomputes the statistic for both mixtures. The p-value is the share of draws
whose difference is at least the observed one. Draws come in blocks, each block one array operation,
and the test stops early at a block's end once the p-value is clearly small or clearly large.
``perm_both_pairs`` is the variant for acc-t that swaps pairwise comparisons rather than scores.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .correlations import RowStatistic


@dataclass(frozen=True)
class PermutationSettings:
    """The draws of a PERM-BOTH test: mt-metrics-eval's ``tasks.Task`` defaults.

    Attributes:
        k: The most draws.
        block_size: Draws per block; early stopping is decided at the end of a block.
        early_min: Stop when the p-value so far is below this.
        early_max: Stop when the p-value so far is above this.
    """

    k: int = 1000
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5


@dataclass(frozen=True)
class PermutationResult:
    """p-value that the better metric is not better, the observed difference, and the draws made."""

    pvalue: float
    delta: float
    draws: int


def standardised(scores: np.ndarray) -> np.ndarray:
    """z-scores (population standard deviation); a constant vector becomes zeros."""
    centred = scores - scores.mean()
    spread = scores.std()
    return centred / spread if spread > 0 else centred


def perm_both(
    statistic: RowStatistic,
    gold: np.ndarray,
    better: np.ndarray,
    worse: np.ndarray,
    settings: PermutationSettings,
    rng: np.random.Generator,
) -> PermutationResult:
    """PERM-BOTH test of ``statistic(gold, better) > statistic(gold, worse)``.

    Args:
        statistic: Scores rows of metric scores against the gold vector (``correlations.*_rows``);
            a NaN value counts as 0, as in mt-metrics-eval.
        gold: The gold scores, rated entries only.
        better: The scores of the metric with the higher statistic, same entries.
        worse: The scores of the other metric.
        settings: Draws and early stopping.
        rng: The source of the draws.

    Returns:
        The p-value, the observed difference and the number of draws made.
    """
    better, worse = standardised(better), standardised(worse)

    def scored(rows: np.ndarray) -> np.ndarray:
        return np.nan_to_num(statistic(gold, rows), nan=0.0)

    observed = scored(np.stack([better, worse]))
    delta = float(observed[0] - observed[1])

    def hits(size: int) -> np.ndarray:
        swap = rng.integers(0, 2, size=(size, len(gold))).astype(bool)
        mixed_worse = np.where(swap, better, worse)  # the "worse" metric's scores with some swapped in
        mixed_better = np.where(swap, worse, better)
        return scored(mixed_better) - scored(mixed_worse) >= delta

    pvalue, draws = _draw(hits, settings, stop_after_a_hit_only=False)
    return PermutationResult(pvalue, delta, draws)


def perm_both_pairs(
    better_agrees: np.ndarray,
    worse_agrees: np.ndarray,
    pair_items: np.ndarray,
    settings: PermutationSettings,
    rng: np.random.Generator,
) -> PermutationResult:
    """PERM-BOTH over pairwise comparisons, for acc-t: mt-metrics-eval's ``PairwisePermutationSigDiff``,
    the test its WMT23 and later task sets run for ``KendallWithTiesOpt`` (``perm_test='pairs'``).

    Each metric keeps its own tie threshold; a draw swaps each pair's comparison (agrees with the gold
    or not) between the two metrics with probability 1/2, and the statistic is the average over items
    of each item's share of agreeing pairs. Only pairs where the metrics disagree can change the
    difference, so only they are drawn. Sums are exact (integers over a common denominator) where they
    fit, so a draw equal to the observed difference counts. As there, early stopping is checked at a
    block's end only when that block's last draw reached the observed difference.

    Args:
        better_agrees: For each pair, whether the metric with the higher acc-t agrees with the gold.
        worse_agrees: The same for the other metric, same pairs.
        pair_items: The item of each pair.
        settings: Draws and early stopping.
        rng: The source of the draws.

    Returns:
        The p-value, the observed difference and the number of draws made.
    """
    _, item_of_pair, pairs_per_item = np.unique(pair_items, return_inverse=True, return_counts=True)
    difference = better_agrees.astype(np.int64) - worse_agrees.astype(np.int64)
    moving = np.flatnonzero(difference)
    common = 1
    for count in np.unique(pairs_per_item):
        common = math.lcm(common, int(count))
    item_pairs = pairs_per_item[item_of_pair[moving]]
    if common * (len(moving) + 1) < 2**53:  # float sums of these integers are exact
        weights = (difference[moving] * (common // item_pairs)).astype(np.float64)
        scale = float(common * len(pairs_per_item))
    else:
        weights, scale = difference[moving] / item_pairs, float(len(pairs_per_item))
    delta = float(weights.sum()) / scale

    def hits(size: int) -> np.ndarray:
        swap = rng.integers(0, 2, size=(size, len(moving))).astype(np.float64)
        # A swapped pair changes its sign in the difference: at least the observed one when the swapped
        # pairs' weights sum to at most 0.
        return swap @ weights <= 0.0

    pvalue, draws = _draw(hits, settings, stop_after_a_hit_only=True)
    return PermutationResult(pvalue, delta, draws)


def _draw(
    hits: Callable[[int], np.ndarray], settings: PermutationSettings, *, stop_after_a_hit_only: bool
) -> tuple[float, int]:
    """Make the draws block by block (``hits(size)``: whether each of ``size`` draws reached the observed
    difference) with early stopping; the p-value and the draws made."""
    at_least, draws = 0, 0
    while draws < settings.k:
        size = min(settings.block_size, settings.k - draws)
        block = hits(size)
        at_least += int(np.count_nonzero(block))
        draws += size
        if draws % settings.block_size == 0 and (block[-1] or not stop_after_a_hit_only):
            pvalue = at_least / draws
            if pvalue < settings.early_min or pvalue > settings.early_max:
                break
    return (at_least / draws if draws else 1.0), draws


def assign_ranks(pvalues: np.ndarray, threshold: float) -> list[int]:
    """Cluster ranks of metrics sorted by decreasing statistic: a metric starts a new cluster when a
    metric of the current cluster is significantly better (``pvalues[i, j]`` for ``i < j``: the p-value
    that metric ``j`` is as good as ``i``, at most ``threshold``)."""
    ranks, rank, start = [], 1, 0
    for column in range(len(pvalues)):
        if np.any(pvalues[start:column, column] <= threshold):
            rank += 1
            start = column
        ranks.append(rank)
    return ranks
