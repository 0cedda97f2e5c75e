"""Every segment's score, per system (``-sl``): sacrebleu's score lines or the numbers alone, or
(asked for with ``-f json`` or ``-f tsv``) JSON lines or TSV rows that end with the corpus score,
from each system's ``core.score.SegmentResults``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from ..core.score import ScoreResult, SegmentResults
from . import Form
from .tsv import tsv_lines


def segment_lines(
    systems: Iterable[tuple[str, SegmentResults]], form: Form, several: bool, tsv_fields: Sequence[str] = ()
) -> Iterator[str]:
    """The lines of each ``(system, results)``, each prefixed with the system's name and a tab when
    there are ``several`` (which sacrebleu refuses; TSV rows and JSON lines name it anyway); TSV has
    one header over all systems."""
    if form.format == "tsv" and not form.score_only:
        rows: list[tuple[str, int | str, ScoreResult | dict]] = []
        for source, results in systems:
            rows += _tsv_rows(source, results, bool(tsv_fields))
        yield from tsv_lines(tsv_fields or ("score", *results.columns), rows)
        return
    for source, results in systems:
        yield from _system_lines(source, results, form, f"{source}\t" if several else "")


def _tsv_rows(source: str, results: SegmentResults, by_fields: bool) -> list[tuple[str, int | str, ScoreResult | dict]]:
    """A system's TSV rows: its results (listed by the metric's ``tsv_fields``), or each score with
    the statistics it comes from under their column names (the corpus row: their sums)."""
    if by_fields:
        return [
            *((source, line, score) for line, score in enumerate(results.segments, 1)),
            (source, "corpus", results.corpus),
        ]
    import numpy as np  # here: --help imports this module and must not load NumPy

    statistics = np.asarray(results.statistics)
    values = [*statistics.tolist(), statistics.sum(axis=0).tolist()]
    scores = [*results.segments, results.corpus]
    lines: list[int | str] = [*range(1, len(statistics) + 1), "corpus"]
    return [
        (source, line, {"score": score.score, **dict(zip(results.columns, row, strict=True))})
        for line, score, row in zip(lines, scores, values, strict=True)
    ]


def _system_lines(source: str, results: SegmentResults, form: Form, prefix: str) -> Iterator[str]:
    """JSON lines (each segment, then the corpus with its signatures); else sacrebleu's ``-sl``
    lines: each segment's score line with the segment signature, or with ``-b`` its number."""
    width, corpus = form.width, results.corpus
    segment_signature = (results.segment_signature or corpus.signature).format(form.short)
    if form.score_only:
        yield from (f"{prefix}{score.format(width, score_only=True)}" for score in results.segments)
    elif form.format == "json":
        for line, score in enumerate(results.segments, 1):
            yield json.dumps({"system": source, "line": line, **score.to_dict()}, ensure_ascii=False)
        row = {"system": source, "line": "corpus", **corpus.to_dict(), "signature": corpus.signature.format(form.short)}
        if results.segment_signature is not None:
            row["segment_signature"] = segment_signature
        yield json.dumps(row, ensure_ascii=False)
    else:
        yield from (f"{prefix}{score.format(width, signature=segment_signature)}" for score in results.segments)
