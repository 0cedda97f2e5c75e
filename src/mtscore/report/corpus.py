"""Corpus scores (``scores[metric][system]``) as sacrebleu prints them: score lines or JSON for
one system; for several, its JSON list or its table (a box grid, or LaTeX) with a column per
metric; and TSV rows, or the numbers alone (``-b -f tsv``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from . import Form
from .grid import booktabs, box_grid, signature_lines
from .tsv import tsv_lines


def render_scores(
    scores: Sequence[Sequence[Any]], sources: Sequence[str], form: Form, tsv_fields: Sequence[str] = ()
) -> str:
    """``scores[metric][system]`` of the systems read from ``sources``, as ``form`` asks; TSV lists
    the first metric's ``tsv_fields``."""
    width = form.width
    if form.format == "tsv" and not form.score_only:
        return "\n".join(
            tsv_lines(tsv_fields, [(source, "corpus", score) for source, score in zip(sources, scores[0], strict=True)])
        )
    if len(sources) == 1:
        return _one_system([row[0] for row in scores], form)
    if form.score_only and form.format == "tsv":  # sacrebleu ignores -b here; -b -f tsv: the numbers alone
        return "\n".join("\t".join(_number(row[i], width) for row in scores) for i in range(len(sources)))
    names = [row[0].name for row in scores]
    signatures = [row[0].signature.format(form.short) for row in scores]
    if form.format == "json":
        return _several_json(scores, sources, form, names, signatures)
    headers = ["System", *names]
    rows = [[source, *(_cell(column[i], width) for column in scores)] for i, source in enumerate(sources)]
    table = booktabs(headers, rows) if form.format == "latex" else box_grid(headers, rows)
    return "\n".join([*table, "", *signature_lines(names, signatures)])


def _several_json(
    scores: Sequence[Sequence[Any]], sources: Sequence[str], form: Form, names: list[str], signatures: list[str]
) -> str:
    """sacrebleu's JSON list of several systems (``system``, then each metric's score); with
    intervals (which sacrebleu refuses here) or ``form.extended``, each interval and signature too."""
    width, rows = form.width, []
    extended = form.extended or any(_interval(column[0], width) for column in scores)
    for i, source in enumerate(sources):
        row = {"system": source}
        for name, column, signature in zip(names, scores, signatures, strict=True):
            row[name] = _number(column[i], width)
            if extended:
                interval = _interval(column[i], width)
                if interval:
                    row[f"{name} confidence" if len(names) > 1 else "confidence"] = interval
                row[f"{name} signature" if len(names) > 1 else "signature"] = signature
        rows.append(row)
    return json.dumps(rows, indent=4, ensure_ascii=not extended)


def _interval(score: Any, width: int) -> str:
    """``μ = 65.0 ± 3.3`` for a score shown with its bootstrap interval (``--confidence``), else ``""``."""
    interval = getattr(score, "interval", None)
    return interval(width) if interval else ""


def _cell(score: Any, width: int) -> str:
    """A table cell: the score, with its bootstrap interval when it has one (as ``-b`` prints it)."""
    return score.format(width, score_only=True)


def _number(score: Any, width: int) -> str:
    """The score alone, without its interval."""
    return getattr(score, "score_object", score).format(width, score_only=True)


def _one_system(column: Sequence[Any], form: Form) -> str:
    """One system's score under each metric, as sacrebleu prints them (a JSON list for several)."""
    width = form.width
    if form.score_only:
        numbers = [score.format(width, score_only=True) for score in column]
        if form.format == "json" and len(numbers) > 1:  # sacrebleu prints a JSON list here
            return "[\n" + ",\n".join(numbers) + "\n]"
        return "\n".join(numbers)
    if form.format == "json":
        objects = [score.to_json(width) for score in column]
        return objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]"
    lines = [score.format(width, signature=score.signature.format(form.short)) for score in column]
    return "\n".join(_align_on_equals(lines))


def _align_on_equals(lines: list[str]) -> list[str]:
    """Score lines right-aligned on their ``=``, as sacrebleu prints several metrics."""
    if len(lines) == 1:
        return lines
    cut = [line.index(" = ") for line in lines]
    widest = max(cut)
    return [f"{line[:at]:>{widest}}{line[at:]}" for line, at in zip(lines, cut, strict=True)]
