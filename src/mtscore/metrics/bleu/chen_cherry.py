"""Chen & Cherry (2014) smoothing methods 0-7, exactly as NLTK 3.10's ``bleu_score`` computes them.

NLTK's formula differs from sacrebleu's in small ways that change scores, all kept here:
a segment with no n-grams of an order adds 1 to that order's denominator; precisions are
fractions (not percent); orders whose smoothed precision is 0 are left out of the weighted
sum of logs; method 0 replaces a zero precision with the smallest positive float.
Every function works on rows (segments, or one row for a corpus) at once.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ...errors import BleuInputError
from .brevity import brevity_penalty
from .scoring import NLTK_EXTRA_ORDER, Scoring
from .stats import Stats


@dataclass(frozen=True)
class Counts:
    """What NLTK's formula reads, per row: clipped matches and denominators per order (floats),
    hypothesis n-gram counts (method 6), the extra 5-gram precision (methods 5 and 7), lengths."""

    matches: np.ndarray
    denominators: np.ndarray
    ngrams: np.ndarray
    extra: np.ndarray
    hyp_len: np.ndarray
    ref_len: np.ndarray


def _extra(matches: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    if matches.shape[1] < NLTK_EXTRA_ORDER:
        return np.zeros(len(matches))  # not needed: only methods 5 and 7 read it, and they get 5-gram stats
    return matches[:, NLTK_EXTRA_ORDER - 1] / denominators[:, NLTK_EXTRA_ORDER - 1]


def segment_counts(stats: Stats) -> Counts:
    """Each segment on its own, as NLTK's ``sentence_bleu``."""
    matches = stats.matches.astype(np.float64)
    denominators = np.maximum(stats.totals, 1).astype(np.float64)
    return Counts(
        matches,
        denominators,
        stats.totals.astype(np.float64),
        _extra(matches, denominators),
        stats.hyp_len,
        stats.ref_len,
    )


def corpus_counts(stats: Stats, last_segment: bool = False) -> Counts:
    """One row of corpus sums, as NLTK's ``corpus_bleu``. With ``last_segment``, methods 5-7 read
    the last segment's 5-gram precision and n-gram counts, as NLTK 3.10 does; by default the corpus's."""
    rows = segment_counts(stats)
    matches, denominators = rows.matches.sum(axis=0, keepdims=True), rows.denominators.sum(axis=0, keepdims=True)
    if last_segment:
        ngrams, extra = rows.ngrams[-1:], rows.extra[-1:]
    else:
        ngrams, extra = rows.ngrams.sum(axis=0, keepdims=True), _extra(matches, denominators)
    return Counts(
        matches, denominators, ngrams, extra, stats.hyp_len.sum(keepdims=True), stats.ref_len.sum(keepdims=True)
    )


def smoothed_precisions(counts: Counts, scoring: Scoring) -> np.ndarray:
    """Precisions (fractions) per row and order after the chosen method; 0 means "left out"."""
    order = scoring.max_order
    matches, denominators = counts.matches[:, :order], counts.denominators[:, :order]
    method, value = scoring.nltk_method, scoring.value
    precisions = matches / denominators
    zero = matches == 0
    if method == 0:
        return np.where(zero, sys.float_info.min, precisions)
    if method == 1:
        return np.where(zero, value / denominators, precisions)
    if method == 2:
        precisions[:, 1:] = (matches[:, 1:] + 1) / (denominators[:, 1:] + 1)
        return precisions
    if method == 3:
        return np.where(zero, 1 / (2.0 ** np.cumsum(zero, axis=1) * denominators), precisions)
    if method == 4:
        return _method4(precisions, zero, denominators, counts.hyp_len, value)
    if method == 5:
        return _method5(precisions, counts.extra)
    if method == 6:
        return _method6(precisions, matches, counts.ngrams[:, :order], value)
    return _method5(_method4(precisions, zero, denominators, counts.hyp_len, value), counts.extra)


def _method4(precisions, zero, denominators, hyp_len, k) -> np.ndarray:
    """Zero precisions become 1 / (2^i * k / ln(hypothesis length)) / denominator; not for length <= 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        log_length = np.log(np.maximum(hyp_len, 1).astype(np.float64))[:, None]
        smoothed = (1 / (2.0 ** np.cumsum(zero, axis=1) * k / log_length)) / denominators
    return np.where(zero & (hyp_len[:, None] > 1), smoothed, precisions)


def _method5(precisions, extra) -> np.ndarray:
    """Each precision averaged with the smoothed previous one and the next raw one (the 5-gram after the last)."""
    following = np.concatenate([precisions[:, 1:], extra[:, None]], axis=1)
    smoothed = np.empty_like(precisions)
    previous = precisions[:, 0] + 1
    for n in range(precisions.shape[1]):
        previous = smoothed[:, n] = (previous + precisions[:, n] + following[:, n]) / 3
    return smoothed


def _method6(precisions, matches, ngrams, alpha) -> np.ndarray:
    """From trigrams on, interpolate with the prior p(n-1)^2 / p(n-2) (Gao and He, 2013)."""
    smoothed = precisions.copy()
    for n in range(2, precisions.shape[1]):
        before, last = smoothed[:, n - 2], smoothed[:, n - 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            prior = np.where(before == 0, 0.0, last**2 / before)
        smoothed[:, n] = (matches[:, n] + alpha * prior) / (ngrams[:, n] + alpha)
    return smoothed


def _check_method6(counts: Counts, rows: str) -> None:
    """NLTK's method 6 refuses rows with some unigram matches but no trigram match; so do we, clearly."""
    refused = np.flatnonzero((counts.matches[:, 0] > 0) & (counts.matches[:, 2] == 0))
    if len(refused) == 0:
        return
    where = "the corpus" if rows == "corpus" else f"segment {refused[0]}"
    if len(refused) > 1:
        where += f" (and {len(refused) - 1} more)"
    raise BleuInputError(
        f"nltk-method6 needs at least one trigram match, and {where} has none (NLTK refuses it too); "
        "use another smoothing method"
    )


def unit_scores(counts: Counts, scoring: Scoring, rows: str = "segments") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores in [0, 1] (as NLTK returns them), smoothed precisions and brevity penalties per row;
    ``rows`` ("segments" or "corpus") names the rows in errors."""
    if scoring.nltk_method == 6:
        _check_method6(counts, rows)
    precisions = smoothed_precisions(counts, scoring)
    order = scoring.max_order
    weights = np.asarray(scoring.weights if scoring.weights is not None else (1 / order,) * order)
    with np.errstate(divide="ignore"):
        logs = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1.0)), 0.0)
    bp = brevity_penalty(counts.hyp_len, counts.ref_len)
    no_unigram = counts.matches[:, 0] == 0  # NLTK returns 0 before smoothing
    scores = np.where(no_unigram, 0.0, bp * np.exp(logs @ weights))
    return scores, precisions, bp
