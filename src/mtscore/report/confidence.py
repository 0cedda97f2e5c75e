"""A corpus score with its bootstrap mean and 95% interval (``-ci``), in sacrebleu's text and JSON forms."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..core.metric import Metric
from ..core.score import ScoreResult
from ..significance.resampling import bootstrap_confidence, resolve_seed


class Confident:
    """A score shown with its bootstrap interval, in sacrebleu's text and JSON forms."""

    def __init__(self, score: ScoreResult, mean: float, ci: float):
        self.score_object, self.mean, self.ci = score, mean, ci
        self.name, self.score, self.signature = score.name, score.score, score.signature

    def interval(self, width: int) -> str:
        return f"μ = {self.mean:.{width}f} ± {self.ci:.{width}f}"

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str:
        line = self.score_object.format(width, score_only, signature)
        if score_only:  # as sacrebleu: the number with its interval
            return f"{line} ({self.interval(width)})"
        head, rest = line.split(" = ", 1)
        number, _, details = rest.partition(" ")
        return f"{head} = {number} ({self.interval(width)}) {details}".rstrip()

    def to_json(self, width: int = 2) -> str:
        data = json.loads(self.score_object.to_json(width))
        extra = {
            "confidence_mean": float(f"{self.mean:.{width}f}"),
            "confidence_var": float(f"{self.ci:.{width}f}"),
            "confidence": self.interval(width),
        }
        keys = list(data)
        at = keys.index("signature") + 1
        ordered = {key: data[key] for key in keys[:at]} | extra | {key: data[key] for key in keys[at:]}
        return json.dumps(ordered, indent=1, ensure_ascii=False)


def with_confidence(
    metric: Metric, score: Any, statistics: np.ndarray, n_samples: int, seed: int | str | None
) -> Confident:
    """``score`` (the metric's result of ``statistics``, a dataclass) with its bootstrap mean and 95%
    half-width over ``n_samples`` resamples, and ``bs``/``seed`` in its signature."""
    mean, ci = bootstrap_confidence(metric, statistics, n_samples, seed)
    signature = score.signature.with_fields(bs=str(n_samples), seed=str(resolve_seed(seed)).lower())
    return Confident(score.with_signature(signature), mean, ci)
