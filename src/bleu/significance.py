"""Paired significance tests and bootstrap confidence intervals, vectorised over resamples.

Every metric gives a matrix of additive per-segment statistics (``bleu.metrics``), so a bootstrap
resample or a randomization trial is a weighted column sum: all of them are a few matrix products,
done in chunks so that memory stays bounded whatever the number of systems and resamples. Draws,
seeds and arithmetic follow sacrebleu 2.6.0, so p-values, means and intervals are its own for the
same seed; beyond it: every pair of systems, Holm-Bonferroni correction and the interval of each
difference.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from statistics import mean as exact_average

import numpy as np

from .errors import BleuInputError
from .progress import Progress

DEFAULT_SEED = 12345
SEED_VARIABLES = ("BLEU_SEED", "SACREBLEU_SEED")  # ours first; sacrebleu's is honoured too
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}
_CHUNK_BYTES = 32 << 20  # resample weights held at once
_BOOL_BLOCK = 32  # NumPy draws booleans 32 to a word: chunks of 32 trials give the draws of one call
_FLOAT32_INTEGERS = 1 << 24  # float32 holds every integer up to this exactly


def resolve_seed(seed: int | str | None = None) -> int | None:
    """The seed in force: ``seed`` if given, else $BLEU_SEED, else $SACREBLEU_SEED, else 12345.
    ``"none"`` means fresh entropy from the OS (``None``)."""
    if seed is None:
        seed = next((os.environ[name] for name in SEED_VARIABLES if os.environ.get(name)), DEFAULT_SEED)
    if isinstance(seed, str):
        if seed.strip().lower() == "none":
            return None
        try:
            seed = int(seed)
        except ValueError:
            raise BleuInputError(f"seed must be an integer or 'none', got {seed!r}") from None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BleuInputError(f"seed must be a non-negative integer or 'none', got {seed!r}")
    return int(seed)


def confidence_interval(scores: np.ndarray, exact_mean: bool = False) -> tuple[float, float]:
    """sacrebleu's estimate from resampled scores: their mean and the half-width of the 95%
    interval between the sorted values n//40 from either end, in the scores' own precision
    (float32 for metrics whose resampled scores sacrebleu computes in float32). sacrebleu averages
    the sorted scores with NumPy in paired tests and exactly (``statistics.mean``) for one system."""
    ordered = np.sort(scores)
    lower, upper = percentile_bounds(ordered)
    mean = exact_average(ordered.tolist()) if exact_mean else ordered.mean()
    return float(mean), float(0.5 * (upper - lower))


def percentile_bounds(scores: np.ndarray) -> tuple:
    """The 2.5% and 97.5% bounds by sacrebleu's index rule (n//40 from either end of the sorted
    values), as NumPy scalars of the scores' type."""
    ordered = np.sort(scores)
    cut = len(ordered) // 40
    return ordered[cut], ordered[len(ordered) - cut - 1]


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values: the i-th smallest is multiplied by (m - i), made
    monotone and capped at 1, so comparing them with alpha controls the family-wise error."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (len(p) - np.arange(len(p)))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    return adjusted


def p_value(sampled: np.ndarray, observed: float) -> float:
    """(c + 1) / (n + 1), c counting samples at least as large as the observed statistic.

    sacrebleu counts only larger ones, which gives identical systems p = 1/(n+1) instead of 1;
    the two agree whenever no sample ties the observed value exactly."""
    return (int(np.count_nonzero(sampled >= observed)) + 1) / (len(sampled) + 1)


@dataclass(frozen=True)
class SystemResult:
    """One system under one metric: its score, and (paired tests) the p-value against the
    baseline, the bootstrap mean and the half-width of the 95% interval (sacrebleu's fields)."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def to_dict(self) -> dict:
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class Comparison:
    """``system`` against ``against`` (indices into the systems) under ``metric``: the score
    difference with its 95% bootstrap interval, the p-value and its Holm-adjusted value."""

    metric: str
    system: int
    against: int
    delta: float
    lower: float
    upper: float
    p_value: float
    p_holm: float


@dataclass(frozen=True)
class PairedTestResult:
    """Results of a paired test over several systems (the first is the baseline)."""

    test: str  # "bs" or "ar"
    n_samples: int
    seed: int | None
    systems: list[str]
    metrics: list[str]
    results: dict[str, list[SystemResult]]
    comparisons: list[Comparison]
    signatures: dict = field(default_factory=dict)
    all_pairs: bool = False

    def comparison(self, metric: str, system: int, against: int) -> Comparison:
        return next(c for c in self.comparisons if (c.metric, c.system, c.against) == (metric, system, against))

    def to_json(self) -> str:
        """sacrebleu's JSON for the same invocation, with ``comparisons`` added per system and metric."""
        from .significance_report import to_json

        return to_json(self)

    def to_text(self, width: int = 1) -> str:
        """The score table, the differences with intervals and Holm p-values, and the signatures."""
        from .significance_report import to_text

        return to_text(self, width)

    def to_latex(self, width: int = 1) -> str:
        """booktabs tables of the scores and of the differences."""
        from .significance_report import to_latex

        return to_latex(self, width)


def _rows_per_chunk(n_segments: int, block: int = 1) -> int:
    rows = max(1, _CHUNK_BYTES // (8 * max(n_segments, 1)))
    return max(block, rows // block * block)


def _product_type(statistics: np.ndarray, largest: float) -> type:
    """float32 when the weighted sums are sums of integers that never exceed ``largest``, so
    that float32 holds every partial sum exactly (half the memory traffic), else float64."""
    if largest < _FLOAT32_INTEGERS and np.array_equal(statistics, np.rint(statistics)):
        return np.float32
    return np.float64


def bootstrap_sums(statistics: np.ndarray, n_samples: int, rng: np.random.Generator,
                   progress: Progress | None = None) -> np.ndarray:
    """Column sums of ``n_samples`` resamples of the rows (with replacement), drawn as sacrebleu's
    ``rng.choice(n, (n_samples, n))``, as a (n_samples x columns) float64 array."""
    n = len(statistics)
    sums = np.empty((n_samples, statistics.shape[1]))
    kind = _product_type(statistics, n * np.abs(statistics).max(initial=0))  # weights add up to n
    matrix = statistics.astype(kind)
    step = _rows_per_chunk(n)
    for start in range(0, n_samples, step):
        rows = min(step, n_samples - start)
        drawn = rng.integers(0, n, size=(rows, n))  # the very draws of rng.choice(n, size, replace=True)
        weights = np.bincount((drawn + n * np.arange(rows)[:, None]).ravel(), minlength=rows * n)
        sums[start : start + rows] = weights.reshape(rows, n).astype(kind) @ matrix
        if progress:
            progress.advance(rows)
    return sums


def randomization_sums(statistics: np.ndarray, n_trials: int, rng: np.random.Generator,
                       progress: Progress | None = None) -> np.ndarray:
    """For each trial, the column sums over the segments it selects (each with probability 1/2,
    drawn as sacrebleu's ``rng.integers(2, size=(n_trials, n), dtype=bool)``)."""
    n = len(statistics)
    sums = np.empty((n_trials, statistics.shape[1]))
    kind = _product_type(statistics, np.abs(statistics).sum(axis=0).max(initial=0))
    matrix = statistics.astype(kind)
    step = _rows_per_chunk(n, _BOOL_BLOCK)
    for start in range(0, n_trials, step):
        rows = min(step, n_trials - start)
        selected = rng.integers(2, size=(rows, n), dtype=bool)
        sums[start : start + rows] = selected.astype(kind) @ matrix
        if progress:
            progress.advance(rows)
    return sums


def _exact(sums: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Sums in the type of the statistics (integers stay integers, as in sacrebleu's int matmul)."""
    return np.rint(sums).astype(like.dtype) if np.issubdtype(like.dtype, np.integer) else sums


def _stack(statistics: list[np.ndarray]) -> tuple[np.ndarray, list[slice]]:
    """All systems' statistics side by side, with each system's columns."""
    widths = np.cumsum([0] + [s.shape[1] for s in statistics])
    return np.hstack([s.astype(np.float64) for s in statistics]), [slice(a, b) for a, b in pairwise(widths)]


def _check(statistics: dict[str, list[np.ndarray]], test: str, n_samples: int) -> None:
    if test not in DEFAULT_SAMPLES:
        raise BleuInputError(f"unknown test {test!r}; choose 'bs' (paired bootstrap) or 'ar' (approximate randomization)")
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
    metrics: dict[str, object],
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
    resampled = bootstrap_sums(stacked, n_resamples, rng, bar)
    if bar:
        bar.close()

    results, comparisons = {}, []
    for name in names:
        metric, stats = metrics[name], statistics[name]
        totals = [s.sum(axis=0, keepdims=True) for s in stats]
        actual = [float(metric.scores_of_sums(total)[0]) for total in totals]
        boot = [metric.scores_of_sums(resampled[:, where[name, i]].astype(np.float32)) for i in range(k)]
        found = []
        for a, b in pairs:
            observed = abs(actual[a] - actual[b])
            if test == "bs":
                differences = np.abs(boot[b] - boot[a])
                p = p_value(differences - differences.mean(), observed)
            else:
                p = _randomization_p(metric, trials, where[name, a], where[name, b], totals[a], totals[b],
                                     stats[a], observed)
            lower, upper = percentile_bounds(boot[b] - boot[a])
            found.append(Comparison(name, b, a, actual[b] - actual[a], float(lower), float(upper), p, 0.0))
        adjusted = holm([c.p_value for c in found])
        comparisons += [Comparison(**{**c.__dict__, "p_holm": float(q)}) for c, q in zip(found, adjusted)]
        baseline_p = {c.system: c.p_value for c in found if c.against == 0}
        results[name] = [
            SystemResult(actual[i], baseline_p.get(i), *(confidence_interval(boot[i]) if test == "bs" else (None, None)))
            for i in range(k)
        ]
    fields = {"seed": str(seed).lower(), test: str(n_samples)} | ({"bs": str(n_resamples)} if test == "ar" else {})
    signatures = {name: metrics[name].score_statistics(statistics[name][0]).signature.with_fields(**fields)
                  for name in names}
    return PairedTestResult(test, n_samples, seed, list(systems), names, results, comparisons, signatures, all_pairs)


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references=None,
    metrics: Sequence = ("bleu",),
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | str | None = None,
    all_pairs: bool = False,
    progress: bool = False,
) -> PairedTestResult:
    """Paired test of ``systems`` (name -> hypotheses; the first is the baseline) against
    ``references`` (reference streams). ``metrics`` are names (``"bleu"``, ``"chrf"``, ``"ter"``,
    default options) or metric objects created with the references (``BLEU(refs, tokenize="intl")``)."""
    from .metrics import METRICS, metric_class, systems_statistics

    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise BleuInputError("systems must be a mapping of two or more names to hypotheses (the first is the baseline)")
    built = {}
    for metric in metrics:
        if isinstance(metric, str):
            if metric.lower() not in METRICS:
                raise BleuInputError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
            if references is None:
                raise BleuInputError(f"no references for metric {metric!r}")
            metric = metric_class(metric.lower())(references)
        built[metric.name] = metric
    statistics = {name: systems_statistics(m, [list(h) for h in systems.values()]) for name, m in built.items()}
    return paired_test_statistics(built, statistics, list(systems), test, n_samples, seed, all_pairs, progress=progress)


def _randomization_p(metric, trials, cols_a, cols_b, total_a, total_b, like, observed) -> float:
    """p-value of the randomization test: pseudo-systems swap the selected segments of a and b."""
    moved = trials[:, cols_a] - trials[:, cols_b]  # selected rows of a, minus the same rows of b
    first = metric.scores_of_sums(_exact(total_b + moved, like))  # a's selected rows, b's others
    second = metric.scores_of_sums(_exact(total_a - moved, like))
    return p_value(np.abs(first - second), observed)


def bootstrap_confidence(metric, statistics: np.ndarray, n_samples: int = DEFAULT_SAMPLES["bs"],
                         seed: int | str | None = None) -> tuple[float, float]:
    """The bootstrap mean and 95% half-width of one system's score (sacrebleu's ``--confidence``)."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise BleuInputError(f"the number of resamples must be a positive integer, got {n_samples!r}")
    if len(statistics) == 0:
        raise BleuInputError("no segments to resample")
    rng = np.random.default_rng(resolve_seed(seed))
    sums = bootstrap_sums(statistics.astype(np.float64), n_samples, rng)
    return confidence_interval(metric.scores_of_sums(sums.astype(np.float32)), exact_mean=True)
