"""The report's score table for papers: Markdown here, LaTeX from the paired test's own tables."""

from __future__ import annotations

from .analysis import Analysis


def _escape(text: str) -> str:
    """Markdown table cells: a bar would end the cell, a backslash or backtick would format it."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("\n", " ")


def markdown(analysis: Analysis) -> str:
    """Every system's score under every metric, with the 95% interval and the p-value against
    the baseline (* below 0.05), then the signatures."""
    paired = analysis.paired
    header = ["System", *(f"{metric} [95% CI] p" for metric in paired.metrics)]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * len(paired.metrics)) + "|"]
    for i, name in enumerate(paired.systems):
        cells = [_escape(name) + (" (baseline)" if i == 0 else "")]
        for metric in paired.metrics:
            result = paired.results[metric][i]
            cell = f"{result.score:.1f}"
            if result.mean is not None and result.ci is not None:
                cell += f" [{result.mean - result.ci:.1f}, {result.mean + result.ci:.1f}]"
            if result.p_value is not None:
                cell += f" p = {result.p_value:.4f}{'*' if result.p_value < 0.05 else ''}"
            cells.append(cell)
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Paired bootstrap resampling, {paired.n_samples:,} resamples, seed {paired.seed}; * p < 0.05.")
    if paired.caution:
        lines += ["", f"Note: {paired.caution}."]
    lines += ["", *(f"- `{signature}`" for signature in paired.signatures.values())]
    return "\n".join(lines)


def latex(analysis: Analysis) -> str:
    """The paired test's booktabs tables (scores, then differences)."""
    return analysis.paired.to_latex()
