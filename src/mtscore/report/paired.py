"""A paired test's result as the command line writes it: the scores alone, or the tables the
result renders itself (``significance.results``: text, JSON, LaTeX)."""

from __future__ import annotations

from ..significance.results import PairedTestResult
from . import Form


def render_paired(result: PairedTestResult, form: Form) -> str:
    """Every system's score under each metric (a line per system, a column per metric) with
    ``score_only``; else the result's tables in ``form.format``."""
    if form.score_only:
        return "\n".join(
            "\t".join(f"{result.results[name][i].score:.{form.width}f}" for name in result.metrics)
            for i in range(len(result.systems))
        )
    if form.format == "json":
        return result.to_json()
    if form.format == "latex":
        return result.to_latex(form.width)
    return result.to_text(form.width, form.short)
