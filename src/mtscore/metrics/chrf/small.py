"""chrF of a few segments in plain Python: the statistics and formula of the vectorised path, without
its fixed cost per call.

Character n-grams are counted with ``Counter`` as sacrebleu counts them (whitespace removed as
``str.split`` finds it, unless kept), each segment keeps the statistics of its reference with the best
chrF (the first of ties), and the F-score is ``formula.f_scores`` step for step on Python floats (the
same float64 operations in the same order), so every statistic and score is the vectorised path's to
the last bit. Only what it covers takes this path: character n-grams alone (chrF, not chrF++) with
effective order (no ``eps_smoothing``), references given with the call.
"""

from __future__ import annotations

from collections import Counter

# Calls of at most this many segments are scored here: the vectorised engine's fixed cost is about that
# of counting two segments in Python, and each further segment costs it a small fraction of one.
SMALL_SEGMENTS = 2


def char_ngrams(line: str, order: int, whitespace: bool) -> list[Counter[str]]:
    """The character n-grams of orders 1 to ``order`` of a line (whitespace removed unless kept), each
    order's with their counts."""
    if not whitespace:
        line = "".join(line.split())
    size = len(line)
    return [Counter(line)] + [Counter([line[at : at + n] for at in range(size - n + 1)]) for n in range(2, order + 1)]


def statistics(hypothesis: list[Counter[str]], reference: list[Counter[str]]) -> list[int]:
    """Per order, [hypothesis n-grams, reference n-grams, clipped matches], as sacrebleu counts them
    (no hypothesis n-grams counted where the reference has none of the order)."""
    row: list[int] = []
    for hyp, ref in zip(hypothesis, reference, strict=True):
        shared = hyp.keys() & ref.keys()
        matches = sum(map(min, map(hyp.__getitem__, shared), map(ref.__getitem__, shared)))
        row += [sum(hyp.values()) if ref else 0, sum(ref.values()), matches]
    return row


def f_score(row: list[int], beta: float) -> float:
    """``formula.f_scores`` of one row of integer statistics with effective order: F-beta (0-100) of
    precision and recall averaged over the orders where both counts are positive."""
    factor = beta**2
    average_p = average_r = 0.0
    orders = 0
    for at in range(0, len(row), 3):
        hyp, ref, match = row[at], row[at + 1], row[at + 2]
        if hyp > 0 and ref > 0:
            average_p = average_p + float(match) / float(hyp)
            average_r = average_r + float(match) / float(ref)
            orders += 1
    if orders == 0:
        return 0.0
    average_p, average_r = average_p / float(orders), average_r / float(orders)
    if average_p + average_r == 0:
        return 0.0
    f = float(1 + factor) * average_p * average_r
    return 100.0 * (f / (float(factor) * average_p + average_r))


def best_statistics(hypothesis: str, references: list[str], order: int, whitespace: bool, beta: float) -> list[int]:
    """The statistics of ``hypothesis`` against the reference with the best chrF (the first of ties)."""
    ngrams = char_ngrams(hypothesis, order, whitespace)
    rows = [statistics(ngrams, char_ngrams(reference, order, whitespace)) for reference in references]
    if len(rows) == 1:
        return rows[0]
    scores = [f_score(row, beta) for row in rows]
    return rows[scores.index(max(scores))]
