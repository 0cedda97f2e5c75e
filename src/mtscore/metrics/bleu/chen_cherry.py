"""Chen & Cherry (2014) smoothing methods 0-7, exactly as NLTK 3.10's ``bleu_score`` computes them.

NLTK's formula differs from sacrebleu's in small ways that change scores, all kept here:
a segment with no n-grams of an order adds 1 to that order's denominator; precisions are
fractions (not percent); orders whose smoothed precision is 0 are left out of the weighted
sum of logs; method 0 replaces a zero precision with the smallest positive float.
Every function works on rows (segments, or one row for a corpus) at once.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any, cast

import numpy as np

from ...errors import InputError
from .brevity import brevity_penalty, nltk_brevity_penalty
from .scoring import NLTK_EXTRA_ORDER, Scoring
from .stats import Stats


@dataclass(frozen=True)
class Counts:
    """What NLTK's formula reads, per row: clipped matches and denominators per order (floats),
    hypothesis n-gram counts (method 6), the extra 5-gram matches and denominator (methods 5
    and 7), lengths."""

    matches: np.ndarray
    denominators: np.ndarray
    ngrams: np.ndarray
    extra_counts: np.ndarray  # rows x [5-gram matches, 5-gram denominator]
    hyp_len: np.ndarray
    ref_len: np.ndarray

    @property
    def extra(self) -> np.ndarray:
        """The extra 5-gram precision of each row."""
        return self.extra_counts[:, 0] / self.extra_counts[:, 1]


def _extra(matches: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    if matches.shape[1] < NLTK_EXTRA_ORDER:  # not needed: only methods 5 and 7 read it, and they get 5-gram stats
        return np.column_stack([np.zeros(len(matches)), np.ones(len(matches))])
    return np.column_stack([matches[:, NLTK_EXTRA_ORDER - 1], denominators[:, NLTK_EXTRA_ORDER - 1]])


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
        ngrams, extra = rows.ngrams[-1:], rows.extra_counts[-1:]
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
    raise InputError(
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


@dataclass(frozen=True)
class Row:
    """One row of ``Counts`` as Python ints, what ``row_score`` reads: clipped matches, denominators
    and hypothesis n-grams per order, the extra 5-gram [matches, denominator], lengths."""

    matches: list[int]
    denominators: list[int]
    ngrams: list[int]
    extra: tuple[int, int]
    hyp_len: int
    ref_len: int

    @classmethod
    def of(cls, counts: Counts) -> Row:
        """The first row of ``counts``."""
        return cls(
            [int(m) for m in counts.matches[0]],
            [int(d) for d in counts.denominators[0]],
            [int(n) for n in counts.ngrams[0]],
            (int(counts.extra_counts[0, 0]), int(counts.extra_counts[0, 1])),
            int(counts.hyp_len[0]),
            int(counts.ref_len[0]),
        )

    @classmethod
    def corpus(cls, segments: list[tuple[int, int, list[int], list[int]]], last_segment: bool = False) -> Row:
        """``Row.of(corpus_counts(stats, last_segment))`` of per-segment statistics given as Python
        numbers (hypothesis length, reference length, matches, totals), without NumPy."""
        if len(segments) == 1:  # a sentence: its own counts, what the sums below give for one segment
            hyp_len, ref_len, matches, totals = segments[0]
            denominators = [total if total > 1 else 1 for total in totals]
            return cls(list(matches), denominators, list(totals), _extra_of(matches, denominators), hyp_len, ref_len)
        order = len(segments[0][2])
        matches = [sum(segment[2][n] for segment in segments) for n in range(order)]
        denominators = [sum(max(segment[3][n], 1) for segment in segments) for n in range(order)]
        if last_segment:
            ngrams, extra = list(segments[-1][3]), _extra_of(segments[-1][2], [max(t, 1) for t in segments[-1][3]])
        else:
            ngrams, extra = (
                [sum(segment[3][n] for segment in segments) for n in range(order)],
                _extra_of(matches, denominators),
            )
        hyp_len, ref_len = sum(segment[0] for segment in segments), sum(segment[1] for segment in segments)
        return cls(matches, denominators, ngrams, extra, hyp_len, ref_len)


def _extra_of(matches: list[int], denominators: list[int]) -> tuple[int, int]:
    """``_extra`` of one row of Python numbers."""
    if len(matches) < NLTK_EXTRA_ORDER:
        return 0, 1
    return matches[NLTK_EXTRA_ORDER - 1], denominators[NLTK_EXTRA_ORDER - 1]


def _method5_exact(matches: list[int], denominators: list[int], extra: tuple[int, int]) -> list[Fraction | float]:
    """Method 5 on precisions that are all exact, NLTK's ``Fraction`` arithmetic on integer pairs
    (numerator, denominator) left unreduced: each precision is averaged with the smoothed previous one
    (the first with 1 + itself) and the next raw one (the extra 5-gram precision after the last). The
    float of each exact value, which is what NLTK's logarithm takes of its fraction."""
    raw = [*zip(matches, denominators, strict=True), extra]
    previous_numerator, previous_denominator = raw[0][0] + raw[0][1], raw[0][1]
    smoothed: list[Fraction | float] = []
    for (numerator, denominator), (next_numerator, next_denominator) in pairwise(raw):
        previous_numerator = (
            previous_numerator * denominator * next_denominator
            + numerator * previous_denominator * next_denominator
            + next_numerator * previous_denominator * denominator
        )
        previous_denominator = 3 * previous_denominator * denominator * next_denominator
        smoothed.append(previous_numerator / previous_denominator)
    return smoothed


def _method6_exact(row: Row, matches: list[int], denominators: list[int], alpha: int) -> list[Fraction | float]:
    """Method 6 with an int alpha, NLTK's ``Fraction`` arithmetic on integer pairs (numerator,
    denominator) left unreduced: from trigrams on, (matches + alpha * prior) / (n-grams + alpha) with the
    prior p(n-1)^2 / p(n-2) (never a division by 0: method 6 scores only rows with unigram and trigram
    matches, so with bigram matches, and every interpolated precision is then positive). The float of
    each exact value, which is what NLTK's logarithm takes of its fraction."""
    pairs = [(m, d) for m, d in zip(matches[:2], denominators[:2], strict=True)]
    for n in range(2, len(matches)):
        (before_numerator, before_denominator), (last_numerator, last_denominator) = pairs[n - 2], pairs[n - 1]
        prior_numerator = last_numerator * last_numerator * before_denominator
        prior_denominator = last_denominator * last_denominator * before_numerator
        pairs.append(
            (
                matches[n] * prior_denominator + alpha * prior_numerator,
                prior_denominator * (row.ngrams[n] + alpha),
            )
        )
    return [numerator / denominator for numerator, denominator in pairs]


def nltk_score(counts: Counts, scoring: Scoring) -> float | int:
    """The score of one row (``counts`` of a single segment or corpus) in NLTK's own Python
    arithmetic: ``row_score`` of its first row."""
    return row_score(Row.of(counts), scoring)


def row_score(row: Row, scoring: Scoring) -> float | int:
    """The score of one row in NLTK's own Python arithmetic: exact fractions where NLTK keeps them,
    ``math.log``, ``math.fsum`` and ``math.exp`` in its order, so the float is bit-identical to
    NLTK's (the vectorised ``unit_scores`` agrees to about 1e-15). Like NLTK, the int 0 when no
    unigram matches."""
    if scoring.nltk_method == 6 and row.matches[0] > 0 and row.matches[2] == 0:
        raise InputError(
            "nltk-method6 needs at least one trigram match, and the corpus has none (NLTK refuses it too); "
            "use another smoothing method"
        )
    matches = row.matches[: scoring.max_order]
    if matches[0] == 0:
        return 0
    precisions = _nltk_precisions(row, scoring, matches)
    bp = nltk_brevity_penalty(row.ref_len, row.hyp_len)
    order = scoring.max_order
    weights = scoring.weights if scoring.weights is not None else (1 / order,) * order
    return bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, precisions, strict=True) if p > 0))


def _nltk_precisions(row: Row, scoring: Scoring, matches: list[int]) -> list[Fraction | float]:
    """Smoothed precisions of one row as NLTK's ``SmoothingFunction`` leaves them: fractions where
    it keeps fractions, floats where its arithmetic turns them into floats."""
    method, value = scoring.nltk_method, cast(Any, scoring.value)  # as given: an int alpha keeps fractions exact
    denominators = row.denominators[: len(matches)]
    precisions: list[Fraction | float]
    if method in (5, 6, 7):  # their arithmetic on precisions is NLTK's on exact fractions
        precisions = [Fraction(m, d) for m, d in zip(matches, denominators, strict=True)]
    else:  # only logarithms and signs are taken: the float of m / d is the float of Fraction(m, d)
        precisions = [m / d for m, d in zip(matches, denominators, strict=True)]
    zeros = [n for n, m in enumerate(matches) if m == 0]
    if method == 0:
        for n in zeros:
            precisions[n] = sys.float_info.min
    elif method == 1:
        for n in zeros:
            precisions[n] = (0 + value) / denominators[n]
    elif method == 2:
        precisions[1:] = [(m + 1) / (d + 1) for m, d in zip(matches[1:], denominators[1:], strict=True)]
    elif method == 3:
        for k, n in enumerate(zeros, 1):
            precisions[n] = 1 / (2**k * denominators[n])
    if method in (4, 7) and row.hyp_len > 1:
        for k, n in enumerate(zeros, 1):
            precisions[n] = 1 / (2**k * value / math.log(row.hyp_len)) / denominators[n]
    if method in (5, 7) and not any(type(precision) is float for precision in precisions):
        return _method5_exact(matches, denominators, row.extra)
    if method in (5, 7):
        following = [*precisions[1:], Fraction(*row.extra)]
        previous: Fraction | float = precisions[0] + 1
        for n in range(len(precisions)):
            previous = precisions[n] = (previous + precisions[n] + following[n]) / 3
    if method == 6 and type(value) is int:
        return _method6_exact(row, matches, denominators, value)
    if method == 6:
        for n in range(2, len(precisions)):
            before, last = precisions[n - 2], precisions[n - 1]
            prior = 0 if before == 0 else last**2 / before
            precisions[n] = (matches[n] + value * prior) / (row.ngrams[n] + value)
    return precisions
