"""N-grams as BLEU clips them, across a corpus and inside one segment.

Across a corpus (``clipped_counts``): for every n-gram, how many of its occurrences each system
gets credited once clipped by the references (Count_clip of Papineni et al., 2002, summed over
segments), counted with array operations: one pass per order for all systems together. Inside a
segment (``fates``): whether each hypothesis n-gram was matched, clipped away (the references hold
it, but fewer times) or unmatched, from the tables ``mtscore explain`` prints.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...metrics.bleu.explanation import ngram_tables
from .tokens import Encoded

MATCHED, CLIPPED, UNMATCHED = "matched", "clipped", "unmatched"


@dataclass(frozen=True)
class NgramCounts:
    """Clipped matches of every n-gram of a corpus: ``counts[system, column]``; the n-gram of a
    column is ``text(column)`` (its order and first position, kept to spell it on demand)."""

    counts: np.ndarray
    orders: np.ndarray
    firsts: np.ndarray
    tokens: np.ndarray
    words: list[str]

    def text(self, column: int) -> str:
        start = self.firsts[column]
        return " ".join(self.words[token] for token in self.tokens[start : start + self.orders[column]])


def clipped_counts(encoded: Encoded, n_systems: int, max_order: int) -> NgramCounts:
    """Each system's clipped matches of each n-gram of orders 1 to ``max_order``, summed over the
    segments: in a segment, an n-gram counts at most as often as the reference that holds it most.
    ``encoded``: the systems' streams, then the references'."""
    tokens, lengths, n_words = np.concatenate(encoded.ids), np.concatenate(encoded.lengths), len(encoded.words)
    segment = np.repeat(np.arange(len(lengths)), lengths)  # stream * n_segments + line, at each position
    room = lengths[segment] - (np.arange(len(tokens)) - np.repeat(np.cumsum(lengths) - lengths, lengths))
    counts, orders, firsts = [], [], []
    previous = tokens  # at each position, the id of the (n-1)-gram that starts there
    for n in range(1, max_order + 1):
        positions = np.flatnonzero(room >= n)
        keys = tokens[positions] if n == 1 else previous[positions] * n_words + tokens[positions + n - 1]
        unique, first, dense = np.unique(keys, return_index=True, return_inverse=True)
        counts.append(_clip(segment[positions], dense, len(unique), len(encoded.lengths[0]), n_systems))
        orders.append(np.full(len(unique), n))
        firsts.append(positions[first])
        previous = np.zeros(len(tokens), dtype=np.int64)
        previous[positions] = dense
    return NgramCounts(np.hstack(counts), np.concatenate(orders), np.concatenate(firsts), tokens, encoded.words)


def _clip(segment: np.ndarray, key: np.ndarray, n_keys: int, n_segments: int, n_systems: int) -> np.ndarray:
    """``[system, key]`` sums over segments of min(hypothesis count, largest reference count)."""
    codes, counts = np.unique(segment * n_keys + key, return_counts=True)  # one per (stream, line, n-gram)
    stream, line, key = codes // n_keys // n_segments, codes // n_keys % n_segments, codes % n_keys
    in_line = line * n_keys + key
    is_ref = stream >= n_systems
    ref_codes, ref_counts = in_line[is_ref], counts[is_ref]
    order = np.argsort(ref_codes, kind="stable")
    ref_codes, ref_counts = ref_codes[order], ref_counts[order]
    starts = np.flatnonzero(np.r_[True, ref_codes[1:] != ref_codes[:-1]]) if len(ref_codes) else np.zeros(0, int)
    best_codes = ref_codes[starts]
    best = np.maximum.reduceat(ref_counts, starts) if len(starts) else np.zeros(0, np.int64)
    hyp = ~is_ref
    where = np.searchsorted(best_codes, in_line[hyp])
    found = where < len(best_codes)
    found[found] = best_codes[where[found]] == in_line[hyp][found]
    limit = np.where(found, best[np.minimum(where, max(len(best) - 1, 0))] if len(best) else 0, 0)
    clipped = np.minimum(counts[hyp], limit)
    return np.bincount(stream[hyp] * n_keys + key[hyp], weights=clipped, minlength=n_systems * n_keys).reshape(
        n_systems, n_keys
    )


def fates(hypothesis: list[str], references: list[list[str]], max_order: int) -> list[list[str]]:
    """Per order, the fate of the n-gram starting at each hypothesis position: the first
    Count_clip occurrences are ``matched``, later ones ``clipped`` away when the references hold
    the n-gram fewer times, and ``unmatched`` when no reference holds it."""
    tables = ngram_tables(hypothesis, references, max_order)
    found = []
    for n, rows in enumerate(tables.orders, 1):
        limit = {row.ngram: row.max_ref_count for row in rows}
        seen: Counter[tuple[str, ...]] = Counter()
        order = []
        for start in range(len(hypothesis) - n + 1):
            ngram = tuple(hypothesis[start : start + n])
            seen[ngram] += 1
            order.append(MATCHED if seen[ngram] <= limit[ngram] else CLIPPED if limit[ngram] else UNMATCHED)
        found.append(order)
    return found


@dataclass(frozen=True)
class Contrast:
    """The n-grams that ``system`` matches much more often than ``other`` (``more``) and much less
    often (``fewer``), as (n-gram, matches of system, matches of other) rows."""

    system: int
    other: int
    more: list[tuple[str, int, int]]
    fewer: list[tuple[str, int, int]]


def contrast(counts: NgramCounts, system: int, other: int, top: int = 15, smoothing: float = 1.0) -> Contrast:
    """compare-mt's characteristic n-grams on clipped matches: ranked by (a + s) / (a + b + 2s),
    a and b the two systems' matches and s a smoothing count, ties to the more frequent; of the
    ranked n-grams, the first ``top`` where none is part of another (``collapsed``)."""
    a, b = counts.counts[system], counts.counts[other]
    present = np.flatnonzero(a + b > 0)
    ratio = (a[present] + smoothing) / (a[present] + b[present] + 2 * smoothing)
    more = present[np.lexsort((-(a[present] + b[present]), -ratio))]
    fewer = present[np.lexsort((-(a[present] + b[present]), ratio))]

    def rows(columns: np.ndarray) -> list[tuple[str, int, int]]:
        return [(text, int(a[c]), int(b[c])) for c, text in collapsed(counts, columns, top)]

    return Contrast(system, other, rows(more), rows(fewer))


def collapsed(counts: NgramCounts, ranked: np.ndarray, top: int) -> list[tuple[int, str]]:
    """The first ``top`` of the ``ranked`` columns (with their n-grams' texts) such that no n-gram
    listed is part of a longer one listed: an n-gram within one ranked above it is skipped, and one
    ranked below that holds listed n-grams takes their place, so that the overlapping pieces of one
    phrase ("kontaktiert", "# kontaktiert", "ORG # kontaktiert") are listed once, as the longest."""
    listed: list[tuple[int, str]] = []
    for column in map(int, ranked):
        if len(listed) == top:
            break
        text = counts.text(column)
        padded = f" {text} "  # tokens hold no spaces: whole tokens match whole tokens
        if any(padded in f" {longer} " for _, longer in listed):
            continue
        listed = [(c, shorter) for c, shorter in listed if f" {shorter} " not in padded]
        listed.append((column, text))
    return listed
