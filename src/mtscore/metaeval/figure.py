"""The BLEU paper's own figure, for every metric: each system's metric score against its human score,
with the least-squares line and the system-level Pearson correlation, as one standalone SVG (a panel
per metric) that a browser, a paper or the docs show as it is."""

from __future__ import annotations

import math
from html import escape

import numpy as np

from .evaluate import MetaEvaluation

PANEL_WIDTH, PANEL_HEIGHT, COLUMNS = 320, 280, 3
MARGIN_LEFT, MARGIN_BOTTOM, MARGIN_TOP, MARGIN_RIGHT = 52, 44, 34, 12


def _ticks(low: float, high: float) -> list[float]:
    """About five round values from below ``low`` to above ``high``."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        low, high = (low - 1, low + 1) if math.isfinite(low) else (0.0, 1.0)
    step = 10 ** math.floor(math.log10((high - low) / 5))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 6:
            step *= factor
            break
    first = math.floor(low / step) * step
    return [first + step * i for i in range(math.ceil((high - first) / step - 1e-9) + 1)]


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """The least-squares line ``y = a + b x`` (None for fewer than two distinct x)."""
    if len(x) < 2 or np.ptp(x) == 0:
        return None
    slope, intercept = np.polyfit(x, y, 1)
    return float(intercept), float(slope)


def _panel(
    name: str,
    systems: tuple[str, ...],
    x_values: tuple[float, ...],
    y_values: tuple[float, ...],
    pearson: float | None,
    gold: str,
    left: float,
    top: float,
) -> list[str]:
    x, y = np.asarray(x_values, dtype=np.float64), np.asarray(y_values, dtype=np.float64)
    x_ticks, y_ticks = _ticks(float(x.min()), float(x.max())), _ticks(float(y.min()), float(y.max()))
    plot_w = PANEL_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = PANEL_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def px(value: float) -> float:
        return left + MARGIN_LEFT + (value - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * plot_w

    def py(value: float) -> float:
        return top + MARGIN_TOP + plot_h - (value - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * plot_h

    title = f"{name}: r = {pearson:.3f}" if pearson is not None else name
    parts = [f'<text class="title" x="{left + PANEL_WIDTH / 2:.1f}" y="{top + 20:.1f}">{escape(title)}</text>']
    for tick in x_ticks:
        parts.append(
            f'<line class="grid" x1="{px(tick):.1f}" x2="{px(tick):.1f}" y1="{py(y_ticks[0]):.1f}" '
            f'y2="{py(y_ticks[-1]):.1f}"/>'
        )
        parts.append(f'<text class="tick" x="{px(tick):.1f}" y="{py(y_ticks[0]) + 14:.1f}">{tick:g}</text>')
    for tick in y_ticks:
        parts.append(
            f'<line class="grid" x1="{px(x_ticks[0]):.1f}" x2="{px(x_ticks[-1]):.1f}" y1="{py(tick):.1f}" '
            f'y2="{py(tick):.1f}"/>'
        )
        parts.append(f'<text class="tick end" x="{px(x_ticks[0]) - 4:.1f}" y="{py(tick) + 4:.1f}">{tick:g}</text>')
    fitted = _fit(x, y)
    if fitted is not None:
        intercept, slope = fitted
        ends = [x_ticks[0], x_ticks[-1]]
        y_ends = [min(max(intercept + slope * value, y_ticks[0]), y_ticks[-1]) for value in ends]
        x_ends = [(value - intercept) / slope if slope else end for value, end in zip(y_ends, ends, strict=True)]
        parts.append(
            f'<line class="fit" x1="{px(x_ends[0]):.1f}" y1="{py(y_ends[0]):.1f}" '
            f'x2="{px(x_ends[1]):.1f}" y2="{py(y_ends[1]):.1f}"/>'
        )
    for system, x_value, y_value in zip(systems, x, y, strict=True):
        parts.append(
            f'<circle cx="{px(x_value):.1f}" cy="{py(y_value):.1f}" r="3.5">'
            f"<title>{escape(system)}: {escape(name)} {x_value:.2f}, {escape(gold)} {y_value:.3f}</title></circle>"
        )
    parts.append(
        f'<text class="axis" x="{left + MARGIN_LEFT + plot_w / 2:.1f}" y="{top + PANEL_HEIGHT - 6:.1f}">'
        f"{escape(name)}</text>"
    )
    middle = top + MARGIN_TOP + plot_h / 2
    parts.append(
        f'<text class="axis" transform="translate({left + 12:.1f},{middle:.1f}) rotate(-90)">{escape(gold)}</text>'
    )
    return parts


def scatter_svg(evaluation: MetaEvaluation) -> str:
    """Every metric's system scores against the human scores, a panel per metric (``<title>`` on each
    point names its system), with the fitted line and the system-level Pearson correlation."""
    if not evaluation.system_points:
        raise ValueError("no system-level scores to draw: meta-evaluate at the system level")
    pearson = next((dict(r.values) for r in evaluation.rankings if (r.level, r.statistic) == ("sys", "pearson")), {})
    gold = evaluation.selections["sys"].gold
    names = list(evaluation.system_points)
    rows = math.ceil(len(names) / COLUMNS)
    width, height = PANEL_WIDTH * min(len(names), COLUMNS), PANEL_HEIGHT * rows + 30
    label = f"{evaluation.test_set} {evaluation.lp}: metric against {gold}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(label)}">',
        "<style>text{font:12px sans-serif;fill:#222}.title{font-weight:bold;text-anchor:middle}"
        ".tick{font-size:10px;fill:#555;text-anchor:middle}.tick.end{text-anchor:end}.axis{text-anchor:middle}"
        ".grid{stroke:#ddd}.fit{stroke:#c33;stroke-width:1.5}circle{fill:#1f5fa8;fill-opacity:.8}</style>",
        f'<text class="title" x="{width / 2:.1f}" y="18">{escape(evaluation.test_set)} {escape(evaluation.lp)}: '
        f"system scores against human {escape(gold)} scores</text>",
    ]
    for index, name in enumerate(names):
        systems, x_values, y_values = evaluation.system_points[name]
        left, top = PANEL_WIDTH * (index % COLUMNS), 30 + PANEL_HEIGHT * (index // COLUMNS)
        parts += _panel(name, systems, x_values, y_values, pearson.get(name), gold, left, top)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
