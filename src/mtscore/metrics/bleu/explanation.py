"""``mtscore explain``: the paper's tables for one segment, or a small corpus, in plain words.

For each order it lists every candidate n-gram with its Count, Max_Ref_Count (its largest
count in any single reference) and Count_clip (the smaller of the two), as in Section 2.1
of Papineni et al. (2002); then p_n, the best-match reference length, BP, the smoothing and
the score. The n-grams are counted here with plain ``Counter`` objects so that the table is
easy to check by eye; the score itself comes from the engine's formula (``formula``), and a
test checks that these counts equal the engine's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .stats import Stats

if TYPE_CHECKING:
    from .references import PreparedReferences
    from .result import BLEUScore, SentenceScores
    from .scoring import Scoring


class BLEUMetric(Protocol):
    """What the explanation reads of a ``metric.BLEU``: its options, tokenizer and scoring."""

    scoring: Scoring

    def prepare(self, references: Any, n_hypotheses: int | None = None) -> PreparedReferences: ...

    def tokenize(self, lines: list[str]) -> list[list[str]]: ...

    def score_statistics(
        self, statistics: Stats, nrefs: int | str | None = None, kind: str | None = None
    ) -> BLEUScore: ...

    def score_segments(self, stats: Stats, nrefs: int | str = 1, kind: str = "text") -> SentenceScores: ...


@dataclass(frozen=True)
class NgramRow:
    ngram: tuple[str, ...]
    count: int
    max_ref_count: int

    @property
    def clipped(self) -> int:
        return min(self.count, self.max_ref_count)


@dataclass(frozen=True)
class SegmentTables:
    """One segment: its tokens, the reference tokens and, per order, the n-gram rows."""

    hypothesis: list[str]
    references: list[list[str]]
    orders: list[list[NgramRow]]

    @property
    def matches(self) -> list[int]:
        return [sum(row.clipped for row in rows) for rows in self.orders]

    @property
    def totals(self) -> list[int]:
        return [sum(row.count for row in rows) for rows in self.orders]

    @property
    def ref_len(self) -> int:
        """The reference length closest to the hypothesis length, ties toward the shorter."""
        length = len(self.hypothesis)
        return min((len(reference) for reference in self.references), key=lambda r: (abs(r - length), r))


def ngram_tables(hypothesis: list[str], references: list[list[str]], max_order: int) -> SegmentTables:
    """Count, Max_Ref_Count and Count_clip of every hypothesis n-gram, in order of first appearance."""
    orders = []
    for n in range(1, max_order + 1):
        counts = Counter(tuple(hypothesis[i : i + n]) for i in range(len(hypothesis) - n + 1))
        in_refs = [Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1)) for ref in references]
        orders.append([NgramRow(ngram, count, max(ref[ngram] for ref in in_refs)) for ngram, count in counts.items()])
    return SegmentTables(hypothesis, references, orders)


@dataclass(frozen=True)
class Explanation:
    """The tables of each segment, the per-segment and corpus scores, and hints."""

    segments: list[SegmentTables]
    stats: Stats
    segment_scores: SentenceScores
    corpus: BLEUScore
    smoothing: str
    effective_order: bool
    max_order: int
    corpus_smoothing: str
    corpus_effective_order: bool
    hints: list[list[str]] = field(default_factory=list)

    def format(self) -> str:
        blocks = [self._segment_block(i) for i in range(len(self.segments))]
        if len(self.segments) > 1:
            blocks.append(self._corpus_block())
        return "\n\n".join(blocks)

    __str__ = format

    def _segment_block(self, index: int) -> str:
        tables, score = self.segments[index], self.segment_scores[index]
        title = f"Segment {index + 1}" if len(self.segments) > 1 else "Segment"
        lines = [f"{title}", f"  hypothesis ({len(tables.hypothesis)} tokens): {' '.join(tables.hypothesis)}"]
        for number, reference in enumerate(tables.references, 1):
            lines.append(f"  reference {number} ({len(reference)} tokens): {' '.join(reference)}")
        for n, rows in enumerate(tables.orders[: self.max_order], 1):
            lines += _order_table(n, rows, score.precisions[n - 1])
        lines += ["", *_summary(score, self.smoothing, self.effective_order, "segment")]
        lines += [f"  hint: {hint}" for hint in self.hints[index]]
        return "\n".join(lines)

    def _corpus_block(self) -> str:
        corpus = self.corpus
        lines = [f"Corpus ({len(self.segments)} segments): the sums over segments, then one formula"]
        orders = zip(corpus.counts, corpus.totals, corpus.precisions, strict=True)
        for n, (matches, total, precision) in enumerate(orders, 1):
            lines.append(f"  {n}-grams: clipped sum / total = {matches}/{total}  ->  p_{n} = {precision:.2f}%")
        lines += _summary(corpus, self.corpus_smoothing, self.corpus_effective_order, "corpus")
        return "\n".join(lines)


def _order_table(n: int, rows: list[NgramRow], precision: float) -> list[str]:
    width = max([len(f"{n}-grams"), *(len(" ".join(row.ngram)) for row in rows)])
    lines = ["", f"  {f'{n}-grams':<{width}}  Count  Max_Ref_Count  Count_clip"]
    lines += [
        f"  {' '.join(row.ngram):<{width}}  {row.count:>5}  {row.max_ref_count:>13}  {row.clipped:>10}" for row in rows
    ]
    matches, total = sum(row.clipped for row in rows), sum(row.count for row in rows)
    lines.append(f"  clipped sum / total = {matches}/{total}  ->  p_{n} = {precision:.2f}%")
    return lines


def _summary(score: BLEUScore, smoothing: str, effective_order: bool, level: str) -> list[str]:
    c, r = score.sys_len, score.ref_len
    reference, hypothesis = (
        ("best-match reference length", "hypothesis length")
        if level == "segment"
        else ("sum of best-match reference lengths", "sum of hypothesis lengths")
    )
    if c >= r:
        penalty = f"c = {c} >= r = {r}, so BP = 1"
    elif c == 0:
        penalty = "the hypothesis is empty, so BP = 0"
    else:
        penalty = f"c = {c} < r = {r}, so BP = exp(1 - r/c) = {score.bp:.4f}"
    eff = ", effective order" if effective_order else ""
    return [
        f"  {reference}: r = {r}; {hypothesis}: c = {c}; {penalty}",
        f"  smoothing: {smoothing}{eff}",
        f"  BLEU = BP * exp(sum of w_n log p_n) = {score.score:.2f}",
    ]


def hints_for(tables: SegmentTables, score: BLEUScore, smooth: str, effective_order: bool, max_order: int) -> list[str]:
    """Plain-language reasons for a score of 0 or 100, and for segments too short for every order."""
    hints = []
    length = len(tables.hypothesis)
    if length == 0:
        hints.append("the hypothesis is empty, so nothing can match and BLEU is 0.")
    elif score.score == 0 and tables.matches[0] == 0:
        hints.append("no hypothesis token appears in any reference, so every precision is 0.")
    elif score.score == 0:
        first = next(n for n, matches in enumerate(tables.matches, 1) if matches == 0)
        hints.append(
            f"there is no {first}-gram match and smoothing is '{smooth}', so the geometric mean of the precisions "
            "is 0. BLEU is a corpus metric: score a whole test set, or use a smoothing method (exp, the "
            "sentence-level default) for single sentences."
        )
    if 0 < length < max_order:
        left_out = "left out (effective order)" if effective_order else "counted as 0/0"
        orders = f"{length + 1}" if length + 1 == max_order else f"{length + 1} to {max_order}"
        hints.append(
            f"the hypothesis has only {length} tokens, so it has no n-grams of order {orders}; "
            f"those orders are {left_out}. A single short segment says little about quality."
        )
    if score.score >= 100 - 1e-9:
        same = [number for number, reference in enumerate(tables.references, 1) if reference == tables.hypothesis]
        if same:
            hints.append(
                f"the hypothesis is identical to reference {same[0]}, so every n-gram matches and BLEU is 100."
            )
        else:
            hints.append(
                "every hypothesis n-gram matches a reference and the hypothesis is not shorter than r: BLEU is 100."
            )
    return hints


def explain(
    hypotheses: list[str], references: list[list[str | None]], metric: BLEUMetric, sentence_metric: BLEUMetric
) -> Explanation:
    """Tables and scores of ``hypotheses`` against reference streams, with ``metric``'s options for the
    corpus score and ``sentence_metric``'s (sentence-level defaults) for each segment."""
    prepared = metric.prepare(references, len(hypotheses))
    hyp_tokens = metric.tokenize(list(hypotheses))
    ref_tokens = [metric.tokenize([line or "" for line in stream]) for stream in references]
    scoring = metric.scoring
    segments = []
    for i, tokens in enumerate(hyp_tokens):
        refs = [stream[i] for stream, lines in zip(ref_tokens, references, strict=True) if lines[i] is not None]
        segments.append(ngram_tables(tokens, refs, scoring.stats_order))
    stats = Stats(
        matches=np.array([tables.matches for tables in segments], dtype=np.int64).reshape(-1, scoring.stats_order),
        totals=np.array([tables.totals for tables in segments], dtype=np.int64).reshape(-1, scoring.stats_order),
        hyp_len=[len(tables.hypothesis) for tables in segments],
        ref_len=[tables.ref_len for tables in segments],
    )
    segment_scores = sentence_metric.score_segments(stats, prepared.nrefs)
    corpus = metric.score_statistics(stats, prepared.nrefs)
    smooth = sentence_metric.scoring.smooth_label()
    eff = sentence_metric.scoring.effective_order
    hints = [hints_for(tables, segment_scores[i], smooth, eff, scoring.max_order) for i, tables in enumerate(segments)]
    return Explanation(
        segments,
        stats,
        segment_scores,
        corpus,
        smooth,
        eff,
        scoring.max_order,
        scoring.smooth_label(),
        scoring.effective_order,
        hints,
    )
