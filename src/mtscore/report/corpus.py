"""Corpus scores (``scores[metric][system]``): sacrebleu's score lines or JSON for one system, a
table with a column per metric for several, TSV rows, or the numbers alone."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from . import Form
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
    if form.score_only:
        return "\n".join(
            "\t".join(row[i].format(width, score_only=True) for row in scores) for i in range(len(sources))
        )
    names = [row[0].name for row in scores]
    signatures = [row[0].signature.format(form.short) for row in scores]
    if form.format == "json":
        rows = []
        for i, source in enumerate(sources):
            row = {"system": source}
            for name, column, signature in zip(names, scores, signatures, strict=True):
                row[name] = column[i].format(width, score_only=True)
                interval = _interval(column[i], width)
                if interval:
                    row[f"{name} confidence" if len(names) > 1 else "confidence"] = interval
                row[f"{name} signature" if len(names) > 1 else "signature"] = signature
            rows.append(row)
        return json.dumps(rows, indent=4, ensure_ascii=False)
    name_width = max(len("System"), *(len(name) for name in sources))
    cells = [[_cell(score, width) for score in column] for column in scores]
    widths = [max(8, len(name), *map(len, column)) for name, column in zip(names, cells, strict=True)]
    header = [f"{'System':<{name_width}}"] + [f"{name:>{w}}" for name, w in zip(names, widths, strict=True)]
    lines = ["  ".join(header).rstrip()]
    for i, source in enumerate(sources):
        lines.append(
            "  ".join(
                [f"{source:<{name_width}}"] + [f"{column[i]:>{w}}" for column, w in zip(cells, widths, strict=True)]
            )
        )
    if len(names) == 1:
        return "\n".join([*lines, "", f"{names[0]} signature: {signatures[0]}"])
    return "\n".join(
        lines + ["", "Metric signatures:"] + [f" - {n:<10} {s}" for n, s in zip(names, signatures, strict=True)]
    )


def _interval(score: Any, width: int) -> str:
    """``μ = 65.0 ± 3.3`` for a score shown with its bootstrap interval (``--confidence``), else ``""``."""
    interval = getattr(score, "interval", None)
    return interval(width) if interval else ""


def _cell(score: Any, width: int) -> str:
    """A table cell: the score, with its bootstrap interval when it has one."""
    number = score.format(width, score_only=True)
    interval = _interval(score, width)
    return f"{number} ({interval})" if interval else number


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
