"""Several language pairs at once: pairwise accuracy pooled over them (mt-metrics-eval's
``CompareMetricsWithGlobalAccuracy``) and WMT23's task set with its weighted average
(``tasks.WMT23``: pooled accuracy weighted by the number of language pairs, then for each pair
system-level Pearson, segment-level Pearson and acc-t, weighted 1 each; the weights sum to 1).

The average rank is mt-metrics-eval's ``AverageRanks``: each task's significance cluster of the metric
times the task's weight, summed, for the metrics that every task has.

The average is mt-metrics-eval's ``AverageCorrs``: each task's value mapped onto [0, 1] (a correlation
``c`` becomes ``(c + 1) / 2``; accuracies stay), times the task's weight, summed, for the metrics that
every task has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .correlations import agreement_rows
from .data import EvalSet
from .evaluate import MetaEvaluation, Ranking, evaluate
from .scoring import MetricScores, read_scores_files, score_metric
from .selection import Selection, defaults_for, select
from .significance import PermutationSettings, assign_ranks, perm_both

# WMT23's tasks for each language pair, after the pooled accuracy: (level, corr_fcn) and the range of values.
WMT23_TASKS = (("sys", "pearson"), ("seg", "pearson"), ("seg", "KendallWithTiesOpt"))
_RANGES = {"pearson": (-1.0, 1.0), "accuracy": (0.0, 1.0), "KendallWithTiesOpt": (0.0, 1.0)}


@dataclass(frozen=True)
class TaskSetResult:
    """The result of ``evaluate_tasks``.

    Attributes:
        test_set: The test set.
        lps: The language pairs, sorted (the order of WMT23's tasks).
        accuracy: Pairwise accuracy pooled over the language pairs; its ``systems`` are ``lp/system``.
        accuracy_selections: Language pair -> the systems the pooled accuracy counts there.
        evaluations: Language pair -> its tasks (system-level Pearson, segment-level Pearson, acc-t).
        weights: The weight of each task, in the order of ``tasks``.
        average: Metric -> its weighted average over the tasks, by decreasing value.
        average_ranks: Metric -> its weighted average significance cluster over the tasks, by increasing
            rank (mt-metrics-eval's ``AverageRanks``; see ``average_ranks``).
        seed: The seed given to ``evaluate_tasks`` (each pair's draws use a seed drawn from it).
    """

    test_set: str
    lps: tuple[str, ...]
    accuracy: Ranking
    accuracy_selections: dict[str, Selection]
    evaluations: dict[str, MetaEvaluation]
    weights: tuple[float, ...]
    average: dict[str, float]
    average_ranks: dict[str, float] = field(default_factory=dict)
    seed: int | None = None

    @property
    def tasks(self) -> list[tuple[str, Ranking]]:
        """``(language pairs, ranking)`` of every task, in WMT23's order: the pooled accuracy first."""
        tasks = [(",".join(self.lps), self.accuracy)]
        for lp in self.lps:
            tasks += [(lp, self.evaluations[lp].ranking(level, fcn)) for level, fcn in WMT23_TASKS]
        return tasks

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary: the tasks with mt-metrics-eval's attribute names and their weights,
        and the weighted average (``average_corrs``, as mt-metrics-eval's ``AverageCorrs``)."""
        first = next(iter(self.evaluations.values()))
        selections = self.accuracy_selections.values()
        pooled = {
            "test_set": self.test_set,
            "lang": ",".join(self.lps),
            "level": "sys",
            "human": any(s.include_human for s in selections),
            "avg_by": "none",
            "corr_fcn": "accuracy",
            "k": first.permutation.k if self.accuracy.pvalues else 0,
            "gold": [s.gold for s in selections],
            "refs": [[s.reference] for s in selections],
            "use_outliers": any(s.include_outliers for s in selections),
            "pval": first.pval,
            "block_size": first.permutation.block_size,
            "early_min": first.permutation.early_min,
            "early_max": first.permutation.early_max,
            "corr_fcn_args": {},
            "systems": {lp: list(s.systems) for lp, s in self.accuracy_selections.items()},
            "corr_ranks": {name: [value, self.accuracy.ranks[name]] for name, value in self.accuracy.values.items()},
            "matrix": self.accuracy.pvalues,
            "draws": self.accuracy.draws,
        }
        tasks = [pooled]
        for lp in self.lps:
            by_task = {(t["level"], t["corr_fcn"]): t for t in self.evaluations[lp].to_json()["tasks"]}
            tasks += [by_task[task] for task in WMT23_TASKS]
        for task, weight in zip(tasks, self.weights, strict=True):
            task["weight"] = weight
        return {
            "test_set": self.test_set,
            "langs": list(self.lps),
            "task_set": "wmt23",
            "seed": first.seed if self.seed is None else self.seed,
            "signatures": {k: v for e in self.evaluations.values() for k, v in e.signatures.items()},
            "tasks": tasks,
            "average_corrs": self.average,
            "average_ranks": self.average_ranks,
        }


def evaluate_tasks(
    eval_sets: Sequence[EvalSet],
    metrics: Sequence[str | tuple[str, Mapping[str, Any]]] = (),
    *,
    scores: Mapping[str, Sequence[str | Path]] | None = None,
    gold: str | None = None,
    reference: str | None = None,
    include_human: bool | None = None,
    include_outliers: bool = False,
    permutation: PermutationSettings | None = None,
    pval: float = 0.05,
    seed: int = 0,
) -> TaskSetResult:
    """WMT23's task set over several language pairs of one test set, as mt-metrics-eval's ``tasks.WMT23``.

    Args:
        eval_sets: One per language pair, all of one test set (``read_eval_set``).
        metrics: mtscore metrics to score: names or ``(name, options)`` pairs.
        scores: Language pair -> score files of metrics computed elsewhere (see ``evaluate``).
        gold: The human scores; default: mt-metrics-eval's for each known language pair.
        reference: The standard reference; default: mt-metrics-eval's for each known language pair.
        include_human: Count other human translations. By default, as ``tasks.WMT23``: each language
            pair's own tasks as its default, the pooled accuracy wherever any pair's default counts them.
        include_outliers: Count the outlier systems.
        permutation: The PERM-BOTH draws (``k=0``: no significance test).
        pval: The significance level of the clusters.
        seed: Seed of the permutation draws.

    Returns:
        The pooled accuracy, each language pair's tasks, the weights and the weighted average.

    Raises:
        InputError: fewer than two language pairs, several test sets or a pair given twice, no metric
            that every language pair has, or anything ``evaluate`` refuses.
    """
    scores = scores or {}
    lps = sorted(evs.lp for evs in eval_sets)
    if len(lps) < 2:
        raise InputError("a task set over language pairs needs at least two; for one, use evaluate")
    if len(set(lps)) != len(lps):
        raise InputError(f"language pairs given twice: {', '.join(sorted({lp for lp in lps if lps.count(lp) > 1}))}")
    test_sets = sorted({evs.test_set for evs in eval_sets})
    if len(test_sets) > 1:
        raise InputError(f"a task set covers one test set, not {', '.join(test_sets)}")
    unknown = sorted(set(scores) - set(lps))
    if unknown:
        raise InputError(f"score files for language pairs not evaluated: {', '.join(unknown)}")
    by_lp = {evs.lp: evs for evs in eval_sets}
    pooled_human = any(map(_counts_human, eval_sets)) if include_human is None else include_human
    choice: dict[str, Any] = {"gold": gold, "reference": reference, "include_outliers": include_outliers}
    permutation = permutation or PermutationSettings()
    rng = np.random.default_rng(seed)
    evaluations, pooled, accuracy_selections = {}, {}, {}
    for lp in lps:
        evs = by_lp[lp]
        accuracy_selections[lp] = select(evs, "sys", include_human=pooled_human, **choice)
        systems = set(accuracy_selections[lp].systems)
        for level in ("sys", "seg"):
            systems |= set(select(evs, level, include_human=include_human, **choice).systems)
        scored = _score(evs, metrics, scores.get(lp, ()), accuracy_selections[lp].reference, sorted(systems))
        pooled[lp] = scored
        evaluations[lp] = evaluate(
            evs,
            scored,
            include_human=include_human,
            statistics=list(WMT23_TASKS),
            permutation=permutation,
            pval=pval,
            seed=int(rng.integers(2**63)),
            **choice,
        )
    accuracy = _pooled_accuracy(by_lp, pooled, accuracy_selections, permutation, pval, rng)
    weights = [float(len(lps))] + [1.0] * (len(lps) * len(WMT23_TASKS))
    weights = [weight / sum(weights) for weight in weights]
    result = TaskSetResult(
        test_sets[0], tuple(lps), accuracy, accuracy_selections, evaluations, tuple(weights), {}, seed=seed
    )
    result.average.update(_average(result))
    result.average_ranks.update(average_ranks(result.tasks, result.weights))
    return result


def _counts_human(evs: EvalSet) -> bool:
    """Whether mt-metrics-eval's tasks count human translations for this pair by default."""
    known = defaults_for(evs.test_set, evs.lp)
    return known is not None and known.include_human


def _score(
    evs: EvalSet,
    metrics: Sequence[str | tuple[str, Mapping[str, Any]]],
    files: Sequence[str | Path],
    reference: str,
    systems: list[str],
) -> list[MetricScores]:
    scored = []
    for metric in metrics:
        name, options = (metric, {}) if isinstance(metric, str) else metric
        scored.append(score_metric(name, options, evs, reference, systems))
    return scored + read_scores_files(files, evs, reference)


def _pooled_accuracy(
    eval_sets: dict[str, EvalSet],
    scored: dict[str, list[MetricScores]],
    selections: dict[str, Selection],
    permutation: PermutationSettings,
    pval: float,
    rng: np.random.Generator,
) -> Ranking:
    """Pairwise accuracy over the pairs of systems of each language pair, pooled: agreeing pairs of all
    language pairs over all their pairs; PERM-BOTH swaps scores across the whole pooled vector."""
    lps = list(eval_sets)
    names = [set(m.name for m in scored[lp] if m.sys) for lp in lps]
    common = sorted(set.intersection(*names))
    if not common:
        raise InputError(f"no metric has system-level scores for every language pair ({', '.join(lps)})")
    gold = np.concatenate([_gold(eval_sets[lp], selections[lp]) for lp in lps])
    sizes = [len(selections[lp].systems) for lp in lps]
    vectors = {}
    for name in common:
        parts = []
        for lp in lps:
            (metric,) = [m for m in scored[lp] if m.name == name]
            missing = [s for s in selections[lp].systems if s not in metric.sys]
            if missing:
                raise InputError(f"{name} has no sys-level scores for {', '.join(missing)} ({lp})")
            parts.append([metric.sys[s] for s in selections[lp].systems])
        vectors[name] = np.concatenate(parts)

    def pooled_rows(gold_vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
        agree, pairs, start = np.zeros(len(rows)), 0, 0
        for size in sizes:
            block_agree, block_pairs = agreement_rows(gold_vector[start : start + size], rows[:, start : start + size])
            agree, pairs, start = agree + block_agree, pairs + block_pairs, start + size
        return agree / pairs

    values = {name: float(pooled_rows(gold, vectors[name][None, :])[0]) for name in common}
    order = sorted(values, key=lambda name: (-values[name], name))
    ranks: dict[str, int | None] = dict.fromkeys(order)
    pvalues: list[list[float]] = []
    draws: list[list[int]] = []
    if permutation.k > 0 and len(order) > 1:
        matrix = np.zeros((len(order), len(order)))
        draw_matrix = np.zeros((len(order), len(order)), dtype=np.int64)
        for i, better in enumerate(order):
            for j in range(i + 1, len(order)):
                test = perm_both(pooled_rows, gold, vectors[better], vectors[order[j]], permutation, rng)
                matrix[i, j], draw_matrix[i, j] = test.pvalue, test.draws
        pvalues, draws = matrix.tolist(), draw_matrix.tolist()
        ranks = dict(zip(order, assign_ranks(matrix, pval), strict=True))
    systems = tuple(f"{lp}/{system}" for lp in lps for system in selections[lp].systems)
    return Ranking("sys", "accuracy", "none", {n: values[n] for n in order}, ranks, pvalues, draws, {}, systems)


def _gold(evs: EvalSet, selection: Selection) -> np.ndarray:
    scores = evs.gold(selection.gold, "sys")
    return np.array([scores[system][0] for system in selection.systems], dtype=np.float64)


def _average(result: TaskSetResult) -> dict[str, float]:
    """mt-metrics-eval's ``AverageCorrs``: each value mapped onto [0, 1], weighted, summed in task order,
    for the metrics of every task; by decreasing average."""
    parts: dict[str, list[float]] = {}
    tasks = result.tasks
    for (_, ranking), weight in zip(tasks, result.weights, strict=True):
        low, high = _RANGES[ranking.statistic]
        for name, value in ranking.values.items():
            parts.setdefault(name, []).append((value - low) / (high - low) * weight)
    averages = {name: sum(values) for name, values in parts.items() if len(values) == len(tasks)}
    return dict(sorted(averages.items(), key=lambda item: (-item[1], item[0])))


def average_ranks(tasks: Sequence[tuple[str, Ranking]], weights: Sequence[float]) -> dict[str, float]:
    """mt-metrics-eval's ``TaskSetResults.AverageRanks``: the sum over tasks of weight x the metric's rank,
    for the metrics that every task ranks; by increasing average rank (equal ones in the order the first
    task lists them, as there).

    A task ranks by its significance clusters. A task without a test (``k`` = 0, or a statistic without
    one) ranks by position (1, 2, ...), as mt-metrics-eval does with ``k`` = 0: its empty significance
    matrix reads as every difference significant.

    Args:
        tasks: ``(language pairs, ranking)`` of each task (``TaskSetResult.tasks``).
        weights: The weight of each task, same order.

    Returns:
        Metric -> its weighted rank.

    Raises:
        InputError: a different number of tasks and weights.
    """
    if len(tasks) != len(weights):
        raise InputError(f"{len(tasks)} tasks but {len(weights)} weights")
    parts: dict[str, list[float]] = {}
    for (_, ranking), weight in zip(tasks, weights, strict=True):
        for position, (name, rank) in enumerate(ranking.ranks.items(), 1):
            parts.setdefault(name, []).append((rank if rank is not None else position) * weight)
    ranks = {name: sum(values) for name, values in parts.items() if len(values) == len(tasks)}
    return dict(sorted(ranks.items(), key=lambda item: item[1]))
