"""``mtscore meta-eval --html``: a meta-evaluation as one self-contained HTML page. It shows what was
evaluated (test set, language pairs, gold, reference, the systems counted, human translations, outliers,
domain, the permutation test's settings), each task's metrics ranked with their significance clusters
shaded as groups and the p-values on demand, the scatter of each metric's system scores against the
human scores per language pair, and, for a task set, the weighted average and average ranks.

The page uses the comparison report's stylesheet (``compare.page``), has no script, and fetches
nothing; every name that comes from a file is escaped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from ..metaeval.evaluate import MetaEvaluation, Ranking
from ..metaeval.figure import scatter_svg
from ..metaeval.selection import Selection
from ..metaeval.tasksets import TaskSetResult
from ..metaeval.titles import LEVEL_TITLES, statistic_title
from .compare.page import page_head

# Shaded groups of significance clusters: rows of one cluster share a band, the next cluster the other.
EXTRA_CSS = """
.ranking tr.band-0 td { background: #eef3fb; } .ranking tr.band-1 td { background: #fff; }
.ranking tr.first td { border-top: 2px solid #1f5fa8; }
.ranking td.cluster { font-weight: bold; text-align: center; }
.ranking td.value, .ranking td.position, .pvalues td { text-align: right; }
.pvalues td.significant { font-weight: bold; }
dl.settings { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 2px 12px; }
dl.settings dt { font-weight: bold; } dl.settings dt, dl.settings dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 640px) {
  dl.settings { grid-template-columns: minmax(0, 1fr); } dl.settings dd { margin-bottom: 6px; }
}
figure.scatter svg { max-width: 100%; height: auto; display: block; }
.metric { overflow-wrap: anywhere; white-space: normal; }
"""


def render_page(result: MetaEvaluation | TaskSetResult) -> str:
    """The whole page of a meta-evaluation of one language pair or of a task set over several.

    Args:
        result: What ``evaluate`` or ``evaluate_tasks`` returned.

    Returns:
        The HTML page.
    """
    if isinstance(result, TaskSetResult):
        title = f"mtscore meta-eval: {result.test_set} {', '.join(result.lps)}"
        sections = [
            _task_set_settings(result),
            *(
                _ranking_section(f"task-{i}", lang, ranking, weight, pooled=ranking is result.accuracy)
                for i, ((lang, ranking), weight) in enumerate(zip(result.tasks, result.weights, strict=True), 1)
            ),
            _averages(result),
            _figures(result.evaluations.values()),
        ]
    else:
        title = f"mtscore meta-eval: {result.test_set} {result.lp}".rstrip()
        sections = [
            _settings(result),
            *(_ranking_section(f"task-{i}", result.lp, ranking) for i, ranking in enumerate(result.rankings, 1)),
            _figures([result]),
        ]
    return (
        page_head(title, EXTRA_CSS)
        + f"<header><h1>{escape(title)}</h1>{_navigation(result)}</header><main>"
        + "".join(sections)
        + "</main></body></html>\n"
    )


def _navigation(result: MetaEvaluation | TaskSetResult) -> str:
    links = ['<a href="#settings">What was evaluated</a>', '<a href="#task-1">Rankings</a>']
    if isinstance(result, TaskSetResult):
        links.append('<a href="#average">Weighted average</a>')
    links.append('<a href="#figures">System scores against human scores</a>')
    return f"<nav>{' '.join(links)}</nav>"


def _names(names: Iterable[str]) -> str:
    shown = [escape(name) for name in names]
    return ", ".join(shown) if shown else "none"


def _selection_rows(label: str, selection: Selection) -> list[tuple[str, str]]:
    """The settings of one selection of systems as (term, escaped description) rows."""
    human = "counted" if selection.include_human else "left out"
    outliers = "counted" if selection.include_outliers else "left out"
    rows = [
        (f"{label}: gold", escape(selection.gold)),
        (f"{label}: reference", escape(selection.reference)),
        (f"{label}: systems counted", f"{len(selection.systems)}: {_names(selection.systems)}"),
        (f"{label}: human translations ({human})", _names(selection.human_systems)),
        (f"{label}: outliers ({outliers})", _names(selection.outliers)),
    ]
    if selection.unrated:
        rows.append((f"{label}: systems without human scores (left out)", _names(selection.unrated)))
    return rows


def _level_rows(prefix: str, evaluation: MetaEvaluation) -> list[tuple[str, str]]:
    """The selection of each level, once for the levels that select alike."""
    levels: dict[Selection, list[str]] = {}
    for level, selection in evaluation.selections.items():
        levels.setdefault(selection, []).append(LEVEL_TITLES[level])
    rows = []
    for selection, titles in levels.items():
        rows += _selection_rows(prefix + " and ".join(titles), selection)
    return rows


def _test_rows(evaluation: MetaEvaluation) -> list[tuple[str, str]]:
    permutation = evaluation.permutation
    test = (
        f"PERM-BOTH, at most {permutation.k} draws in blocks of {permutation.block_size}, clusters at "
        f"p &le; {evaluation.pval:g}"
        if permutation.k > 0
        else "none (k = 0): metrics ranked by value"
    )
    return [("significance test", test), ("seed", str(evaluation.seed))]


def _definition_list(rows: Sequence[tuple[str, str]]) -> str:
    """Rows of (plain term, escaped description) as a definition list."""
    return '<dl class="settings">' + "".join(f"<dt>{escape(term)}</dt><dd>{text}</dd>" for term, text in rows) + "</dl>"


def _signatures(signatures: dict[str, str]) -> str:
    rows = "".join(
        f'<tr><td class="metric">{escape(name)}</td><td><code>{escape(signature)}</code></td></tr>'
        for name, signature in signatures.items()
    )
    return (
        "<details><summary>Metric signatures</summary>"
        f'<div class="scroll"><table><thead><tr><th>metric</th><th>signature</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div></details>"
    )


def _settings(evaluation: MetaEvaluation) -> str:
    rows = [("test set", escape(evaluation.test_set)), ("language pair", escape(evaluation.lp) or "not named")]
    rows.append(("domain", escape(evaluation.domain) if evaluation.domain is not None else "every segment"))
    rows += _level_rows("", evaluation)
    rows += _test_rows(evaluation)
    return (
        '<section id="settings"><h2>What was evaluated</h2>'
        + _definition_list(rows)
        + _signatures(evaluation.signatures)
        + "</section>"
    )


def _task_set_settings(result: TaskSetResult) -> str:
    first = next(iter(result.evaluations.values()))
    rows = [
        ("test set", escape(result.test_set)),
        ("language pairs", _names(result.lps)),
        ("task set", "WMT23's: pairwise accuracy pooled over the pairs, then per pair system-level Pearson, "
         "segment-level Pearson and acc-t"),
    ]  # fmt: skip
    for lp, selection in result.accuracy_selections.items():
        rows += _selection_rows(f"{lp}, pooled accuracy", selection)
    for lp, evaluation in result.evaluations.items():
        rows += _level_rows(f"{lp}, ", evaluation)
    rows += _test_rows(first)
    signatures = {
        name: value for evaluation in result.evaluations.values() for name, value in evaluation.signatures.items()
    }
    return (
        '<section id="settings"><h2>What was evaluated</h2>'
        + _definition_list(rows)
        + _signatures(signatures)
        + "</section>"
    )


def _ranking_section(
    anchor: str, lang: str, ranking: Ranking, weight: float | None = None, *, pooled: bool = False
) -> str:
    """One task: its metrics ranked, clusters shaded as groups, and its p-values in a ``<details>``."""
    title = statistic_title(ranking.level, ranking.statistic, ranking.avg_by, ranking.variant)
    if pooled:
        title += " pooled over the language pairs"
    heading = f"{lang}: {title}" if lang else title
    note = f" (weight {weight:.6g})" if weight is not None else ""
    attributes = (
        f'data-lang="{escape(lang)}" data-level="{ranking.level}" data-corr-fcn="{escape(ranking.statistic)}" '
        f'data-avg-by="{escape(ranking.avg_by)}" data-variant="{escape(ranking.variant or "")}"'
    )
    tested = bool(ranking.pvalues)
    head = "<tr><th>#</th><th>cluster</th><th>metric</th><th>value</th>"
    head += "<th>tie threshold</th></tr>" if ranking.epsilons else "</tr>"
    body, band, previous = [], 1, None
    for position, (name, value) in enumerate(ranking.values.items(), 1):
        cluster = ranking.ranks[name] if tested else None
        starts = tested and cluster != previous
        band = (band + 1) % 2 if starts else band
        previous = cluster
        classes = f"band-{band}" + (" first" if starts and position > 1 else "")
        epsilon = (
            f'<td class="value" data-value="{ranking.epsilons[name]!r}">{ranking.epsilons[name]:.6g}</td>'
            if ranking.epsilons
            else ""
        )
        body.append(
            f'<tr class="{classes}" data-metric="{escape(name)}" data-cluster="{cluster if cluster else ""}">'
            f'<td class="position">{position}</td><td class="cluster">{cluster if cluster else "-"}</td>'
            f'<td class="metric">{escape(name)}</td>'
            f'<td class="value" data-value="{value!r}">{value:.6f}</td>{epsilon}</tr>'
        )
    counted = f"{len(ranking.systems)} systems" + (" over the language pairs" if pooled else "")
    legend = (
        "Metrics by value; a cluster is a group of metrics that no significance test separates (1 = best), "
        "shaded alike."
        if tested
        else "Metrics by value; no significance test for this task ('-')."
    )
    return (
        f'<section id="{anchor}"><h2>{escape(heading)}{note}</h2>'
        f'<p class="note">{legend} {counted}.</p>'
        f'<div class="scroll"><table class="ranking" {attributes}><thead>{head}</thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>" + (_pvalues(ranking) if tested else "") + "</section>"
    )


def _pvalues(ranking: Ranking) -> str:
    """The p-value that the column's metric is as good as the row's, above the diagonal; bold when
    significant at the clusters' level."""
    names = list(ranking.values)
    header = "<tr><th>p-value</th>" + "".join(f'<th class="metric">{escape(name)}</th>' for name in names) + "</tr>"
    rows = []
    for i, name in enumerate(names):
        cells = []
        for j in range(len(names)):
            if j <= i:
                cells.append("<td></td>")
                continue
            pvalue, draws = ranking.pvalues[i][j], ranking.draws[i][j] if ranking.draws else None
            significant = ranking.ranks[names[j]] != ranking.ranks[name]
            title = f' title="{draws} draws"' if draws is not None else ""
            marked = ' class="significant"' if significant else ""
            cells.append(f'<td{title}{marked} data-value="{pvalue!r}">{pvalue:.4f}</td>')
        rows.append(f'<tr><th class="metric">{escape(name)}</th>{"".join(cells)}</tr>')
    return (
        "<details><summary>p-values (PERM-BOTH): is the column's metric as good as the row's?</summary>"
        f'<div class="scroll"><table class="pvalues"><thead>{header}</thead><tbody>{"".join(rows)}</tbody>'
        '</table></div><p class="note">Bold: a different cluster.</p></details>'
    )


def _averages(result: TaskSetResult) -> str:
    width = len(result.average)
    rows = []
    for position, (name, value) in enumerate(result.average.items(), 1):
        rank = result.average_ranks.get(name)
        rank_cell = f'<td class="value" data-value="{rank!r}">{rank:.6f}</td>' if rank is not None else "<td></td>"
        rows.append(
            f'<tr data-metric="{escape(name)}"><td class="position">{position}</td><td class="metric">{escape(name)}'
            f'</td><td class="value" data-value="{value!r}">{value:.6f}</td>{rank_cell}</tr>'
        )
    return (
        '<section id="average"><h2>Weighted average over the tasks</h2>'
        f'<p class="note">{width} metrics that every task ranks. Average: each value on [0, 1] (a correlation c as '
        "(c + 1) / 2) times its task's weight, summed. Average rank: each task's significance cluster (without a "
        "test, its position) times its weight, summed; lower is better.</p>"
        '<div class="scroll"><table class="average"><thead><tr><th>#</th><th>metric</th><th>weighted average</th>'
        f"<th>weighted average rank</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _figures(evaluations: Iterable[MetaEvaluation]) -> str:
    parts = []
    for evaluation in evaluations:
        label = escape(f"{evaluation.test_set} {evaluation.lp}".strip())
        if not evaluation.system_points:
            parts.append(f'<p class="note">{label}: no system-level scores to draw.</p>')
            continue
        parts.append(
            f'<figure class="scatter" data-lang="{escape(evaluation.lp)}">{scatter_svg(evaluation)}'
            f"<figcaption>{label}: each metric's system scores against the human scores "
            f"({escape(evaluation.selections['sys'].gold)}), the least-squares line and Pearson's r."
            "</figcaption></figure>"
        )
    return '<section id="figures"><h2>System scores against human scores</h2>' + "".join(parts) + "</section>"
