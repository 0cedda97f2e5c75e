"""What a paired test returns (each system's score, p-value and interval, every comparison), as
text, JSON (sacrebleu's shape, additions in new keys) and LaTeX tables."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import counted

if TYPE_CHECKING:
    from ..core.signature import Signature


@dataclass(frozen=True)
class SystemResult:
    """One system under one metric: its score, and (paired tests) the p-value against the
    baseline, the bootstrap mean and the half-width of the 95% interval (sacrebleu's fields)."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class Comparison:
    """``system`` against ``against`` (indices into the systems) under ``metric``: the score
    difference with its 95% bootstrap interval, the p-value and its Holm-adjusted value."""

    metric: str
    system: int
    against: int
    delta: float
    lower: float
    upper: float
    p_value: float
    p_holm: float


@dataclass(frozen=True)
class PairedTestResult:
    """Results of a paired test over several systems (the first is the baseline)."""

    test: str  # "bs" or "ar"
    n_samples: int
    seed: int | None
    systems: list[str]
    metrics: list[str]
    results: dict[str, list[SystemResult]]
    comparisons: list[Comparison]
    signatures: dict[str, Signature] = field(default_factory=dict)
    all_pairs: bool = False
    segments: int | None = None  # how many segments were resampled (None: not known)

    @property
    def caution(self) -> str | None:
        """What to say beside p-values that cannot mean anything: a test on one segment resamples that
        segment alone, so every resample is the actual corpus and a p-value of 0.001 (marked significant)
        says nothing about chance. ``None`` where there is nothing to say."""
        if self.segments is None or self.segments >= 2:
            return None
        return (
            f"the {TEST_NAMES[self.test]} test ran on {counted(self.segments, 'segment')}: one segment cannot "
            "support a significance claim (every resample is that segment), so its p-values and * marks say nothing"
        )

    def comparison(self, metric: str, system: int, against: int) -> Comparison:
        return next(c for c in self.comparisons if (c.metric, c.system, c.against) == (metric, system, against))

    def to_json(self) -> str:
        """sacrebleu's JSON for the same invocation, with ``comparisons`` added per system and metric."""
        return to_json(self)

    def to_text(self, width: int = 1, short: bool = False) -> str:
        """The score table, the differences with intervals and Holm p-values, and the signatures."""
        return to_text(self, width, short)

    def to_latex(self, width: int = 1) -> str:
        """booktabs tables of the scores and of the differences."""
        return to_latex(self, width)


TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}

ALPHA = 0.05


def display_names(result: PairedTestResult) -> list[str]:
    """System names as sacrebleu shows them: the first is ``Baseline: name``."""
    return [f"Baseline: {result.systems[0]}", *result.systems[1:]]


def to_json(result: PairedTestResult) -> str:
    """A list with one object per system: ``system`` and, per metric, sacrebleu's ``score``,
    ``p_value``, ``mean``, ``ci``; added: ``comparisons`` (difference, its 95% interval, p, Holm p)."""
    names, rows = display_names(result), []
    for index, name in enumerate(names):
        row: dict[str, Any] = {"system": name}
        for metric in result.metrics:
            fields = result.results[metric][index].to_dict()
            fields["comparisons"] = [
                {
                    "against": result.systems[c.against],
                    "delta": c.delta,
                    "delta_ci": [c.lower, c.upper],
                    "p_value": c.p_value,
                    "p_holm": c.p_holm,
                }
                for c in result.comparisons
                if c.metric == metric and c.system == index
            ]
            row[metric] = fields
        rows.append(row)
    return json.dumps(rows, indent=4, ensure_ascii=False)


_TEXT_MARKS = {"pm": "±", "p": "(p = {})", "star": "*"}
_LATEX_MARKS = {"pm": "$\\pm$", "p": "($p = {}$)", "star": "$^*$"}


def _cell(score: SystemResult, width: int, marks: dict[str, str] = _TEXT_MARKS) -> str:
    """``score (mean ± ci) (p = 0.0010)*`` in text or LaTeX ``marks``."""
    text = f"{score.score:.{width}f}"
    if score.mean is not None:
        text += f" ({score.mean:.{width}f} {marks['pm']} {score.ci:.{width}f})"
    if score.p_value is not None:
        text += " " + marks["p"].format(f"{score.p_value:.4f}") + (marks["star"] if score.p_value < ALPHA else "")
    return text


def _header(result: PairedTestResult, metric: str) -> str:
    return f"{metric} (μ ± 95% CI)" if result.test == "bs" else metric


def _table(rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell, the first right-aligned as in sacrebleu's table."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for number, row in enumerate(rows):
        cells = [row[0].rjust(widths[0])] + [cell.center(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def _comparison_rows(result: PairedTestResult, metric: str, width: int) -> list[list[str]]:
    rows = [["System", "vs", "Δ", "95% CI of Δ", "p", "p (Holm)"]]
    for c in (c for c in result.comparisons if c.metric == metric):
        rows.append(
            [
                result.systems[c.system],
                result.systems[c.against],
                f"{c.delta:+.{width}f}",
                f"[{c.lower:+.{width}f}, {c.upper:+.{width}f}]",
                f"{c.p_value:.4f}",
                f"{c.p_holm:.4f}" + ("*" if c.p_holm < ALPHA else ""),
            ]
        )
    return rows


def to_text(result: PairedTestResult, width: int = 1, short: bool = False) -> str:
    """The score table, the pairwise differences per metric, what the test means, and the signatures."""
    names = display_names(result)
    rows = [["System"] + [_header(result, m) for m in result.metrics]]
    rows += [[name] + [_cell(result.results[m][i], width) for m in result.metrics] for i, name in enumerate(names)]
    lines = [*_table(rows), ""]
    samples = "resamples" if result.test == "bs" else "trials"
    title = f"{TEST_NAMES[result.test].capitalize()} test with {result.n_samples} {samples} (seed: {result.seed})"
    scope = "every pair of systems" if result.all_pairs else f"each system against the baseline ({result.systems[0]})"
    lines += [
        title,
        "-" * len(title),
        f" - Compares {scope}.",
        " - Null hypothesis: both outputs come from the same process; p is the chance of an",
        "   absolute difference at least this large under it.",
        f" - * marks p < {ALPHA} (a difference unlikely to be chance; not which system is better).",
        " - Δ is the row's score minus the other's, with its 95% bootstrap interval; p (Holm) is",
        "   adjusted for the number of comparisons per metric (Holm-Bonferroni).",
        "",
    ]
    for metric in result.metrics:
        lines += [f"{metric}:", *_table(_comparison_rows(result, metric, width)), ""]
    if result.caution:
        lines += [f"Note: {result.caution}.", ""]
    lines += ["Metric signatures:"]
    lines += [f" - {name:<10} {sig.format(short)}" for name, sig in result.signatures.items()]
    return "\n".join(lines)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def to_latex(result: PairedTestResult, width: int = 1) -> str:
    """A booktabs table (scores, bootstrap means and intervals, p-values; significant ones marked
    with $^*$), then one of the pairwise differences, signatures as comments; escaped for LaTeX."""
    heads = [latex_escape(m) + (r" ($\mu \pm$ 95\% CI)" if result.test == "bs" else "") for m in result.metrics]
    lines = [
        r"\begin{tabular}{l" + "c" * len(heads) + "}",
        r"\toprule",
        " & ".join(["System", *heads]) + r" \\",
        r"\midrule",
    ]
    for i, name in enumerate(display_names(result)):
        cells = [_cell(result.results[m][i], width, _LATEX_MARKS) for m in result.metrics]
        lines.append(" & ".join([latex_escape(name), *cells]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", "", *latex_differences(result, width)]
    lines += [f"% {name} signature: {sig}" for name, sig in result.signatures.items()]
    return "\n".join(lines)


def latex_differences(result: PairedTestResult, width: int = 1) -> list[str]:
    """The lines of the booktabs table of the pairwise differences: each with its 95% interval (the
    percentiles of the resampled differences), p-value and Holm-adjusted p-value ($^*$ below 0.05)."""
    lines = [
        r"\begin{tabular}{lllrcrr}",
        r"\toprule",
        r"Metric & System & vs & $\Delta$ & 95\% CI of $\Delta$ & $p$ & $p$ (Holm) \\",
        r"\midrule",
    ]
    for c in result.comparisons:
        star = "$^*$" if c.p_holm < ALPHA else ""
        lines.append(
            " & ".join(
                [
                    latex_escape(c.metric),
                    latex_escape(result.systems[c.system]),
                    latex_escape(result.systems[c.against]),
                    f"${c.delta:+.{width}f}$",
                    f"$[{c.lower:+.{width}f}, {c.upper:+.{width}f}]$",
                    f"{c.p_value:.4f}",
                    f"{c.p_holm:.4f}{star}",
                ]
            )
            + r" \\"
        )
    return [*lines, r"\bottomrule", r"\end{tabular}"]
