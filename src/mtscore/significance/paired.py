"""Paired significance tests of several systems on their per-segment statistics.

Paired bootstrap resampling (Koehn, 2004) and paired approximate randomization (Riezler and
Maxwell, 2005), as sacrebleu 2.6.0 runs them; beyond it: every pair of systems, Holm-Bonferroni
correction and the interval of each difference.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.aggregation import SharedDraws
from ..errors import InputError
from ..metrics import METRICS, canonical, metric_class
from ..progress import Progress
from .resampling import (
    DEFAULT_SAMPLES,
    bootstrap_chunks,
    check_defined,
    confidence_interval,
    holm,
    p_value,
    percentile_bounds,
    randomization_chunks,
    resolve_seed,
)
from .results import TEST_NAMES, Comparison, PairedTestResult, SystemResult

if TYPE_CHECKING:
    from ..core.metric import Metric


_SCORE_ROWS = 1 << 14  # rows of summed statistics scored in one call (bounds the scoring's temporaries)


def _stack(statistics: list[np.ndarray]) -> tuple[np.ndarray, list[slice]]:
    """All systems' statistics side by side, with each system's columns."""
    widths = np.cumsum([0] + [s.shape[1] for s in statistics])
    return np.hstack([s.astype(np.float64) for s in statistics]), [slice(a, b) for a, b in pairwise(widths)]


def _indices(columns: Sequence[slice]) -> np.ndarray:
    """The column numbers of several systems' statistics, one row per system."""
    return np.array([np.arange(c.start, c.stop) for c in columns], dtype=np.intp)


def _batches(count: int, rows: int) -> Iterator[slice]:
    """Groups of ``count`` items (systems or pairs) whose ``rows`` rows each are scored in one call."""
    size = max(1, _SCORE_ROWS // max(rows, 1))
    return (slice(start, min(start + size, count)) for start in range(0, count, size))


def _check(statistics: dict[str, list[np.ndarray]], test: str, n_samples: int) -> None:
    if test not in DEFAULT_SAMPLES:
        raise InputError(f"unknown test {test!r}; choose 'bs' (paired bootstrap) or 'ar' (approximate randomization)")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise InputError(f"the number of resamples or trials must be a positive integer, got {n_samples!r}")
    counts = {len(s) for stats in statistics.values() for s in stats}
    systems = {len(stats) for stats in statistics.values()}
    if len(systems) != 1 or systems.pop() < 2:
        raise InputError("a paired test needs two or more systems (the first is the baseline)")
    if len(counts) != 1:
        raise InputError("every system needs the same number of segments")
    if counts.pop() == 0:
        raise InputError("no segments to resample")


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
    where = {name: columns[m * k : (m + 1) * k] for m, name in enumerate(names)}
    pairs = list(combinations(range(k), 2)) if all_pairs else [(0, i) for i in range(1, k)]
    n_resamples = n_samples if test == "bs" else n_confidence
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise InputError(f"the number of bootstrap resamples must be a positive integer, got {n_resamples!r}")
    totals = {name: [s.sum(axis=0, keepdims=True) for s in statistics[name]] for name in names}
    actual = {name: [float(metrics[name].scores_of_sums(t)[0]) for t in totals[name]] for name in names}
    observed = {name: np.array([abs(actual[name][a] - actual[name][b]) for a, b in pairs]) for name in names}
    bar = Progress(f"{TEST_NAMES[test]}:", n_samples + (n_resamples if test == "ar" else 0)) if progress else None
    exceeding = (
        _randomization_counts(metrics, statistics, stacked, where, pairs, observed, totals, n_samples, rng, bar)
        if test == "ar"
        else {}
    )
    boot = _bootstrap_scores(metrics, statistics, stacked, where, n_resamples, rng, bar)
    for name, scores in boot.items():
        check_defined(name, scores)
    if bar:
        bar.close()

    results, comparisons = {}, []
    for name in names:
        found = []
        for number, (a, b) in enumerate(pairs):
            if test == "bs":
                differences = np.abs(boot[name][b] - boot[name][a])
                p = p_value(differences - differences.mean(), float(observed[name][number]))
            else:
                p = (int(exceeding[name][number]) + 1) / (n_samples + 1)
            lower, upper = percentile_bounds(boot[name][b] - boot[name][a])
            delta = actual[name][b] - actual[name][a]
            found.append(Comparison(name, b, a, delta, float(lower), float(upper), p, 0.0))
        adjusted = holm([c.p_value for c in found])
        comparisons += [Comparison(**{**c.__dict__, "p_holm": float(q)}) for c, q in zip(found, adjusted, strict=True)]
        baseline_p = {c.system: c.p_value for c in found if c.against == 0}
        results[name] = [
            SystemResult(
                actual[name][i],
                baseline_p.get(i),
                *(confidence_interval(boot[name][i]) if test == "bs" else (None, None)),
            )
            for i in range(k)
        ]
    fields = {"seed": str(seed).lower(), test: str(n_samples)} | ({"bs": str(n_resamples)} if test == "ar" else {})
    signatures = {
        name: metrics[name].score_statistics(statistics[name][0]).signature.with_fields(**fields) for name in names
    }
    segments = len(statistics[names[0]][0])
    return PairedTestResult(
        test, n_samples, seed, list(systems), names, results, comparisons, signatures, all_pairs, segments
    )


def _bootstrap_scores(
    metrics: Mapping[str, Metric[Any, Any]],
    statistics: dict[str, list[np.ndarray]],
    stacked: np.ndarray,
    where: dict[str, list[slice]],
    n_resamples: int,
    rng: np.random.Generator,
    bar: Progress | None,
) -> dict[str, np.ndarray]:
    """Every system's score on each resample (systems x resamples, per metric), scored chunk by
    chunk of the shared draws: only the scores are kept, never every resample's statistics. As
    sacrebleu, from float32 sums; metrics whose rows are corpus-weighted (NIST) rescore the draws
    themselves, as their ``aggregation`` says."""
    k = len(next(iter(where.values())))
    boot: dict[str, np.ndarray] = {}
    start = 0
    for weights, sums in bootstrap_chunks(stacked, n_resamples, rng, bar):
        batches = list(_batches(k, len(sums)))
        for name, metric in metrics.items():
            draws = SharedDraws(weights, sums, _indices(where[name]), batches)
            scores = metric.aggregation.shared_bootstrap_scores(metric, statistics[name], draws)
            if name not in boot:  # in the type the metric gives them (float32 for some: sacrebleu averages those so)
                boot[name] = np.empty((k, n_resamples), dtype=scores.dtype)
            boot[name][:, start : start + scores.shape[1]] = scores
        start += len(sums)
    return boot


def _randomization_counts(
    metrics: Mapping[str, Metric[Any, Any]],
    statistics: dict[str, list[np.ndarray]],
    stacked: np.ndarray,
    where: dict[str, list[slice]],
    pairs: list[tuple[int, int]],
    observed: dict[str, np.ndarray],
    totals: dict[str, list[np.ndarray]],
    n_trials: int,
    rng: np.random.Generator,
    bar: Progress | None,
) -> dict[str, np.ndarray]:
    """Per metric and pair (a, b), the trials whose pseudo-systems differ at least as much as a and
    b do: a trial's pseudo-systems swap the segments it selects, so the first is a's selected rows
    with b's others (b's total plus the selected rows of a minus those of b), the second the rest.
    Counted chunk by chunk of trials, many pairs scored in one call."""
    counts = {name: np.zeros(len(pairs), dtype=np.int64) for name in metrics}
    first, second = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    for chunk in randomization_chunks(stacked, n_trials, rng, bar):
        rows = len(chunk)
        for name, metric in metrics.items():
            indices, like = _indices(where[name]), statistics[name][0]
            sums = _exact(chunk.astype(np.float64), like)  # exact, so integer statistics stay integers
            total = np.concatenate(totals[name]).astype(sums.dtype)  # systems x columns
            for group in _batches(len(pairs), 2 * rows):
                a, b = first[group], second[group]
                moved = sums[:, indices[a]] - sums[:, indices[b]]  # trials x pairs x columns
                pseudo = np.empty((2, *moved.shape), dtype=sums.dtype)
                np.add(total[b], moved, out=pseudo[0])
                np.subtract(total[a], moved, out=pseudo[1])
                scores = metric.scores_of_sums(pseudo.reshape(-1, indices.shape[1])).reshape(2, rows, -1)
                sampled = np.abs(scores[0] - scores[1])
                # compared in the scores' own type, as sacrebleu compares them with a Python float
                counts[name][group] += np.count_nonzero(sampled >= observed[name][group].astype(sampled.dtype), axis=0)
    return counts


def _exact(sums: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Sums in the type of the statistics (integers stay integers, as in sacrebleu's int matmul)."""
    return np.rint(sums).astype(like.dtype) if np.issubdtype(like.dtype, np.integer) else sums


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Any = None,
    metrics: str | Metric[Any, Any] | Sequence[str | Metric[Any, Any]] = ("bleu",),
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | str | None = None,
    all_pairs: bool = False,
    progress: bool = False,
) -> PairedTestResult:
    """Paired test of ``systems`` (name -> hypotheses; the first is the baseline) against
    ``references`` (reference streams). ``metrics`` are names (``"bleu"``, ``"chrf"``, ``"ter"``,
    ``"google_bleu"`` or an alias such as ``"gleu"``; default options) or metric objects created with
    the references (``BLEU(refs, tokenize="intl")``); a single name or object is one metric."""
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise InputError("systems must be a mapping of two or more names to hypotheses (the first is the baseline)")
    built: dict[str, Metric[Any, Any]] = {}
    for metric in _metric_list(metrics):
        if isinstance(metric, str):
            if canonical(metric.lower()) not in METRICS:
                raise InputError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
            if references is None:
                raise InputError(f"no references for metric {metric!r}")
            metric = metric_class(metric.lower())(references)
        built[metric.name] = metric
    hypotheses = [list(lines) for lines in systems.values()]
    from ..external.metric import name_systems

    name_systems(built.values(), list(systems), hypotheses)
    statistics = {name: m.systems_statistics(hypotheses) for name, m in built.items()}
    result = paired_test_statistics(
        built, statistics, list(systems), test, n_samples, seed, all_pairs, progress=progress
    )
    if result.caution:
        warnings.warn(result.caution, stacklevel=2)
    return result


def _metric_list(metrics: Any) -> list[Any]:
    """``paired_test``'s metrics as a list: a single name or metric object is one metric (a str is
    not its letters); anything else must be a sequence of them."""
    from ..core.metric import Metric

    if isinstance(metrics, (str, Metric)):
        return [metrics]
    if not isinstance(metrics, Sequence) or not metrics:
        raise InputError(f"metrics must be a metric name, a metric object or a non-empty list of them, got {metrics!r}")
    for metric in metrics:
        if not isinstance(metric, (str, Metric)):
            raise InputError(f"each metric must be a name or a metric object, got {metric!r}")
    return list(metrics)
