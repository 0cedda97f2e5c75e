"""The report's score table for papers, as Markdown or LaTeX, with the page's convention for
intervals (``INTERVALS``): each score with its 95% interval ``[low, high]`` around the corpus score."""

from __future__ import annotations

from ...significance.results import ALPHA, SystemResult, latex_differences, latex_escape
from .analysis import Analysis, score_interval

INTERVALS = (
    "95% CI: the corpus score plus and minus half the range between the 2.5th and 97.5th percentiles of its "
    "resampled scores, so that it holds the score (the bootstrap mean can sit away from it: NIST's lies below); "
    "a difference's CI: the 2.5th and 97.5th percentiles of the resampled differences"
)


def _escape(text: str) -> str:
    """Markdown table cells: a bar would end the cell, a backslash or backtick would format it."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("\n", " ")


def _score(result: SystemResult, latex: bool = False) -> str:
    """``25.3 [24.6, 26.0] p = 0.0010*``: the score, its interval, the p-value against the baseline."""
    cell = f"{result.score:.1f}"
    interval = score_interval(result)
    if interval is not None:
        cell += f" [{interval[0]:.1f}, {interval[1]:.1f}]"
    if result.p_value is not None:
        star = ("$^*$" if latex else "*") if result.p_value < ALPHA else ""
        cell += (f" ($p = {result.p_value:.4f}$)" if latex else f" p = {result.p_value:.4f}") + star
    return cell


def markdown(analysis: Analysis) -> str:
    """Every system's score under every metric, with the 95% interval and the p-value against
    the baseline (* below 0.05), then what the intervals are and each metric's signature."""
    paired = analysis.paired
    header = ["System", *(f"{metric} [95% CI] p" for metric in paired.metrics)]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * len(paired.metrics)) + "|"]
    for i, name in enumerate(paired.systems):
        cells = [_escape(name) + (" (baseline)" if i == 0 else "")]
        cells += [_score(paired.results[metric][i]) for metric in paired.metrics]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Paired bootstrap resampling, {paired.n_samples:,} resamples, seed {paired.seed}; * p < 0.05.")
    lines.append(f"{INTERVALS}.")
    if paired.caution:
        lines += ["", f"Note: {paired.caution}."]
    lines += ["", *(f"- {_escape(name)}: `{signature}`" for name, signature in paired.signatures.items())]
    return "\n".join(lines)


def latex(analysis: Analysis) -> str:
    """booktabs tables of the scores (with the page's intervals and the p-values against the baseline,
    $^*$ below 0.05) and of the pairwise differences, then what the intervals are and each metric's
    signature as comments; every name escaped for LaTeX."""
    paired = analysis.paired
    heads = [latex_escape(metric) + r" [95\% CI]" for metric in paired.metrics]
    lines = [
        r"\begin{tabular}{l" + "c" * len(heads) + "}",
        r"\toprule",
        " & ".join(["System", *heads]) + r" \\",
        r"\midrule",
    ]
    for i, name in enumerate(paired.systems):
        cells = [_score(paired.results[metric][i], latex=True) for metric in paired.metrics]
        lines.append(" & ".join([latex_escape(name + (" (baseline)" if i == 0 else "")), *cells]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", "", *latex_differences(paired)]
    lines.append(f"% Paired bootstrap resampling, {paired.n_samples:,} resamples, seed {paired.seed}.")
    lines.append(f"% {INTERVALS}.")
    if paired.caution:
        lines.append(f"% Note: {paired.caution}.")
    lines += [f"% {name} signature: {signature}" for name, signature in paired.signatures.items()]
    return "\n".join(lines)
