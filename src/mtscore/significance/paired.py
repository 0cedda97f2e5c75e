"""Paired significance tests of several systems on their per-segment statistics.

Paired bootstrap resampling (Koehn, 2004) and paired approximate randomization (Riezler and
Maxwell, 2005), as sacrebleu 2.6.0 runs them; beyond it: every pair of systems, Holm-Bonferroni
correction and the interval of each difference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import BleuInputError
from ..metrics import METRICS, canonical, metric_class
from ..progress import Progress
from .resampling import (
    DEFAULT_SAMPLES,
    bootstrap_sums,
    confidence_interval,
    holm,
    p_value,
    percentile_bounds,
    randomization_sums,
    resolve_seed,
)
from .results import TEST_NAMES, Comparison, PairedTestResult, SystemResult

if TYPE_CHECKING:
    from ..core.metric import Metric


def _exact(sums: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Sums in the type of the statistics (integers stay integers, as in sacrebleu's int matmul)."""
    return np.rint(sums).astype(like.dtype) if np.issubdtype(like.dtype, np.integer) else sums


def _stack(statistics: list[np.ndarray]) -> tuple[np.ndarray, list[slice]]:
    """All systems' statistics side by side, with each system's columns."""
    widths = np.cumsum([0] + [s.shape[1] for s in statistics])
    return np.hstack([s.astype(np.float64) for s in statistics]), [slice(a, b) for a, b in pairwise(widths)]


def _check(statistics: dict[str, list[np.ndarray]], test: str, n_samples: int) -> None:
    if test not in DEFAULT_SAMPLES:
        raise BleuInputError(
            f"unknown test {test!r}; choose 'bs' (paired bootstrap) or 'ar' (approximate randomization)"
        )
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise BleuInputError(f"the number of resamples or trials must be a positive integer, got {n_samples!r}")
    counts = {len(s) for stats in statistics.values() for s in stats}
    systems = {len(stats) for stats in statistics.values()}
    if len(systems) != 1 or systems.pop() < 2:
        raise BleuInputError("a paired test needs two or more systems (the first is the baseline)")
    if len(counts) != 1:
        raise BleuInputError("every system needs the same number of segments")
    if counts.pop() == 0:
        raise BleuInputError("no segments to resample")


def paired_test_statistics(
    metrics: Mapping[str, Metric[Any, Any]],
    statistics: dict[str, list[np.ndarray]],
    systems: Sequence[str],
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | str | None = None,
    all_pairs: bool = False,
    n_confidence: int = DEFAULT_SAMPLES["bs"],
    progress: bool = False,
) -> PairedTestResult:
    """The paired test on per-segment statistics: ``statistics[name][k]`` is system k's matrix
    under metric ``metrics[name]`` (system 0 is the baseline).

    ``bs``: paired bootstrap (Koehn 2004), ``n_samples`` resamples (default 1000), shared by all
    systems and metrics. ``ar``: paired approximate randomization (Riezler and Maxwell 2005),
    ``n_samples`` trials (default 10000), then ``n_confidence`` bootstrap resamples for the
    intervals of the differences. Each system is compared with the baseline, or with every
    other system when ``all_pairs``; p-values are also given Holm-adjusted per metric.
    ``progress`` draws a bar on standard error when it is a terminal and the run is long."""
    n_samples = DEFAULT_SAMPLES.get(test, 0) if n_samples is None else n_samples
    _check(statistics, test, n_samples)
    seed = resolve_seed(seed)
    rng = np.random.default_rng(seed)
    names = list(metrics)
    stacked, columns = _stack([s for name in names for s in statistics[name]])
    k = len(systems)
    where = {(name, i): columns[m * k + i] for m, name in enumerate(names) for i in range(k)}
    pairs = list(combinations(range(k), 2)) if all_pairs else [(0, i) for i in range(1, k)]
    n_resamples = n_samples if test == "bs" else n_confidence
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise BleuInputError(f"the number of bootstrap resamples must be a positive integer, got {n_resamples!r}")
    bar = Progress(f"{TEST_NAMES[test]}:", n_samples + (n_resamples if test == "ar" else 0)) if progress else None
    trials = randomization_sums(stacked, n_samples, rng, bar) if test == "ar" else None
    # Metrics that are not additive (NIST) score each chunk of the same draws themselves.
    own: dict[tuple[str, int], list[np.ndarray]] = {
        (name, i): [] for name in names if not metrics[name].additive for i in range(k)
    }

    def rescore(weights: np.ndarray) -> None:
        for (name, i), scores in own.items():
            scores.append(metrics[name].resampled_scores(statistics[name][i], weights))

    resampled = bootstrap_sums(stacked, n_resamples, rng, bar, rescore if own else None)
    if bar:
        bar.close()

    results, comparisons = {}, []
    for name in names:
        metric, stats = metrics[name], statistics[name]
        totals = [s.sum(axis=0, keepdims=True) for s in stats]
        actual = [float(metric.scores_of_sums(total)[0]) for total in totals]
        if metric.additive:
            boot = [metric.scores_of_sums(resampled[:, where[name, i]].astype(np.float32)) for i in range(k)]
        else:
            boot = [np.concatenate(own[name, i]) for i in range(k)]
        found = []
        for a, b in pairs:
            observed = abs(actual[a] - actual[b])
            if test == "bs":
                differences = np.abs(boot[b] - boot[a])
                p = p_value(differences - differences.mean(), observed)
            else:
                assert trials is not None  # drawn above for "ar"
                p = _randomization_p(
                    metric, trials, where[name, a], where[name, b], totals[a], totals[b], stats[a], observed
                )
            lower, upper = percentile_bounds(boot[b] - boot[a])
            found.append(Comparison(name, b, a, actual[b] - actual[a], float(lower), float(upper), p, 0.0))
        adjusted = holm([c.p_value for c in found])
        comparisons += [Comparison(**{**c.__dict__, "p_holm": float(q)}) for c, q in zip(found, adjusted, strict=True)]
        baseline_p = {c.system: c.p_value for c in found if c.against == 0}
        results[name] = [
            SystemResult(
                actual[i], baseline_p.get(i), *(confidence_interval(boot[i]) if test == "bs" else (None, None))
            )
            for i in range(k)
        ]
    fields = {"seed": str(seed).lower(), test: str(n_samples)} | ({"bs": str(n_resamples)} if test == "ar" else {})
    signatures = {
        name: metrics[name].score_statistics(statistics[name][0]).signature.with_fields(**fields) for name in names
    }
    return PairedTestResult(test, n_samples, seed, list(systems), names, results, comparisons, signatures, all_pairs)


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Any = None,
    metrics: Sequence[str | Metric[Any, Any]] = ("bleu",),
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | str | None = None,
    all_pairs: bool = False,
    progress: bool = False,
) -> PairedTestResult:
    """Paired test of ``systems`` (name -> hypotheses; the first is the baseline) against
    ``references`` (reference streams). ``metrics`` are names (``"bleu"``, ``"chrf"``, ``"ter"``,
    ``"google_bleu"`` or an alias such as ``"gleu"``; default options) or metric objects created with
    the references (``BLEU(refs, tokenize="intl")``)."""
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise BleuInputError("systems must be a mapping of two or more names to hypotheses (the first is the baseline)")
    built: dict[str, Metric[Any, Any]] = {}
    for metric in metrics:
        if isinstance(metric, str):
            if canonical(metric.lower()) not in METRICS:
                raise BleuInputError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
            if references is None:
                raise BleuInputError(f"no references for metric {metric!r}")
            metric = metric_class(metric.lower())(references)
        built[metric.name] = metric
    statistics = {name: m.systems_statistics([list(h) for h in systems.values()]) for name, m in built.items()}
    return paired_test_statistics(built, statistics, list(systems), test, n_samples, seed, all_pairs, progress=progress)


def _randomization_p(
    metric: Metric[Any, Any],
    trials: np.ndarray,
    cols_a: slice,
    cols_b: slice,
    total_a: np.ndarray,
    total_b: np.ndarray,
    like: np.ndarray,
    observed: float,
) -> float:
    """p-value of the randomization test: pseudo-systems swap the selected segments of a and b."""
    moved = trials[:, cols_a] - trials[:, cols_b]  # selected rows of a, minus the same rows of b
    first = metric.scores_of_sums(_exact(total_b + moved, like))  # a's selected rows, b's others
    second = metric.scores_of_sums(_exact(total_a - moved, like))
    return p_value(np.abs(first - second), observed)
