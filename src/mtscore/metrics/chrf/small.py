"""chrF of a few segments in plain Python: the statistics and formula of the vectorised path, without
its fixed cost per call.

Character n-grams are counted as sacrebleu counts them (whitespace removed as ``str.split`` finds it,
unless kept): a pair of lines long enough to gain with one sort of both lines' n-grams as integers
(``array_statistics``), a shorter one with a dictionary per order (``char_ngrams``). Each segment
keeps the statistics of its reference with the best chrF (the first of ties), and the F-score is
``formula.f_scores`` step for step on Python floats (the same float64 operations in the same order),
so every statistic and score is the vectorised path's to the last bit. Only what it covers takes this
path: character n-grams alone (chrF, not chrF++) with effective order (no ``eps_smoothing``),
references given with the call.
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]  # Counter's own counting loop
from operator import add

import numpy as np

# Calls of at most this many segments are scored here: the vectorised engine's fixed cost is about that
# of counting two segments in Python, and each further segment costs it a small fraction of one.
SMALL_SEGMENTS = 2
# A pair of lines with at least this many characters together (whitespace removed unless kept) is
# counted with a few NumPy calls on the pair; a shorter one with dictionaries, cheaper below this size.
ARRAY_PAIR_CHARS = 48
# The largest n-gram code the array count uses: an int64 keeps n-grams of ``bits * order <= 63``.
_CODE_BITS = 63

# A line's n-grams: its length (whitespace removed unless kept) and, per order, each n-gram's count.
NGrams = tuple[int, tuple[dict[str, int], ...]]


def char_ngrams(line: str, order: int) -> NGrams:
    """The character n-grams of orders 1 to ``order`` of a line (whitespace already removed, unless
    kept), each order's with their counts, and the length of the line."""
    counts: dict[str, int] = {}
    _count_elements(counts, line)
    tables = [counts]
    grams: str | list[str] = line
    for n in range(2, order + 1):
        # Each (n-1)-gram followed by the character after it: the line's n-grams in order (``map`` stops
        # at the shorter input, so the last (n-1)-gram, which has no character after it, is dropped).
        grams = list(map(add, grams, line[n - 1 :]))
        counts = {}
        _count_elements(counts, grams)
        tables.append(counts)
    return len(line), tuple(tables)


def statistics(hypothesis: NGrams, reference: NGrams) -> list[int]:
    """Per order, [hypothesis n-grams, reference n-grams, clipped matches], as sacrebleu counts them
    (no hypothesis n-grams counted where the reference has none of the order)."""
    hyp_length, hyp_tables = hypothesis
    ref_length, ref_tables = reference
    matches = []
    for hyp, ref in zip(hyp_tables, ref_tables, strict=True):
        shared = hyp.keys() & ref.keys()
        matches.append(sum(map(min, map(hyp.__getitem__, shared), map(ref.__getitem__, shared))))
    return _row(hyp_length, ref_length, matches)


def _row(hyp_length: int, ref_length: int, matches: list[int]) -> list[int]:
    """The statistics of each order from its clipped matches: a line of length ``L`` has ``L - n + 1``
    n-grams of order ``n`` (none when that is not positive), and sacrebleu counts no hypothesis n-grams
    of an order the reference has none of."""
    row: list[int] = []
    for n, match in enumerate(matches, 1):
        ref_count = ref_length - n + 1
        row += [max(hyp_length - n + 1, 0), ref_count, match] if ref_count > 0 else [0, 0, 0]
    return row


def array_statistics(hypothesis: str, reference: str, order: int) -> list[int] | None:
    """``statistics`` of two lines (whitespace already removed, unless kept) counted with NumPy, or
    ``None`` when the pair has too many distinct characters for its n-grams to fit in an int64.

    Each distinct character of the pair gets a code from 1 to ``k`` in ``bits`` bits, and an n-gram the
    number its codes make in base ``2**bits``: equal n-grams get equal numbers, and an n-gram of order
    ``n`` lies in ``[2**(bits*(n-1)), 2**(bits*n))``, so the orders are apart. One sort of both lines'
    numbers then gives every distinct n-gram with its count on each side.
    """
    hyp_length = len(hypothesis)
    alphabet, inverse = np.unique(
        np.frombuffer((hypothesis + reference).encode("utf-32-le", "surrogatepass"), dtype=np.uint32),
        return_inverse=True,
    )
    bits = len(alphabet).bit_length()  # codes 1 to k
    if bits * order > _CODE_BITS:
        return None
    codes = inverse.astype(np.int64) + 1
    grams = codes
    hyp_parts, ref_parts = [codes[:hyp_length]], [codes[hyp_length:]]
    for n in range(2, order + 1):
        grams = (grams[:-1] << bits) | codes[n - 1 :]  # position i: the n-gram starting at i
        hyp_parts.append(grams[: max(hyp_length - n + 1, 0)])
        ref_parts.append(grams[hyp_length:])  # the n-grams that start in the hypothesis end before here
    hyp_grams = sum(map(len, hyp_parts))
    distinct, which = np.unique(np.concatenate(hyp_parts + ref_parts), return_inverse=True)
    clipped = np.minimum(
        np.bincount(which[:hyp_grams], minlength=len(distinct)),
        np.bincount(which[hyp_grams:], minlength=len(distinct)),
    )
    # ``distinct`` is sorted, so each order's n-grams are one run of it; its matches the run's sum.
    ends = np.searchsorted(distinct, [1 << (bits * n) for n in range(1, order + 1)])
    running = np.concatenate(([0], np.cumsum(clipped)))[ends]  # the matches of orders 1 to n
    matches = np.diff(running, prepend=0).tolist()
    return _row(hyp_length, len(reference), matches)


def pair_statistics(hypothesis: str, reference: str, order: int, whitespace: bool) -> list[int]:
    """``statistics`` of a hypothesis against one reference, with NumPy for a pair long enough to gain."""
    if not whitespace:
        hypothesis, reference = "".join(hypothesis.split()), "".join(reference.split())
    if len(hypothesis) + len(reference) >= ARRAY_PAIR_CHARS:
        row = array_statistics(hypothesis, reference, order)
        if row is not None:
            return row
    return statistics(char_ngrams(hypothesis, order), char_ngrams(reference, order))


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
    rows = [pair_statistics(hypothesis, reference, order, whitespace) for reference in references]
    if len(rows) == 1:
        return rows[0]
    scores = [f_score(row, beta) for row in rows]
    return rows[scores.index(max(scores))]
