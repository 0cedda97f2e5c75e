"""``mtscore explain -m wer`` (or ``cer``): each segment's alignment, token by token.

The reference and hypothesis are printed one above the other, a column per aligned pair, with a
mark under each error (``S`` substitution, ``D`` deletion: a reference token the hypothesis lacks,
``I`` insertion: a hypothesis token the reference lacks; ``*`` fills the missing side), then the
counts and the error rate. The path is the one the scores count (``align.opcodes``: rapidfuzz's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .align import DELETION, HIT, INSERTION, SUBSTITUTION, opcodes
from .counts import EditCounts


class EditMetric(Protocol):
    """What the alignment view reads of WER or CER (``metric.EditRate``)."""

    name: str
    token_kind: str

    def segment_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray: ...

    def tokens(self, line: str) -> list[str]: ...

    def score_statistics(self, statistics: Any, nrefs: Any = None) -> EditCounts: ...


MARKS = {HIT: " ", SUBSTITUTION: "S", DELETION: "D", INSERTION: "I"}


@dataclass(frozen=True)
class SegmentAlignment:
    """One segment: its tokens and the runs ``(kind, ref_start, ref_end, hyp_start, hyp_end)``."""

    reference: list[str]
    hypothesis: list[str]
    runs: list[tuple[int, int, int, int, int]]
    result: EditCounts

    def columns(self) -> list[tuple[str, str, str]]:
        """(reference token, hypothesis token, mark) per aligned column, ``*`` on a missing side."""
        out = []
        for kind, i1, i2, j1, j2 in self.runs:
            refs = self.reference[i1:i2] if kind != INSERTION else [None] * (j2 - j1)
            hyps = self.hypothesis[j1:j2] if kind != DELETION else [None] * (i2 - i1)
            for ref, hyp in zip(refs, hyps, strict=True):
                width = max(len(ref or ""), len(hyp or ""), 1)
                out.append((ref or "*" * width, hyp or "*" * width, MARKS[kind]))
        return out


@dataclass(frozen=True)
class AlignmentExplanation:
    """Every segment's alignment, and the corpus result when there are several."""

    name: str
    token_kind: str  # "words" (shown with spaces between them) or "characters" (shown side by side)
    segments: list[SegmentAlignment]
    corpus: EditCounts

    def format(self) -> str:
        blocks = [self._segment_block(i) for i in range(len(self.segments))]
        if len(self.segments) > 1:
            blocks.append(self._summary(f"Corpus ({len(self.segments)} segments): the sums", self.corpus))
        return "\n\n".join(blocks)

    __str__ = format

    def _segment_block(self, index: int) -> str:
        segment = self.segments[index]
        title = f"Segment {index + 1}" if len(self.segments) > 1 else "Segment"
        columns = segment.columns()
        separator = " " if self.token_kind == "words" else ""
        rows = []
        for label, part in (("REF: ", 0), ("HYP: ", 1), ("     ", 2)):
            cells = [column[part].ljust(max(len(column[0]), len(column[1]))) for column in columns]
            rows.append(f"  {label}{separator.join(cells)}".rstrip())
        return "\n".join([title, *rows, *self._summary("", segment.result).splitlines()[1:]])

    def _summary(self, title: str, result: EditCounts) -> str:
        h, s, d, i = result.hits, result.substitutions, result.deletions, result.insertions
        kind = self.token_kind
        lines = [
            title,
            f"  hits H = {h}, substitutions S = {s}, deletions D = {d}, insertions I = {i}",
            f"  reference {kind} H + S + D = {h + s + d}; hypothesis {kind} H + S + I = {h + s + i}",
        ]
        if h + s + d:
            lines.append(f"  {self.name} = (S + D + I) / (H + S + D) = {s + d + i}/{h + s + d} = {result.score:.2f}%")
        else:
            lines.append(f"  no reference {kind}: {self.name} is the number of insertions (jiwer), {result.score:.0f}%")
        extra = result.to_dict()
        if "mer" in extra:
            lines.append(f"  MER = {extra['mer']:.4f}, WIL = {extra['wil']:.4f}, WIP = {extra['wip']:.4f}")
        return "\n".join(lines)


def explain(metric: EditMetric, hypotheses: list[str], references: list[list[str | None]]) -> AlignmentExplanation:
    """The alignments of ``hypotheses`` against one reference stream, with ``metric``'s tokens."""
    statistics = metric.segment_statistics(hypotheses, references)
    segments = []
    for index, (hypothesis, reference) in enumerate(zip(hypotheses, references[0], strict=True)):
        ref_tokens, hyp_tokens = metric.tokens(reference or ""), metric.tokens(hypothesis)
        vocabulary = {token: number for number, token in enumerate(dict.fromkeys(ref_tokens + hyp_tokens))}
        runs = opcodes(  # within the bounds of align.within_bounds: segment_statistics refuses larger pairs
            np.array([vocabulary[t] for t in ref_tokens], dtype=np.int64),
            np.array([vocabulary[t] for t in hyp_tokens], dtype=np.int64),
        )
        result = metric.score_statistics(statistics[index : index + 1])
        segments.append(SegmentAlignment(ref_tokens, hyp_tokens, runs, result))
    return AlignmentExplanation(metric.name, metric.token_kind, segments, metric.score_statistics(statistics))
