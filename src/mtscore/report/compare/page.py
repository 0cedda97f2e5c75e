"""The comparison report as one HTML file: styles, charts and the small script that sorts tables
and filters examples are inside it, and nothing is fetched from anywhere. Every text from the input
is escaped; the page reads fully with JavaScript off (the script only sorts and filters)."""

from __future__ import annotations

import shlex
import unicodedata
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np

from .analysis import EXAMPLE_TOKENS, Analysis, Example, score_interval
from .buckets import BucketTable
from .ngrams import CLIPPED, MATCHED, UNMATCHED, Contrast
from .svg import colour, grouped_bars, legend
from .tables import INTERVALS

if TYPE_CHECKING:
    from ...significance.results import SystemResult

FATE_CLASS = {MATCHED: "m", CLIPPED: "c", UNMATCHED: "u"}


def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def _text(value: str) -> str:
    """Input text as an element whose text is exactly the input, in its own direction."""
    return f'<bdi class="text" dir="auto">{escape(value)}</bdi>'


def _number(value: float, digits: int = 1) -> str:
    return "" if value is None or not np.isfinite(value) else f"{value:.{digits}f}"


def _cell(value: float, digits: int = 1, extra: str = "") -> str:
    sort = "" if value is None or not np.isfinite(value) else f' data-v="{value:.6g}"'
    return f"<td{sort}>{_number(value, digits)}{extra}</td>"


def _scrolling(table: str) -> str:
    """A table in a box that scrolls sideways when the table is wider than the window, so that the
    page itself never is."""
    return f'<div class="scroll">{table}</div>'


def page_head(title: str, extra_css: str = "") -> str:
    """A self-contained page's start, up to its opened ``<body>``: the title (escaped) and the report's
    stylesheet inline, then ``extra_css``; fonts are the system's, nothing is fetched."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_asset('page.css')}{extra_css}</style></head><body>"
    )


def render(analysis: Analysis) -> str:
    """The whole page."""
    inputs = analysis.inputs
    sections = [
        _scores(analysis),
        _buckets(analysis),
        _ngrams(analysis),
        _examples(analysis),
    ]
    n_segments = len(inputs.references[0])
    title = f"mtscore: {len(inputs.systems)} systems on {n_segments:,} segments"
    head = page_head(title)
    intro = (
        f"<header><h1>{escape(title)}</h1><p>Baseline: {_text(inputs.systems[0])}. "
        f"{len(inputs.references)} reference(s) per segment"
        f"{'' if inputs.sources is None else ', with sources'}.</p>"
        '<nav><a href="#scores">Scores</a> <a href="#buckets">Buckets</a> '
        '<a href="#ngrams">Characteristic n-grams</a> <a href="#examples">Examples</a></nav></header>'
    )
    return (
        head + intro + "<main>" + "".join(sections) + "</main>" + f"<script>{_asset('page.js')}</script></body></html>"
    )


def _scores(analysis: Analysis) -> str:
    paired, names = analysis.paired, analysis.inputs.systems
    header = "".join(f'<th scope="col" class="num">{escape(m)}</th>' for m in paired.metrics)
    rows = []
    for i, name in enumerate(names):
        cells = [f'<th scope="row" data-v="{i}">{_text(name)}{" (baseline)" if i == 0 else ""}</th>']
        cells += [_score_cell(paired.results[metric][i]) for metric in paired.metrics]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    table = (
        '<table class="sortable scores"><thead><tr><th scope="col">System</th>'
        + header
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
    charts = []
    for metric in paired.metrics:
        results = paired.results[metric]
        intervals = [score_interval(r) or (np.nan, np.nan) for r in results]
        values = np.array([[r.score] for r in results])
        lower, upper = (np.array([[interval[side]] for interval in intervals]) for side in (0, 1))
        better = "higher" if analysis.higher_is_better[metric] else "lower"
        charts.append(
            f"<figure>{grouped_bars([metric], names, values, lower, upper, f'{metric} ({better} is better)', 380, 220)}"
            f"<figcaption>{escape(metric)} with its 95% interval</figcaption></figure>"
        )
    test = (
        f"Paired bootstrap resampling, {paired.n_samples:,} resamples, seed {paired.seed}: under each score, its "
        "95% interval and p, the p-value of the system's difference from the baseline; * marks p &lt; 0.05. "
        f"{escape(INTERVALS)}."
    )
    pairs = _comparisons(analysis) if paired.all_pairs else ""
    signatures = "".join(
        f"<li><b>{escape(name)}</b> <code>{escape(str(signature))}</code></li>"
        for name, signature in paired.signatures.items()
    )
    notes = "".join(f"<p class='note'>{escape(note)}</p>" for note in analysis.notes)
    # Each argument isolated, so that right-to-left text in one cannot reorder the others on the page
    command = " ".join(
        ["mtscore report", *(f"<bdi>{escape(shell_word(word))}</bdi>" for word in analysis.inputs.arguments)]
    )
    return (
        f'<section id="scores"><h2>Scores</h2><p>{test}</p>{_scrolling(table)}{legend(names)}'
        f'<div class="charts">{"".join(charts)}</div>{pairs}{notes}'
        f"<h3>Signatures</h3><ul>{signatures}</ul><h3>Command</h3><pre><code>{command}</code></pre></section>"
    )


def _score_cell(result: SystemResult) -> str:
    """The score, and under it its 95% interval (``score_interval``) and p-value against the baseline;
    the bootstrap mean, which the interval is not centred on, in the interval's tooltip."""
    interval = score_interval(result)
    shown = ""
    if interval is not None:
        tip = f"bootstrap mean {result.mean:.2f}, half-width {result.ci:.2f}" if result.mean is not None else ""
        shown += f'<span class="ci" title="{tip}">[{interval[0]:.1f}, {interval[1]:.1f}]</span>'
    p = result.p_value
    if p is not None:
        mark = ' <span class="sig" title="p &lt; 0.05">*</span>' if p < 0.05 else ""
        shown += f'<span class="p">p = {p:.4f}{mark}</span>'
    return _cell(result.score, 1, f'<span class="under">{shown}</span>' if shown else "")


def shell_word(word: str) -> str:
    """``word`` as a shell reads it back: quoted as ``shlex.quote`` does, or, where it holds a character
    that shows nothing or moves the text around it (a control, a bidirectional override such as U+202E, a
    line separator), as bash's ``$'...'`` with each such character written as its code, so that it is
    seen and the command still runs as given."""
    if not any(_hidden(character) for character in word):
        return shlex.quote(word)
    shown = "".join(_escaped(character) for character in word)
    return f"$'{shown}'"


def _hidden(character: str) -> bool:
    return unicodedata.category(character)[0] == "C" or unicodedata.category(character) in ("Zl", "Zp")


def _escaped(character: str) -> str:
    if character in "\\'":
        return "\\" + character
    if not _hidden(character):
        return character
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _comparisons(analysis: Analysis) -> str:
    names = analysis.inputs.systems
    rows = "".join(
        f"<tr><td>{escape(c.metric)}</td><td>{_text(names[c.system])}</td><td>{_text(names[c.against])}</td>"
        f"{_cell(c.delta, 2)}<td>[{c.lower:.2f}, {c.upper:.2f}]</td>{_cell(c.p_value, 4)}{_cell(c.p_holm, 4)}</tr>"
        for c in analysis.paired.comparisons
    )
    return (
        "<h3>Every pair (Holm-corrected)</h3><div class='scroll'><table class='sortable'><thead><tr><th>Metric</th>"
        "<th>System</th><th>Against</th><th class='num'>Difference</th><th>95% CI</th><th class='num'>p</th>"
        f"<th class='num'>p (Holm)</th></tr></thead><tbody>{rows}</tbody></table></div>"
    )


def _bucket_table(table: BucketTable, names: list[str], digits: int = 1, sizes: bool = True) -> str:
    """A breakdown as a chart and a sortable table; ``sizes``: each cell also says how many segments (or
    words) its bucket holds (not where the value is that count)."""
    header = "".join(f'<th scope="col" class="num">{_text(name)}</th>' for name in names)
    rows = []
    for b, label in enumerate(table.labels):
        cells = [f'<th scope="row" data-v="{b}">{escape(label)}</th>']
        for s in range(len(names)):
            interval = (
                f' <span class="ci">[{table.lower[s, b]:.{digits}f}, {table.upper[s, b]:.{digits}f}]</span>'
                if np.isfinite(table.lower[s, b])
                else ""
            )
            count = f' <span class="n">n={table.counts[s, b]:,}</span>' if sizes else ""
            cells.append(_cell(table.values[s, b], digits, interval + count))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    chart = grouped_bars(table.labels, names, table.values, table.lower, table.upper, f"{table.measure}")
    return (
        f"<figure><h3>{escape(table.title)}</h3><p class='note'>{escape(table.note)}</p>{chart}"
        + _scrolling(
            '<table class="sortable"><thead><tr><th scope="col">Bucket</th>'
            + header
            + "</tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )
        + "</figure>"
    )


def _buckets(analysis: Analysis) -> str:
    names = analysis.inputs.systems
    parts = [_bucket_table(table, names, 0, sizes=False) for table in analysis.histograms]
    parts += [_bucket_table(table, names) for table in analysis.buckets]
    parts.append(_bucket_table(analysis.words, names))
    return (
        '<section id="buckets"><h2>Buckets</h2><p>Each bucket shows its size (n; in the histograms of sentence '
        "scores the value is that size) and a 95% bootstrap interval from resampling the test set's segments: a "
        "small bucket has a wide interval.</p>"
        f"{legend(names)}{''.join(parts)}</section>"
    )


def _ngram_rows(rows: list[tuple[str, int, int]]) -> str:
    return "".join(
        f"<tr><td><bdi dir='auto'>{escape(text)}</bdi></td><td data-v='{a}'>{a}</td><td data-v='{b}'>{b}</td></tr>"
        for text, a, b in rows
    )


def _contrast(item: Contrast, names: list[str]) -> str:
    a, b = _text(names[item.system]), _text(names[item.other])
    head = f"<thead><tr><th>n-gram</th><th class='num'>{a}</th><th class='num'>{b}</th></tr></thead>"
    tables = "".join(
        "<div class='scroll'><table class='sortable'>"
        f"<caption>{who} matches more</caption>{head}<tbody>{_ngram_rows(rows)}</tbody></table></div>"
        for who, rows in ((a, item.more), (b, item.fewer))
    )
    return f"<div class='contrast'><h3>{a} against {b}</h3><div class='pair'>{tables}</div></div>"


def _ngrams(analysis: Analysis) -> str:
    names = analysis.inputs.systems
    return (
        '<section id="ngrams"><h2>Characteristic n-grams</h2><p>N-grams (orders 1 to 4) that one system matches '
        "much more often than the other, counted as BLEU counts them: clipped by the reference that holds each "
        "n-gram most (Count_clip), summed over segments; ranked by (a + 1) / (a + b + 2). An n-gram that is part "
        "of a longer one in the same list is left out: the longer one stands for the phrase.</p>"
        + "".join(_contrast(item, names) for item in analysis.contrasts)
        + "</section>"
    )


def _fate_grid(tokens: list[str], fates: list[list[str]]) -> str:
    """The tokens, coloured by the fate of their unigram, each over one strip per higher order marking
    the fate of the n-gram that starts at it; token by token, so that a long segment wraps as text does."""
    columns = []
    for i, (token, fate) in enumerate(zip(tokens, fates[0], strict=True)):
        strips = "".join(
            f'<i class="{FATE_CLASS[order[i]]}" title="{escape(" ".join(tokens[i : i + n]))}: {order[i]}"></i>'
            for n, order in enumerate(fates[1:], 2)
            if i < len(order)
        )
        columns.append(f'<span class="at"><span class="tk {FATE_CLASS[fate]}">{escape(token)}</span>{strips}</span>')
    return f'<div class="grid" aria-hidden="true">{"".join(columns)}</div>'


def _ngram_table(orders: list[list], anchor: str) -> str:
    rows = []
    for n, order in enumerate(orders, 1):
        for row in order:
            fate = MATCHED if row.max_ref_count >= row.count else CLIPPED if row.max_ref_count else UNMATCHED
            rows.append(
                f"<tr class='{FATE_CLASS[fate]}'><td>{n}</td><td>{escape(' '.join(row.ngram))}</td>"
                f"<td>{row.count}</td><td>{row.max_ref_count}</td><td>{row.clipped}</td></tr>"
            )
    return (
        f"<details id='{anchor}'><summary>n-gram table (Count, Max_Ref_Count, Count_clip)</summary>"
        "<div class='scroll'><table class='explain'><thead><tr><th>n</th><th>n-gram</th><th>Count</th>"
        f"<th>Max_Ref_Count</th><th>Count_clip</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div></details>"
    )


def _example(example: Example, names: list[str], metrics: list[str]) -> str:
    line = example.index + 1
    parts = [f"<article class='example' id='segment-{line}'><h3>Segment {line}{_repeats(example)}</h3>"]
    if example.source is not None:
        parts.append(f"<p><b>Source</b> {_text(example.source)}</p>")
    parts += [f"<p><b>Reference {r}</b> {_text(ref)}</p>" for r, ref in enumerate(example.references, 1)]
    for s, name in enumerate(names):
        scores = ", ".join(f"{m} {example.scores[m][s]:.1f}" for m in metrics)
        anchor = f"explain-{line}-{s + 1}"
        parts.append(
            f"<div class='hyp'><p><span class='swatch' style='background:{colour(s)}'></span><b>{_text(name)}</b> "
            f"<span class='scores'>{escape(scores)}</span> <a href='#{anchor}'>n-gram table</a></p>"
            f"<p>{_text(example.hypotheses[s])}</p>{_fate_grid(example.tokens[s], example.fates[s])}"
            f"{_ngram_table(example.tables[s], anchor)}</div>"
        )
    parts.append("</article>")
    return "".join(parts)


def _repeats(example: Example) -> str:
    """Where else the test set holds the same texts: `` (also segments 1105 and 1679: 3 times)``."""
    if not example.repeats:
        return ""
    others = [str(index + 1) for index in example.repeats]
    listed = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
    plural = "s" if len(others) > 1 else ""
    return f" <span class='repeats'>(also segment{plural} {listed}: {len(others) + 1} times in the test set)</span>"


def _examples(analysis: Analysis) -> str:
    names, metrics = analysis.inputs.systems, list(analysis.examples[0].scores) if analysis.examples else []
    key = (
        "<p class='key'>Tokens: <span class='tk m'>matched</span> <span class='tk c'>clipped away</span> "
        "<span class='tk u'>unmatched</span>; the strips under them mark the 2-, 3- and 4-gram that starts at "
        "each token. Clipped away: the references hold the n-gram, but fewer times than the hypothesis "
        "(Count &gt; Max_Ref_Count).</p>"
    )
    filter_box = (
        '<p id="filter-box" hidden><label>Filter examples: <input id="filter" type="search" '
        'placeholder="words in any text"></label> <span id="shown"></span></p>'
    )
    return (
        f'<section id="examples"><h2>Examples</h2><p>The {len(analysis.examples)} segments where the systems\' '
        f"sentence {escape(analysis.example_metric)} spreads most, each text once (a segment whose texts recur in "
        f"the test set says where); segments with fewer than {EXAMPLE_TOKENS} tokens, or too few for an n-gram of "
        f"every order, come last.</p>{key}{filter_box}"
        + "".join(_example(example, names, metrics) for example in analysis.examples)
        + "</section>"
    )
