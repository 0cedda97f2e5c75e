"""Soft pairwise accuracy (WMT24; Thompson et al., 2024), as mt-metrics-eval's ``pce`` computes it.

For every pair of systems, a paired permutation test over the segments asks how confident the scores
are that the first system is better: the p-value is the share of sign flips of the segment scores under
which the difference of the two systems' sums is at least the observed one. Soft pairwise accuracy is one
minus the mean, over the pairs, of the absolute difference between the p-value the human scores give
and the one the metric gives. Like mt-metrics-eval, the sign flips are the same for humans and metric
(1,000 of them from NumPy's generator with seed 4), and the sums are computed in single precision, so
the figures agree with its own to the last digit.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError

PERMUTATIONS = 1000
SEED = 4


def sign_flips(segments: int, permutations: int = PERMUTATIONS, seed: int = SEED) -> np.ndarray:
    """``permutations`` rows of ``+1``/``-1``, one per segment, in single precision: mt-metrics-eval's draws."""
    flips = np.random.default_rng(seed).random(size=(permutations, segments), dtype=np.float32)
    np.rint(flips, out=flips, casting="same_kind")
    flips *= 2.0
    flips -= 1.0
    return flips


def pairwise_pvalues(scores: np.ndarray, flips: np.ndarray) -> np.ndarray:
    """For each pair ``i < j`` of systems (rows of ``scores``, segments in columns), the p-value that system
    ``i`` is better than ``j``: the share of rows of ``flips`` under which the flipped difference of the
    sums is at least the observed difference. In the order of ``np.triu_indices``."""
    single = scores.astype(np.float32)
    totals = np.sum(single, axis=1)
    flipped = np.matmul(flips, single.T)  # permutations x systems
    first, second = np.triu_indices(len(scores), 1)
    null = flipped[:, first] - flipped[:, second]
    return np.sum(null >= totals[first] - totals[second], axis=0) / len(flips)


def soft_pairwise_accuracy(gold: np.ndarray, metric: np.ndarray) -> float:
    """One minus the mean absolute difference of the human and the metric pairwise p-values.

    Args:
        gold: Human segment scores, systems x segments, NaN where unrated.
        metric: Metric segment scores, systems x segments.

    Returns:
        The soft pairwise accuracy, between 0 and 1.

    Raises:
        InputError: systems whose rated segments differ (the permutation test pairs their segments),
            or no rated segment.
    """
    rated = ~np.isnan(gold)
    if not np.all(rated == rated[0]):
        counts = sorted({int(row.sum()) for row in rated})
        raise InputError(
            "soft pairwise accuracy pairs the segments of every two systems, so every system needs human "
            f"scores for the same segments; here the systems have {', '.join(map(str, counts))} rated segments"
        )
    if not rated[0].any():
        raise InputError("soft pairwise accuracy needs rated segments; none has a human score")
    flips = sign_flips(int(rated[0].sum()))
    gold_pvalues = pairwise_pvalues(gold[:, rated[0]], flips)
    metric_pvalues = pairwise_pvalues(metric[:, rated[0]], flips)
    return float(1.0 - np.mean(np.abs(gold_pvalues - metric_pvalues)))


def soft_accuracy_rows(gold: np.ndarray, rows: np.ndarray, systems: int) -> np.ndarray:
    """Soft pairwise accuracy of each row of ``rows`` against ``gold``, both packed system by system
    (``systems`` equal blocks of segments, every entry rated): the statistic of a PERM-BOTH test, all
    rows in one array operation.

    Args:
        gold: The human scores, rated entries only, system by system.
        rows: Metric scores, one packed vector per row, entries as ``gold``.
        systems: The number of systems.

    Returns:
        One soft pairwise accuracy per row.
    """
    segments = len(gold) // systems
    flips = sign_flips(segments)
    gold_pvalues = pairwise_pvalues(gold.reshape(systems, segments), flips)
    single = rows.reshape(len(rows), systems, segments).astype(np.float32)
    totals = np.sum(single, axis=2)
    # One matrix product for all rows: (rows x systems) x segments times segments x permutations.
    flipped = (single.reshape(-1, segments) @ flips.T).reshape(len(rows), systems, len(flips))
    first, second = np.triu_indices(systems, 1)
    null = flipped[:, first, :] - flipped[:, second, :]
    observed = (totals[:, first] - totals[:, second])[:, :, None]
    metric_pvalues = np.sum(null >= observed, axis=2) / len(flips)
    return 1.0 - np.mean(np.abs(gold_pvalues[None, :] - metric_pvalues), axis=1)
