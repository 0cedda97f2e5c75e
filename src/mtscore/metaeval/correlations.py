"""Agreement between metric and human scores, with mt-metrics-eval's exact definitions, in NumPy.

Gold (human) scores are float arrays in which NaN marks an unrated score (mt-metrics-eval's ``None``):
such entries are left out in tandem from the metric's scores before anything is computed. Where
scipy would answer NaN (a constant vector, fewer than two scores), mt-metrics-eval's averaging drops
the value and answers 0; ``correlation`` does the same. The ``*_rows`` functions score many metric
vectors against one gold vector at once (the draws of a permutation test).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError

RowStatistic = Callable[[np.ndarray, np.ndarray], np.ndarray]


def rated(gold: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``gold`` and ``metric`` without the entries whose gold score is NaN (unrated)."""
    keep = ~np.isnan(gold)
    return gold[keep], metric[keep]


def correlation(statistic: RowStatistic, gold: np.ndarray, metric: np.ndarray) -> float:
    """``statistic`` of the rated entries, or 0 where it is undefined (mt-metrics-eval's averaging)."""
    gold, metric = rated(np.asarray(gold, dtype=np.float64), np.asarray(metric, dtype=np.float64))
    if len(gold) < 2:
        return 0.0
    value = float(statistic(gold, metric[None, :])[0])
    return 0.0 if math.isnan(value) else value


def pearson_rows(gold: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Pearson's r of ``gold`` with each row of ``rows`` (NaN where either is constant)."""
    centred_gold = gold - gold.mean()
    centred = rows - rows.mean(axis=1, keepdims=True)
    gold_norm = np.linalg.norm(centred_gold)
    norms = np.linalg.norm(centred, axis=1)
    constant = (gold_norm == 0) | (norms == 0) | _constant_rows(rows) | _constant_rows(gold[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        values = (centred / norms[:, None]) @ (centred_gold / gold_norm)
    return np.where(constant, np.nan, np.clip(values, -1.0, 1.0))


def _constant_rows(rows: np.ndarray) -> np.ndarray:
    return np.all(rows == rows[:, :1], axis=1)


def average_ranks(rows: np.ndarray) -> np.ndarray:
    """The rank of each entry within its row, ties sharing their average rank (from 1), as scipy's rankdata."""
    rows = np.atleast_2d(rows)
    order = np.argsort(rows, axis=1, kind="mergesort")
    ordered = np.take_along_axis(rows, order, axis=1)
    n = rows.shape[1]
    new_value = np.ones_like(ordered, dtype=bool)
    new_value[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    # For each sorted position: where its run of equal values starts and ends (exclusive).
    positions = np.broadcast_to(np.arange(n), ordered.shape)
    starts = np.maximum.accumulate(np.where(new_value, positions, 0), axis=1)
    run_end = np.ones_like(new_value)
    run_end[:, :-1] = new_value[:, 1:]
    ends = np.flip(np.minimum.accumulate(np.flip(np.where(run_end, positions + 1, n), axis=1), axis=1), axis=1)
    sorted_ranks = (starts + 1 + ends) / 2.0
    ranks = np.empty_like(sorted_ranks)
    np.put_along_axis(ranks, order, sorted_ranks, axis=1)
    return ranks


def spearman_rows(gold: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Spearman's rho (Pearson's r of the average ranks) of ``gold`` with each row of ``rows``."""
    values = pearson_rows(average_ranks(gold[None, :])[0], average_ranks(rows))
    return np.where(_constant_rows(rows) | _constant_rows(gold[None, :]), np.nan, values)


def _pair_signs(values: np.ndarray) -> np.ndarray:
    """The sign of every difference ``values[..., i] - values[..., j]`` for ``i < j``, flattened per row."""
    upper_i, upper_j = np.triu_indices(values.shape[-1], 1)
    return np.sign(values[..., upper_i] - values[..., upper_j])


def kendall_rows(gold: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of ``gold`` with each row of ``rows``, from every pair (for short vectors: systems)."""
    gold_signs = _pair_signs(gold)
    signs = _pair_signs(rows)
    untied_gold = np.count_nonzero(gold_signs)
    untied = np.count_nonzero(signs, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = (signs @ gold_signs) / np.sqrt(untied.astype(np.float64)) / math.sqrt(untied_gold)
    return np.where((untied == 0) | (untied_gold == 0), np.nan, values)


def accuracy_rows(gold: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Pairwise accuracy of each row of ``rows``: the share of pairs ordered as ``gold`` orders them.
    A tie agrees only with a tie (a metric tie is wrong where the gold differs)."""
    agree, pairs = agreement_rows(gold, rows)
    return agree / pairs if pairs else np.full(len(rows), np.nan)


def agreement_rows(gold: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Agreeing pairs of each row of ``rows`` with ``gold`` and the number of pairs."""
    gold_signs = _pair_signs(gold)
    return (_pair_signs(rows) == gold_signs).sum(axis=1), len(gold_signs)


def kendall_tau_b(gold: np.ndarray, metric: np.ndarray) -> float:
    """Kendall's tau-b of two long vectors (segments) in O(n log n): scipy's ``kendalltau``.

    NaN where either vector is constant."""
    return kendall_variant(gold, metric, "b")


@dataclass(frozen=True)
class PairCounts:
    """How the pairs of two vectors compare: mt-metrics-eval's sufficient statistics of Kendall's tau."""

    concordant: int
    discordant: int
    metric_ties_only: int  # tied by the metric, not by the gold
    gold_ties_only: int
    both_tied: int


def pair_counts(gold: np.ndarray, metric: np.ndarray) -> PairCounts:
    """Concordant, discordant and tied pairs of ``gold`` and ``metric`` in O(n log n)."""
    n = len(gold)
    total = n * (n - 1) // 2
    order = np.lexsort((gold, metric))  # by metric, then gold
    metric_sorted, gold_sorted = metric[order], gold[order]
    gold_ties = _tied_pairs(np.sort(gold))
    metric_ties = _tied_pairs(metric_sorted)
    joint_start = np.r_[True, (metric_sorted[1:] != metric_sorted[:-1]) | (gold_sorted[1:] != gold_sorted[:-1])]
    joint_ties = _run_pairs(joint_start)
    discordant = _inversions(np.unique(gold_sorted, return_inverse=True)[1].ravel())
    concordant = total - gold_ties - metric_ties + joint_ties - discordant
    return PairCounts(concordant, discordant, metric_ties - joint_ties, gold_ties - joint_ties, joint_ties)


KENDALL_VARIANTS = ("b", "c", "23", "acc23")


def kendall_variant(gold: np.ndarray, metric: np.ndarray, variant: str = "b") -> float:
    """A variant of Kendall's tau as mt-metrics-eval's ``KendallVariants`` (tie threshold 0).

    With C concordant and D discordant pairs, T_m pairs tied by the metric only, T_g by the gold
    only, T_b by both, N pairs and n entries: ``b`` = (C - D) / sqrt((N - T_m - T_b)(N - T_g - T_b));
    ``c`` = 2(C - D) / (n^2 (m - 1) / m), m the fewer distinct values of the two vectors; ``23`` =
    (C + T_b - D - T_m - T_g) / N; ``acc23`` = (C + T_b) / N (Deutsch et al., 2023).

    Args:
        gold: The gold scores (no NaN).
        metric: The metric scores.
        variant: ``b``, ``c``, ``23`` or ``acc23``.

    Returns:
        The statistic; NaN for ``b`` and ``c`` where either vector is constant (as there), and for
        fewer than two entries.

    Raises:
        InputError: an unknown variant.
    """
    if variant not in KENDALL_VARIANTS:
        raise InputError(f"unknown Kendall variant {variant!r}; variants: {', '.join(KENDALL_VARIANTS)}")
    gold, metric = np.asarray(gold, dtype=np.float64), np.asarray(metric, dtype=np.float64)
    if len(gold) < 2:
        return math.nan
    counts = pair_counts(gold, metric)
    total = len(gold) * (len(gold) - 1) // 2
    metric_ties = counts.metric_ties_only + counts.both_tied
    gold_ties = counts.gold_ties_only + counts.both_tied
    if variant in ("b", "c") and (metric_ties == total or gold_ties == total):
        return math.nan
    if variant == "b":
        return (counts.concordant - counts.discordant) / math.sqrt(total - metric_ties) / math.sqrt(total - gold_ties)
    if variant == "c":
        classes = min(len(np.unique(metric)), len(np.unique(gold)))
        return 2 * (counts.concordant - counts.discordant) / (len(gold) ** 2 * (classes - 1) / classes)
    agreeing = counts.concordant + counts.both_tied
    if variant == "23":
        return (agreeing - counts.discordant - counts.metric_ties_only - counts.gold_ties_only) / total
    return agreeing / total


AVERAGE_BY = ("none", "sys", "item")


def grouped(
    statistic: Callable[[np.ndarray, np.ndarray], float], gold: np.ndarray, metric: np.ndarray, average_by: str
) -> float:
    """``statistic`` over all rated entries (``none``), or averaged over systems (``sys``: each row) or
    items (``item``: each column), as mt-metrics-eval's ``AverageCorrelation`` (macro average).

    A group with fewer than two rated entries, or whose statistic is NaN (a constant vector), is
    left out of the average; with none left the answer is 0.

    Args:
        statistic: Gold and metric vectors (rated entries only) -> a value, NaN where undefined.
        gold: Human scores, systems x items, NaN where unrated.
        metric: Metric scores, systems x items.
        average_by: ``none``, ``sys`` or ``item``.

    Returns:
        The value or the average of the groups' values.

    Raises:
        InputError: an unknown grouping.
    """
    if average_by not in AVERAGE_BY:
        raise InputError(f"unknown grouping {average_by!r}; groupings: {', '.join(AVERAGE_BY)}")
    gold, metric = np.asarray(gold, dtype=np.float64), np.asarray(metric, dtype=np.float64)
    if average_by == "none":
        gold, metric = gold.reshape(1, -1), metric.reshape(1, -1)
    elif average_by == "item":
        gold, metric = gold.T, metric.T
    values = []
    for gold_row, metric_row in zip(gold, metric, strict=True):
        gold_row, metric_row = rated(gold_row, metric_row)
        if len(gold_row) < 2:
            continue
        value = statistic(gold_row, metric_row)
        if not math.isnan(value):
            values.append(value)
    return math.fsum(values) / len(values) if values else 0.0


def pearson(gold: np.ndarray, metric: np.ndarray) -> float:
    """Pearson's r, NaN where either vector is constant (mt-metrics-eval's rule)."""
    return float(pearson_rows(gold, metric[None, :])[0])


def spearman(gold: np.ndarray, metric: np.ndarray) -> float:
    """Spearman's rho, NaN where either vector is constant (mt-metrics-eval's rule)."""
    return float(spearman_rows(gold, metric[None, :])[0])


def _tied_pairs(sorted_values: np.ndarray) -> int:
    return _run_pairs(np.r_[True, sorted_values[1:] != sorted_values[:-1]])


def _run_pairs(run_starts: np.ndarray) -> int:
    """Pairs within runs of equal values, the runs starting where ``run_starts`` is True."""
    lengths = np.diff(np.r_[np.flatnonzero(run_starts), len(run_starts)]).astype(np.int64)
    return int((lengths * (lengths - 1) // 2).sum())


def _inversions(ranks: np.ndarray) -> int:
    """Pairs ``i < j`` with ``ranks[i] > ranks[j]``, by bottom-up merging in whole-array steps."""
    n = len(ranks)
    if n < 2:
        return 0
    size = 1 << (n - 1).bit_length()
    span = int(ranks.max()) + 2
    blocks = np.full(size, span - 1, dtype=np.int64)  # padding: larger than all, at the end: no inversion
    blocks[:n] = ranks
    count, width = 0, 1
    while width < size:
        pairs = blocks.reshape(-1, 2, width)
        offsets = (np.arange(len(pairs), dtype=np.int64) * span)[:, None]
        left = (pairs[:, 0, :] + offsets).ravel()  # sorted: each block sorted, offsets increasing
        right = pairs[:, 1, :] + offsets
        not_greater = np.searchsorted(left, right.ravel(), side="right").reshape(right.shape)
        not_greater -= (np.arange(len(pairs)) * width)[:, None]
        count += int((width - not_greater).sum())
        blocks = np.sort(pairs.reshape(-1, 2 * width), axis=1).ravel()
        width *= 2
    return count


@dataclass(frozen=True)
class TiesOptimised:
    """``KendallWithTiesOpt`` (acc23) grouped by item: the accuracy and its tie threshold."""

    accuracy: float
    epsilon: float
    items: int  # the items with at least one pair of rated systems


def acc_t(
    gold: np.ndarray, metric: np.ndarray, sample_rate: float = 1.0, rng: np.random.Generator | None = None
) -> TiesOptimised:
    """Pairwise accuracy with ties (acc23) averaged over items, with the metric tie threshold epsilon
    that maximises it (Deutsch et al., 2023): mt-metrics-eval's ``KendallWithTiesOpt`` with
    ``average_by='item'``.

    Within each item (segment), every pair of systems that both have a gold score counts: right when
    gold and metric order it alike or both tie it. Metric differences up to epsilon count as ties; the
    candidates are 0 and every metric difference, and the first that gives the highest average wins.
    With a sample rate below 1, each pair counts with that probability (a fresh draw per call), and
    only the items with a drawn pair are averaged, as there.

    Args:
        gold: Human scores, systems x items, NaN where unrated.
        metric: Metric scores, systems x items.
        sample_rate: The share of pairs drawn, in (0, 1].
        rng: The source of the draws; needed with a sample rate below 1.

    Returns:
        The accuracy, the threshold, and the number of items averaged.

    Raises:
        InputError: no item has two rated systems (or, sampling, no pair was drawn), or a sample rate
            outside (0, 1].
    """
    if not 0 < sample_rate <= 1:
        raise InputError(f"the sample rate of acc-t must be in (0, 1], got {sample_rate}")
    first, second = np.triu_indices(gold.shape[0], 1)
    gold_a, gold_b, metric_a, metric_b = gold[first], gold[second], metric[first], metric[second]
    valid = ~np.isnan(gold_a) & ~np.isnan(gold_b)
    if sample_rate < 1:
        if rng is None:
            raise InputError("acc-t with a sample rate below 1 needs a random generator")
        valid &= rng.random(valid.shape) <= sample_rate
    item_pairs = valid.sum(axis=0)
    items = np.flatnonzero(item_pairs)
    if len(items) == 0:
        raise InputError("no segment has human scores for two systems: acc-t has no pair to count")
    gold_tie = gold_a == gold_b
    metric_tie = metric_a == metric_b
    concordant = ((gold_a > gold_b) & (metric_a > metric_b)) | ((gold_a < gold_b) & (metric_a < metric_b))
    right = (concordant | (gold_tie & metric_tie)) & valid
    # Turning a pair into a metric tie makes a gold tie right and a concordant pair wrong.
    change = ((gold_tie & ~metric_tie).astype(np.int64) - concordant.astype(np.int64))[valid]
    pair_items = np.broadcast_to(np.arange(gold.shape[1]), valid.shape)[valid]
    differences = np.abs(metric_a - metric_b)[valid]
    order = np.argsort(differences, kind="stable")
    differences, change, pair_items = differences[order], change[order], pair_items[order]
    # The last pair of each run of equal differences closes a candidate threshold.
    closes = np.r_[differences[1:] != differences[:-1], True]
    thresholds = np.r_[0.0, differences[closes]]
    right_per_item = right.sum(axis=0)
    totals = _candidate_totals(right_per_item[items], item_pairs[items], change, item_pairs[pair_items], closes)
    best = int(np.argmax(totals[0]))
    return TiesOptimised(float(totals[1][best]) / len(items), float(thresholds[best]), len(items))


def pair_agreement(gold: np.ndarray, metric: np.ndarray, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """Whether the metric, its differences up to ``epsilon`` counting as ties, orders each pair of rated
    systems within an item as the gold does (both ahead the same way, or both tied): the pairwise
    comparisons that mt-metrics-eval's ``PairwisePermutationSigDiff`` swaps between two metrics.

    Args:
        gold: Human scores, systems x items, NaN where unrated.
        metric: Metric scores, systems x items.
        epsilon: The metric's tie threshold.

    Returns:
        For each pair of systems both rated in an item (pairs in a fixed order, the same for every
        metric): whether the metric agrees with the gold, and the item's index.
    """
    first, second = np.triu_indices(gold.shape[0], 1)
    gold_a, gold_b = gold[first], gold[second]
    valid = ~np.isnan(gold_a) & ~np.isnan(gold_b)
    difference = metric[first] - metric[second]
    metric_sign = np.where(np.abs(difference) <= epsilon, 0.0, np.sign(difference))
    with np.errstate(invalid="ignore"):
        gold_sign = np.sign(gold_a - gold_b)
    items = np.broadcast_to(np.arange(gold.shape[1]), valid.shape)
    return (metric_sign == gold_sign)[valid], items[valid]


def _candidate_totals(
    right: np.ndarray, pairs: np.ndarray, change: np.ndarray, change_pairs: np.ndarray, closes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For threshold 0 and each closing pair: a key to compare the candidates exactly, and the sum over
    items of each item's accuracy. Exact in integers over a common denominator when it fits in int64."""
    common = 1
    for value in np.unique(pairs):
        common = math.lcm(common, int(value))
    if common * (int(pairs.sum()) + 1) < 2**62:
        base = int((right * (common // pairs)).sum())
        steps = np.cumsum(change * (common // change_pairs))[closes]
        exact = np.r_[base, base + steps]
        return exact, exact / common
    fractions = np.r_[(right / pairs).sum(), (right / pairs).sum() + np.cumsum(change / change_pairs)[closes]]
    return fractions, fractions


# Groups with more pairs than this are scored one draw at a time in O(n log n); smaller ones all draws at once.
_PAIR_SIGN_LIMIT = 20_000


def kendall_variant_rows(gold: np.ndarray, rows: np.ndarray, variant: str = "b") -> np.ndarray:
    """``kendall_variant`` of ``gold`` with each row of ``rows``: every row at once from the signs of all
    pairs where the vectors are short, a row at a time (O(n log n) each) where they are long.

    Args:
        gold: The gold scores (no NaN).
        rows: Metric scores, one vector per row.
        variant: ``b``, ``c``, ``23`` or ``acc23``.

    Returns:
        One value per row, NaN where ``kendall_variant`` gives NaN.
    """
    n = len(gold)
    total = n * (n - 1) // 2
    if total > _PAIR_SIGN_LIMIT:
        return np.array([kendall_variant(gold, row, variant) for row in rows])
    if n < 2:
        return np.full(len(rows), np.nan)
    gold_signs = _pair_signs(gold).astype(np.int64)
    signs = _pair_signs(rows).astype(np.int64)
    difference = signs @ gold_signs  # concordant - discordant
    metric_ties = np.count_nonzero(signs == 0, axis=1)
    gold_ties = int(np.count_nonzero(gold_signs == 0))
    both_tied = np.count_nonzero((signs == 0) & (gold_signs == 0), axis=1)
    untied_either = total - metric_ties - gold_ties + both_tied  # concordant + discordant
    concordant, discordant = (untied_either + difference) // 2, (untied_either - difference) // 2
    undefined = (metric_ties == total) | (gold_ties == total)
    with np.errstate(divide="ignore", invalid="ignore"):
        if variant == "b":
            values = difference / np.sqrt(total - metric_ties) / math.sqrt(total - gold_ties)
        elif variant == "c":
            classes = np.minimum(_distinct_per_row(rows), len(np.unique(gold)))
            values = 2 * difference / (n**2 * (classes - 1) / classes)
        elif variant == "23":
            values = (concordant + both_tied - discordant - (metric_ties - both_tied) - (gold_ties - both_tied)) / total
            undefined = np.zeros(len(rows), dtype=bool)
        elif variant == "acc23":
            values = (concordant + both_tied) / total
            undefined = np.zeros(len(rows), dtype=bool)
        else:
            raise InputError(f"unknown Kendall variant {variant!r}; variants: {', '.join(KENDALL_VARIANTS)}")
    return np.where(undefined, np.nan, values)


def _distinct_per_row(rows: np.ndarray) -> np.ndarray:
    ordered = np.sort(rows, axis=1)
    return 1 + np.count_nonzero(ordered[:, 1:] != ordered[:, :-1], axis=1)


def group_sizes(gold: np.ndarray, average_by: str) -> tuple[np.ndarray, list[int]]:
    """The order and group sizes of the rated entries of a systems x items gold matrix, as
    mt-metrics-eval's ``_ReshapeAndFilter`` packs them for a permutation test.

    Args:
        gold: Human scores, systems x items, NaN where unrated.
        average_by: ``none`` (one group), ``sys`` (a group per system) or ``item`` (a group per item).

    Returns:
        Flat indices into ``gold`` of the rated entries, group after group, and the size of each group
        that has a rated entry.
    """
    flat: np.ndarray = np.arange(gold.size).reshape(gold.shape)
    if average_by == "item":
        flat, gold = flat.T, gold.T
    elif average_by == "none":
        flat, gold = flat.reshape(1, -1), gold.reshape(1, -1)
    keep = ~np.isnan(gold)
    sizes = [int(count) for count in keep.sum(axis=1) if count]
    return flat[keep], sizes


def grouped_rows(group_statistic: RowStatistic, sizes: list[int]) -> RowStatistic:
    """A row statistic that averages ``group_statistic`` over consecutive groups of ``sizes`` entries,
    as mt-metrics-eval's permutation test averages a grouped correlation: a group with fewer than two
    entries or a NaN value is left out; with none left the value is 0.

    Args:
        group_statistic: Gold vector and rows of metric scores of one group -> one value per row.
        sizes: The sizes of the consecutive groups.

    Returns:
        Gold vector and rows over all groups -> each row's average.
    """
    bounds = np.r_[0, np.cumsum(sizes)].astype(np.int64)

    def statistic(gold: np.ndarray, rows: np.ndarray) -> np.ndarray:
        totals = np.zeros(len(rows))
        counts = np.zeros(len(rows), dtype=np.int64)
        for start, end in itertools.pairwise(bounds):
            if end - start < 2:
                continue
            values = group_statistic(gold[start:end], rows[:, start:end])
            defined = ~np.isnan(values)
            totals += np.where(defined, values, 0.0)
            counts += defined
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(counts > 0, totals / counts, 0.0)

    return statistic
