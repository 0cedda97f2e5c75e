"""The BLEU formula over ``Stats`` rows: smoothing, effective order, weights, brevity penalty.

``corpus_rows`` scores the corpus (one row), ``segment_rows`` every segment. sacrebleu's methods
follow its ``compute_bleu`` step for step, so results agree to the last bits: precisions in
percent, log(0) floored to -9999999999, a sum over orders then one exp. NLTK's methods are in
``chen_cherry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.stats import float32_arithmetic
from ...engine import libm
from ...errors import InputError
from . import chen_cherry
from .brevity import brevity_penalty
from .scoring import Scoring
from .stats import Stats

LOG_ZERO = -9999999999.0


@dataclass(frozen=True)
class Rows:
    """Per-row results of the formula: scores, precisions (percent) and brevity penalties."""

    scores: np.ndarray
    precisions: np.ndarray
    bp: np.ndarray


def corpus_rows(stats: Stats, scoring: Scoring) -> Rows:
    """The corpus score (one row) of per-segment statistics."""
    if scoring.nltk_method is None:
        return compute(stats.total(), scoring)
    return _percent(*chen_cherry.unit_scores(chen_cherry.corpus_counts(_checked(stats, scoring)), scoring, "corpus"))


def segment_rows(stats: Stats, scoring: Scoring) -> Rows:
    """Every segment's own score (sentence-level BLEU)."""
    if scoring.nltk_method is None:
        return compute(stats, scoring)
    return _percent(*chen_cherry.unit_scores(chen_cherry.segment_counts(_checked(stats, scoring)), scoring))


def _percent(scores: np.ndarray, precisions: np.ndarray, bp: np.ndarray) -> Rows:
    return Rows(100.0 * scores, 100.0 * precisions, bp)


def _checked(stats: Stats, scoring: Scoring) -> Stats:
    if stats.max_order != scoring.stats_order:
        raise InputError(f"statistics of max order {stats.max_order} scored with max order {scoring.stats_order}")
    return stats


def compute(stats: Stats, scoring: Scoring, dtype: type[np.floating[Any]] = np.float64) -> Rows:
    """sacrebleu's BLEU formula applied to every row of ``stats``; precisions are computed in
    ``dtype`` (float32 reproduces sacrebleu's scores of float32 statistics, see ``score_sums``)."""
    _checked(stats, scoring)
    correct = stats.matches.astype(dtype)
    total = stats.totals.astype(dtype)
    value, hundred = scoring.value, dtype(100.0)
    if scoring.smooth == "add-k":
        correct[:, 1:] += value
        total[:, 1:] += value
    # Orders are used up to the first one without hypothesis n-grams.
    active = np.cumprod(total > 0, axis=1).astype(bool)
    missed = active & (correct == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = np.where(active, hundred * correct / total, 0.0)
        if scoring.smooth == "exp":
            halving = (2.0 ** np.cumsum(missed, axis=1)).astype(dtype)
            precisions = np.where(missed, hundred / (halving * total), precisions)
        elif scoring.smooth == "floor":
            assert value is not None  # floor always has a value (0.1 by default)
            precisions = np.where(missed, dtype(100.0 * value) / total, precisions)
        precisions = precisions.astype(np.float64)
        logs = np.where(precisions > 0, libm.log(np.where(precisions > 0, precisions, 1.0)), LOG_ZERO)

    order = active.sum(axis=1) if scoring.effective_order else np.full(len(stats), scoring.max_order)
    weights = _weights(scoring, order)
    exponent = np.zeros(len(stats))
    for n in range(scoring.max_order):  # summed order by order, as sacrebleu does
        exponent = exponent + np.where(n < order, weights[:, n] * logs[:, n], 0.0)
    if scoring.weights is None:
        exponent = exponent / np.maximum(order, 1)

    bp = brevity_penalty(stats.hyp_len, stats.ref_len)
    no_match = stats.matches.sum(axis=1) == 0  # sacrebleu's early stop: score and precisions 0
    scores = np.where(no_match, 0.0, bp * libm.exp(exponent))
    precisions = np.where(no_match[:, None], 0.0, precisions)
    return Rows(scores, precisions, bp)


def score_sums(sums: np.ndarray, scoring: Scoring) -> np.ndarray:
    """Scores of rows of summed statistics in sacrebleu's layout (``Stats.to_matrix``).

    float32 sums are scored as sacrebleu scores them in its bootstrap resampling: precisions
    in the arithmetic of ``python float * numpy.float32`` (float32 under NumPy 2)."""
    if scoring.nltk_method is not None:
        raise InputError(
            f"{scoring.smooth} smoothing needs per-segment statistics; significance tests "
            "and resampling use sacrebleu's smoothing methods (exp, floor, add-k, none)"
        )
    dtype = float32_arithmetic() if sums.dtype == np.float32 else np.float64
    return compute(Stats.from_matrix(np.rint(sums).astype(np.int64)), scoring, dtype).scores


def _weights(scoring: Scoring, order: np.ndarray) -> np.ndarray:
    """Per row and order: 1 for the uniform mean (divided later), else the weights
    renormalised over the orders in use."""
    rows = len(order)
    if scoring.weights is None:
        return np.ones((rows, scoring.max_order))
    weights = np.tile(np.asarray(scoring.weights), (rows, 1))
    used = np.arange(scoring.max_order)[None, :] < order[:, None]
    kept = np.where(used, weights, 0.0).sum(axis=1, keepdims=True)
    return np.divide(weights, kept, out=np.zeros_like(weights), where=kept > 0)
