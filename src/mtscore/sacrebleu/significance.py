"""sacrebleu's paired significance tests (``sacrebleu.significance``): ``PairedTest`` and its
``Result``, with sacrebleu's arguments, seed (``$SACREBLEU_SEED``) and returned shapes, on
mtscore's vectorised tests (the same draws, so the same p-values and intervals)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.metric import Metric
from ..core.signature import Signature
from ..errors import InputError
from ..significance.paired import paired_test_statistics
from ..significance.resampling import bootstrap_weights, confidence_interval

__all__ = ["PairedTest", "Result", "estimate_ci"]

_DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}


class Result:
    """One system under one metric: its score, and (paired tests) the p-value against the baseline
    and the bootstrap mean and 95% half-width."""

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None, ci: float | None = None):
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{name}={value}" for name, value in self.__dict__.items())


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """The mean of ``scores`` and the half-width of their 95% interval (sacrebleu's index rule)."""
    return confidence_interval(np.asarray(scores))


class PairedTest:
    """Paired approximate randomization (``test_type="ar"``) or bootstrap resampling (``"bs"``) of
    every system in ``named_systems`` (``(name, hypotheses)`` pairs, the first the baseline) against
    the baseline, under each of ``metrics`` (name -> metric of this module), as sacrebleu's
    ``PairedTest``. ``n_samples`` 0 takes the default (10,000 trials, 1,000 resamples);
    ``n_ar_confidence`` (AR only) the bootstrap resamples of each system's interval, -1 for none,
    0 for 1,000. ``n_jobs`` is accepted; the tests are vectorised in one process."""

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Metric[Any, Any]],
        references: Sequence[Sequence[str]] | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ):
        if test_type not in _DEFAULT_SAMPLES:
            raise InputError(f"unknown test type {test_type!r}: 'ar' or 'bs'")
        if len(named_systems) < 2:
            raise InputError("a paired test needs a baseline and at least one other system")
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        self.seed = None if seed.lower() == "none" else int(seed)
        self.test_type = test_type
        self.n_samples = n_samples if n_samples > 0 else _DEFAULT_SAMPLES[test_type]
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else _DEFAULT_SAMPLES["bs"]
        self.named_systems = [(name, list(hypotheses)) for name, hypotheses in named_systems]
        self.references = references
        self.metrics = dict(metrics)
        self.n_jobs = n_jobs

    def _statistics(self, metric: Metric[Any, Any]) -> list[np.ndarray]:
        systems = [hypotheses for _, hypotheses in self.named_systems]
        if self.references is None:
            return metric.systems_statistics(systems)
        return [metric.segment_statistics(hypotheses, self.references) for hypotheses in systems]

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """The signatures (by metric name) and the scores: ``"System"`` -> names, and each metric's
        name -> one ``Result`` per system, the baseline first."""
        named = {metric.name: metric for metric in self.metrics.values()}
        statistics = {name: self._statistics(metric) for name, metric in named.items()}
        names = [name for name, _ in self.named_systems]
        found = paired_test_statistics(named, statistics, names, self.test_type, self.n_samples, self.seed)
        scores: dict[str, list[Any]] = {"System": names}
        signatures = {}
        for name, metric in named.items():
            kind = _score_type(metric, statistics[name][0])
            results = [
                Result(r.score, r.p_value, *(None if v is None else kind(v) for v in (r.mean, r.ci)))
                for r in found.results[name]
            ]
            if self.test_type == "ar" and self.n_ar_confidence > 0:
                self._ar_intervals(metric, statistics[name], results)
            scores[name] = results
            fields = {"seed": str(self.seed).lower(), self.test_type: str(self.n_samples)}
            if self.n_ar_confidence > 0:
                fields["bs"] = str(self.n_ar_confidence)
            signatures[name] = _signature(metric).with_fields(**fields)
        return signatures, scores

    def _ar_intervals(self, metric: Metric[Any, Any], statistics: list[np.ndarray], results: list[Result]) -> None:
        """Each system's bootstrap mean and half-width beside the randomization test, from the draws
        sacrebleu makes: the baseline's from a fresh generator, each other system's after its trials."""
        n = len(statistics[0])
        for index, (stats, result) in enumerate(zip(statistics, results, strict=True)):
            rng = np.random.default_rng(self.seed)
            if index:
                rng.integers(2, size=(self.n_samples, n), dtype=bool)  # the trials' draws come first
            matrix = stats.astype(np.float32)
            sums = np.vstack(
                [weights.astype(np.float32) @ matrix for weights in bootstrap_weights(n, self.n_ar_confidence, rng)]
            )
            kind = _score_type(metric, stats)
            result.mean, result.ci = (kind(value) for value in confidence_interval(metric.scores_of_sums(sums)))


def _signature(metric: Metric[Any, Any]) -> Signature:
    """A metric's signature as sacrebleu's test reports it: a drop-in metric's ``get_signature``
    (the references it saw last, the test's included), else the metric's own."""
    get_signature = getattr(metric, "get_signature", None)
    return get_signature() if get_signature is not None else metric.signature()


def _score_type(metric: Metric[Any, Any], statistics: np.ndarray) -> Any:
    """The type of the metric's resampled scores, as sacrebleu returns means and intervals (float32
    for chrF and TER, whose resamples it scores in float32; float64 for BLEU)."""
    kind = np.asarray(metric.scores_of_sums(statistics[:1].astype(np.float32))).dtype

    return kind.type
