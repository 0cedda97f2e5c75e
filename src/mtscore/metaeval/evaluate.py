"""A whole meta-evaluation: select the systems, score the metrics, compute every statistic and its
significance clusters, with the names of mt-metrics-eval's tasks.

The statistics (mt-metrics-eval's ``corr_fcn`` names):

- system level: ``pearson``, ``spearman``, ``kendall`` (tau-b) and ``accuracy`` (pairwise);
- segment level, over every (system, segment) with a gold score: ``pearson`` and ``kendall`` (tau-b);
- segment level, per segment then averaged: ``KendallWithTiesOpt`` (acc-t, WMT23's segment-level task).

Those are the default tasks. More can be asked for as ``(level, corr_fcn, avg_by, variant)``: segment-level
``pearson``, ``spearman``, ``kendall`` (variant ``b`` or ``c``) and ``KendallVariants`` (``b``, ``c``, ``23``,
``acc23``) grouped by ``none``, ``sys`` or ``item``; system-level ``KendallVariants``, and system-level
``pce``: soft pairwise accuracy (WMT24), computed from the segment scores of the systems that have
segment-level human scores, as mt-metrics-eval's ``pce`` task does.

PERM-BOTH clusters (``k`` draws at most) are computed as mt-metrics-eval's task sets compute them: for
the system-level statistics (soft pairwise accuracy included: its draws swap segment scores), for the
segment-level statistics grouped by system or item and for Pearson and Spearman without grouping
(``PermutationSigDiff`` with ``average_by``), and for acc-t by swapping pairwise comparisons
(``PairwisePermutationSigDiff``, WMT23's ``perm_test='pairs'``). Segment-level Kendall without grouping
ranks the metrics by value only (``rank`` is ``None``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .correlations import AVERAGE_BY as GROUPINGS
from .correlations import (
    KENDALL_VARIANTS,
    RowStatistic,
    acc_t,
    accuracy_rows,
    correlation,
    group_sizes,
    grouped,
    grouped_rows,
    kendall_rows,
    kendall_tau_b,
    kendall_variant,
    kendall_variant_rows,
    pair_agreement,
    pearson,
    pearson_rows,
    rated,
    spearman,
    spearman_rows,
)
from .data import EvalSet
from .scoring import MetricScores, read_scores_files, score_metric
from .selection import Selection, select
from .significance import PermutationResult, PermutationSettings, assign_ranks, perm_both, perm_both_pairs
from .soft_accuracy import soft_accuracy_rows, soft_pairwise_accuracy

# (level, statistic): the row statistic PERM-BOTH uses, or None where the statistic has no test here.
STATISTICS: dict[tuple[str, str], RowStatistic | None] = {
    ("sys", "pearson"): pearson_rows,
    ("sys", "spearman"): spearman_rows,
    ("sys", "kendall"): kendall_rows,
    ("sys", "accuracy"): accuracy_rows,
    ("seg", "pearson"): pearson_rows,
    ("seg", "kendall"): None,
    ("seg", "KendallWithTiesOpt"): None,
}
AVERAGE_BY = {"KendallWithTiesOpt": "item"}  # the others: "none"

# A task: (level, corr_fcn, avg_by, variant), variant None for a statistic without one.
Task = tuple[str, str, str, str | None]
# The tasks each statistic can be asked for beyond the defaults: level -> corr_fcn -> (groupings, variants).
_EXTRA_TASKS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str | None, ...]]]] = {
    "sys": {"KendallVariants": (("none",), KENDALL_VARIANTS), "pce": (("none",), (None,))},
    "seg": {
        "pearson": (GROUPINGS, (None,)),
        "spearman": (GROUPINGS, (None,)),
        "kendall": (GROUPINGS, (None, "b", "c")),
        "KendallVariants": (GROUPINGS, KENDALL_VARIANTS),
    },
}


def data_level(level: str, statistic: str) -> str:
    """The level of the scores a statistic reads: soft pairwise accuracy ranks systems from their segments."""
    return "seg" if statistic == "pce" else level


def statistic_task(spec: Sequence[str | None]) -> Task:
    """A task ``(level, corr_fcn, avg_by, variant)`` from ``(level, corr_fcn[, avg_by[, variant]])``.

    A statistic without grouping or variant keeps its default (``KendallWithTiesOpt``: by item).

    Raises:
        InputError: an unknown statistic, or a grouping or variant it does not have.
    """
    if not 2 <= len(spec) <= 4:
        raise InputError(f"a statistic is (level, corr_fcn[, avg_by[, variant]]), got {tuple(spec)}")
    level, corr_fcn = str(spec[0]), str(spec[1])
    avg_by = spec[2] if len(spec) > 2 and spec[2] is not None else AVERAGE_BY.get(corr_fcn, "none")
    variant = spec[3] if len(spec) > 3 else None
    if corr_fcn == "KendallVariants" and variant is None:
        variant = "b"
    if (level, corr_fcn) in STATISTICS and (avg_by, variant) == (AVERAGE_BY.get(corr_fcn, "none"), None):
        return (level, corr_fcn, avg_by, variant)
    groupings, variants = _EXTRA_TASKS.get(level, {}).get(corr_fcn, ((), ()))
    if avg_by not in groupings or variant not in variants:
        known = [f"{level}:{fcn}" for level, fcn in STATISTICS] + [
            f"{level}:{fcn}:{'|'.join(groups)}" + (":" + "|".join(v for v in kinds if v) if any(kinds) else "")
            for level, fcns in _EXTRA_TASKS.items()
            for fcn, (groups, kinds) in fcns.items()
        ]
        asked = f"{level}:{corr_fcn}:{avg_by}" + (f":{variant}" if variant else "")
        raise InputError(f"no statistic {asked}; known: {', '.join(known)}")
    return (level, corr_fcn, avg_by, variant)


@dataclass(frozen=True)
class Ranking:
    """The metrics ranked by one statistic (one of mt-metrics-eval's tasks).

    Attributes:
        level: ``sys`` or ``seg``.
        statistic: mt-metrics-eval's ``corr_fcn`` name: ``pearson``, ``spearman``, ``kendall``,
            ``accuracy`` or ``KendallWithTiesOpt``.
        avg_by: ``none`` or ``item`` (acc-t).
        values: Metric -> its value, by decreasing value (equal values by name).
        ranks: Metric -> its significance cluster (1 = best), or ``None`` without a test.
        pvalues: ``pvalues[i][j]`` (``i < j``, in the order of ``values``): the p-value that metric
            ``j`` is as good as metric ``i``; empty without a test.
        draws: The draws each test made, same layout as ``pvalues``.
        epsilons: acc-t's optimised metric tie threshold per metric (empty for other statistics).
        systems: The systems counted.
        variant: The Kendall variant (``b``, ``c``, ``23``, ``acc23``) where one was asked for.
        sample_rate: acc-t's share of pairs drawn to find its threshold (1: every pair).
    """

    level: str
    statistic: str
    avg_by: str
    values: dict[str, float]
    ranks: dict[str, int | None]
    pvalues: list[list[float]] = field(default_factory=list)
    draws: list[list[int]] = field(default_factory=list)
    epsilons: dict[str, float] = field(default_factory=dict)
    systems: tuple[str, ...] = ()
    variant: str | None = None
    sample_rate: float = 1.0

    @property
    def corr_fcn_args(self) -> dict[str, Any]:
        """mt-metrics-eval's extra arguments of the correlation function."""
        if self.statistic == "KendallWithTiesOpt":
            return {"sample_rate": self.sample_rate}
        return {"variant": self.variant} if self.variant is not None else {}


@dataclass(frozen=True)
class MetaEvaluation:
    """The result of ``evaluate``: the settings, the systems and every ranking."""

    test_set: str
    lp: str
    selections: dict[str, Selection]
    rankings: list[Ranking]
    permutation: PermutationSettings
    pval: float
    seed: int
    signatures: dict[str, str]
    # System level, per metric: the rated systems, the metric's scores and the human scores (``figure``).
    system_points: dict[str, tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...]]] = field(default_factory=dict)
    domain: str | None = None  # the only domain counted, or None for every segment

    def ranking(self, level: str, statistic: str, avg_by: str | None = None, variant: str | None = None) -> Ranking:
        """The ranking of ``statistic`` at ``level``, grouped by ``avg_by`` (default: the statistic's
        default grouping), of Kendall ``variant`` where one was asked for."""
        avg_by = avg_by if avg_by is not None else AVERAGE_BY.get(statistic, "none")
        for ranking in self.rankings:
            if (ranking.level, ranking.statistic, ranking.avg_by, ranking.variant) == (
                level,
                statistic,
                avg_by,
                variant,
            ):
                return ranking
        raise KeyError(f"no {level}-level {statistic} by {avg_by} in this meta-evaluation")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary whose keys follow mt-metrics-eval's task attributes and results."""
        tasks = []
        for ranking in self.rankings:
            selection = self.selections[data_level(ranking.level, ranking.statistic)]
            tasks.append(
                {
                    "test_set": self.test_set,
                    "lang": self.lp,
                    **({"domain": self.domain} if self.domain is not None else {}),
                    "level": ranking.level,
                    "human": selection.include_human,
                    "avg_by": ranking.avg_by,
                    "corr_fcn": ranking.statistic,
                    "k": self.permutation.k if ranking.pvalues else 0,
                    "gold": selection.gold,
                    "refs": [selection.reference],
                    "use_outliers": selection.include_outliers,
                    "pval": self.pval,
                    "block_size": self.permutation.block_size,
                    "early_min": self.permutation.early_min,
                    "early_max": self.permutation.early_max,
                    "corr_fcn_args": ranking.corr_fcn_args,
                    "systems": list(ranking.systems),
                    "corr_ranks": {name: [value, ranking.ranks[name]] for name, value in ranking.values.items()},
                    "matrix": ranking.pvalues,
                    "draws": ranking.draws,
                    **({"epsilons": ranking.epsilons} if ranking.epsilons else {}),
                }
            )
        return {
            "test_set": self.test_set,
            "lang": self.lp,
            **({"domain": self.domain} if self.domain is not None else {}),
            "seed": self.seed,
            "selections": {
                level: {
                    "gold": s.gold,
                    "std_ref": s.reference,
                    "human": s.include_human,
                    "human_systems": list(s.human_systems),
                    "outlier_systems": list(s.outliers),
                    "use_outliers": s.include_outliers,
                    "unrated_systems": list(s.unrated),
                    "systems": list(s.systems),
                }
                for level, s in self.selections.items()
            },
            "signatures": self.signatures,
            "tasks": tasks,
        }


def evaluate(
    evs: EvalSet,
    metrics: Sequence[str | tuple[str, Mapping[str, Any]] | MetricScores] = (),
    *,
    scores: Sequence[str | Path] = (),
    gold: str | None = None,
    reference: str | None = None,
    include_human: bool | None = None,
    outliers: set[str] | frozenset[str] | None = None,
    include_outliers: bool = False,
    statistics: Sequence[Sequence[str | None]] | None = None,
    permutation: PermutationSettings | None = None,
    pval: float = 0.05,
    seed: int = 0,
    domain: str | None = None,
    sample_rate: float = 1.0,
) -> MetaEvaluation:
    """Meta-evaluate metrics against the human scores of ``evs``, as mt-metrics-eval does.

    Args:
        evs: The data (``read_eval_set``).
        metrics: mtscore metrics to score: names (``bleu``, ``chrf``, ``chrf++``, ``ter``) or
            ``(name, options)`` pairs; or scores already computed (``score_metric``), which must
            cover the selected systems (score once, evaluate under several settings).
        scores: Score files of metrics computed elsewhere (``<metric>-<ref>.<sys|seg>.score``).
        gold: The human scores; default: mt-metrics-eval's for a known test set.
        reference: The standard reference; default: mt-metrics-eval's for a known test set.
        include_human: Count other human translations as systems; default: as mt-metrics-eval's tasks.
        outliers: The outlier systems; default: mt-metrics-eval's for a known test set.
        include_outliers: Count the outliers.
        statistics: Tasks to compute: ``(level, corr_fcn)`` pairs of ``STATISTICS`` (the default: all
            of them), or ``(level, corr_fcn, avg_by[, variant])`` for a grouping or Kendall variant
            (``statistic_task``).
        permutation: The PERM-BOTH draws (``k=0``: no significance test).
        pval: The significance level of the clusters.
        seed: Seed of the permutation draws.
        domain: Only the segments of this domain (``documents/<lp>.docs``), as mt-metrics-eval's
            ``domain``: segment level over its segments; system level against the domain-level human
            scores, mtscore's metrics scored on its segments. Score files at segment level are cut to
            its segments; system-level score files are refused (they score every segment).
        sample_rate: acc-t's share of pairs drawn, in (0, 1], as ``KendallWithTiesOpt``'s
            ``sample_rate`` (below 1 the threshold and value depend on the seed).

    Returns:
        Every ranking, with the systems and settings used.

    Raises:
        InputError: no metric, a metric name given twice, a metric without scores for a selected
            system, or bad data (see ``select`` and ``read_scores_files``).
    """
    permutation = permutation or PermutationSettings()
    wanted = [statistic_task(spec) for spec in (statistics if statistics is not None else list(STATISTICS))]
    if not metrics and not scores:
        raise InputError("nothing to meta-evaluate: give metrics to score or score files")
    whole = evs
    if domain is not None:
        evs = evs.in_domain(domain)
    levels = sorted({data_level(level, statistic) for level, statistic, *_ in wanted}, reverse=True)  # sys first
    choice = {
        "gold": gold,
        "reference": reference,
        "include_human": include_human,
        "outliers": outliers,
        "include_outliers": include_outliers,
    }
    selections = {level: select(evs, level, **choice) for level in levels}  # type: ignore[arg-type]
    systems = sorted(set().union(*(s.systems for s in selections.values())))
    std_ref = next(iter(selections.values())).reference
    scored: list[MetricScores] = []
    for metric in metrics:
        if isinstance(metric, MetricScores):
            scored.append(metric)
            continue
        name, options = (metric, {}) if isinstance(metric, str) else metric
        scored.append(score_metric(name, options, evs, std_ref, systems))
    scored += [_in_domain(metric, whole, domain) for metric in read_scores_files(scores, whole, std_ref)]
    names = [metric.name for metric in scored]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(f"metric names given twice: {', '.join(duplicates)}")
    rng = np.random.default_rng(seed)
    rankings = []
    for task in wanted:
        level = data_level(task[0], task[1])
        available = [metric for metric in scored if metric.level(level)]
        if available:
            rankings.append(_rank(evs, task, selections[level], available, permutation, pval, rng, sample_rate))
    signatures = {metric.name: metric.signature or metric.source for metric in scored}
    points: dict[str, tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...]]] = {}
    if "sys" in selections:
        for metric in scored:
            if metric.level("sys"):
                human, values = _vectors(evs, "sys", selections["sys"], metric)
                kept = ~np.isnan(human[:, 0])
                shown = tuple(name for name, keep in zip(selections["sys"].systems, kept, strict=True) if keep)
                points[metric.name] = (shown, tuple(values[kept, 0].tolist()), tuple(human[kept, 0].tolist()))
    return MetaEvaluation(
        evs.test_set, evs.lp, selections, rankings, permutation, pval, seed, signatures, points, domain
    )


def _in_domain(metric: MetricScores, evs: EvalSet, domain: str | None) -> MetricScores:
    """``metric``'s segment scores of ``domain`` only; system-level scores cannot be cut to a domain."""
    mask = evs.segment_mask(domain)
    if mask is None:
        return metric
    if metric.sys:
        raise InputError(
            f"{metric.source}: system-level scores of {metric.name} are over every segment; in domain {domain!r} "
            "give its segment-level scores (system level then needs mtscore's own metrics, or leave --domain out)"
        )
    keep = np.asarray(mask)
    return replace(metric, seg={system: values[keep] for system, values in metric.seg.items()})


def _vectors(evs: EvalSet, level: str, selection: Selection, metric: MetricScores) -> tuple[np.ndarray, np.ndarray]:
    """Gold and metric scores, systems x items (one item at system level), NaN for unrated gold."""
    gold = evs.gold(selection.gold, level)
    values = metric.level(level)
    missing = [system for system in selection.systems if system not in values]
    if missing:
        raise InputError(f"{metric.name} has no {level}-level scores for {', '.join(missing)}")
    gold_matrix = np.array(
        [[np.nan if v is None else v for v in gold[system]] for system in selection.systems], dtype=np.float64
    )
    metric_matrix = np.array([np.atleast_1d(values[system]) for system in selection.systems], dtype=np.float64)
    return gold_matrix, metric_matrix


def _grouped_statistic(corr_fcn: str, variant: str | None) -> Callable[[np.ndarray, np.ndarray], float]:
    """The function of one group's gold and metric vectors that ``grouped`` averages."""
    if corr_fcn in ("kendall", "KendallVariants"):
        kind = variant or "b"
        return lambda gold, metric: kendall_variant(gold, metric, kind)
    return {"pearson": pearson, "spearman": spearman}[corr_fcn]


def _rank(
    evs: EvalSet,
    task: Task,
    selection: Selection,
    metrics: list[MetricScores],
    permutation: PermutationSettings,
    pval: float,
    rng: np.random.Generator,
    sample_rate: float = 1.0,
) -> Ranking:
    level, statistic, avg_by, variant = task
    default = (level, statistic) in STATISTICS and (avg_by, variant) == (AVERAGE_BY.get(statistic, "none"), None)
    vectors = {metric.name: _vectors(evs, data_level(level, statistic), selection, metric) for metric in metrics}
    values, epsilons = {}, {}
    for name, (gold, scores) in vectors.items():
        if statistic == "pce":
            values[name] = soft_pairwise_accuracy(gold, scores)
        elif not default:
            values[name] = grouped(_grouped_statistic(statistic, variant), gold, scores, avg_by)
        elif statistic == "KendallWithTiesOpt":
            result = acc_t(gold, scores, sample_rate, rng)
            values[name], epsilons[name] = result.accuracy, result.epsilon
        elif level == "seg" and statistic == "kendall":
            flat_gold, flat_scores = rated(gold.ravel(), scores.ravel())
            value = kendall_tau_b(flat_gold, flat_scores)
            values[name] = 0.0 if np.isnan(value) else value
        else:
            values[name] = correlation(STATISTICS[(level, statistic)], gold.ravel(), scores.ravel())  # type: ignore[arg-type]
    order = sorted(values, key=lambda name: (-values[name], name))
    test = _significance_test(task, default, len(selection.systems), vectors, epsilons, permutation, rng, sample_rate)
    pvalues: list[list[float]] = []
    draws: list[list[int]] = []
    ranks: dict[str, int | None] = dict.fromkeys(order)
    if test is not None and permutation.k > 0 and len(order) > 1:
        matrix = np.zeros((len(order), len(order)))
        draw_matrix = np.zeros((len(order), len(order)), dtype=np.int64)
        for i, better in enumerate(order):
            for j in range(i + 1, len(order)):
                outcome = test(better, order[j])
                matrix[i, j], draw_matrix[i, j] = outcome.pvalue, outcome.draws
        pvalues, draws = matrix.tolist(), draw_matrix.tolist()
        ranks = dict(zip(order, assign_ranks(matrix, pval), strict=True))
    return Ranking(
        level,
        statistic,
        avg_by,
        {name: values[name] for name in order},
        ranks,
        pvalues,
        draws,
        {name: epsilons[name] for name in order} if epsilons else {},
        selection.systems,
        variant,
        sample_rate if statistic == "KendallWithTiesOpt" else 1.0,
    )


# Segment-level statistics with a grouped PERM-BOTH test: corr_fcn -> the groupings tested.
_GROUPED_TESTS = {
    "pearson": GROUPINGS,
    "spearman": GROUPINGS,
    "kendall": ("sys", "item"),
    "KendallVariants": ("sys", "item"),
}


def _significance_test(
    task: Task,
    default: bool,
    systems: int,
    vectors: dict[str, tuple[np.ndarray, np.ndarray]],
    epsilons: dict[str, float],
    permutation: PermutationSettings,
    rng: np.random.Generator,
    sample_rate: float,
) -> Callable[[str, str], PermutationResult] | None:
    """The PERM-BOTH test of a task, as mt-metrics-eval's task sets run it: a function of the better and
    the worse metric's names, or None where the task has no test here (segment-level Kendall without
    grouping: a Kendall's tau of every segment per draw).

    Scores are swapped entry by entry for every statistic but acc-t, whose pairwise comparisons are
    swapped (``perm_test='pairs'``, as WMT23's tasks do). Grouped statistics pack the rated entries
    group after group, standardise them together and average the groups' values per draw
    (``PermutationSigDiff`` with ``average_by``).
    """
    level, statistic, avg_by, variant = task
    if statistic == "KendallWithTiesOpt":
        return _ties_test(vectors, epsilons, permutation, rng, sample_rate)
    if statistic == "pce":
        row_statistic: RowStatistic | None = functools.partial(soft_accuracy_rows, systems=systems)
    elif default:
        row_statistic = STATISTICS[(level, statistic)]
    elif level == "sys" and statistic == "KendallVariants":
        row_statistic = functools.partial(kendall_variant_rows, variant=variant or "b")
    elif avg_by in _GROUPED_TESTS.get(statistic, ()):
        return _grouped_test(_group_statistic(statistic, variant), avg_by, vectors, permutation, rng)
    else:
        return None
    if row_statistic is None:
        return None
    flat = {name: rated(gold.ravel(), scores.ravel()) for name, (gold, scores) in vectors.items()}
    test_statistic = row_statistic
    return lambda better, worse: perm_both(
        test_statistic, flat[better][0], flat[better][1], flat[worse][1], permutation, rng
    )


def _group_statistic(statistic: str, variant: str | None) -> RowStatistic:
    if statistic in ("kendall", "KendallVariants"):
        return functools.partial(kendall_variant_rows, variant=variant or "b")
    return {"pearson": pearson_rows, "spearman": spearman_rows}[statistic]


def _grouped_test(
    group_statistic: RowStatistic,
    avg_by: str,
    vectors: dict[str, tuple[np.ndarray, np.ndarray]],
    permutation: PermutationSettings,
    rng: np.random.Generator,
) -> Callable[[str, str], PermutationResult]:
    gold_matrix = next(iter(vectors.values()))[0]
    indices, sizes = group_sizes(gold_matrix, avg_by)
    statistic = grouped_rows(group_statistic, sizes)
    gold = gold_matrix.ravel()[indices]
    packed = {name: scores.ravel()[indices] for name, (_, scores) in vectors.items()}
    return lambda better, worse: perm_both(statistic, gold, packed[better], packed[worse], permutation, rng)


def _ties_test(
    vectors: dict[str, tuple[np.ndarray, np.ndarray]],
    epsilons: dict[str, float],
    permutation: PermutationSettings,
    rng: np.random.Generator,
    sample_rate: float,
) -> Callable[[str, str], PermutationResult]:
    """acc-t's test: each metric's comparisons at its own threshold, found again per test when pairs
    are sampled (``PairwisePermutationSigDiff`` calibrates both metrics each time)."""

    def agreement(name: str) -> tuple[np.ndarray, np.ndarray]:
        gold, scores = vectors[name]
        epsilon = epsilons[name] if sample_rate == 1 else acc_t(gold, scores, sample_rate, rng).epsilon
        return pair_agreement(gold, scores, epsilon)

    if sample_rate == 1:  # each metric's comparisons are fixed: made once, not once per pair of metrics
        agreement = functools.cache(agreement)

    def test(better: str, worse: str) -> PermutationResult:
        better_agrees, items = agreement(better)
        worse_agrees, _ = agreement(worse)
        return perm_both_pairs(better_agrees, worse_agrees, items, permutation, rng)

    return test
