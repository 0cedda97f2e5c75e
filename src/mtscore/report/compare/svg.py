"""Charts as inline SVG: grouped bars with interval whiskers, drawn from numbers alone (no
plotting library, no fonts or images from elsewhere). Every text is escaped."""

from __future__ import annotations

import math
from html import escape

import numpy as np

# Colour-blind-safe qualitative palette (Okabe-Ito, then Tol's muted), repeated beyond its length.
PALETTE = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
    "#D55E00", "#F0E442", "#332288", "#882255", "#44AA99",
)  # fmt: skip


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _step(span: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) that cuts ``span`` into at most six parts."""
    step = 10 ** math.floor(math.log10(span / 5))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 6:
            return step * factor
    return step * 10


def axis(lowest: float, top: float) -> list[float]:
    """About five round tick values covering ``lowest`` to ``top``: from 0 where 0 is not far below the
    data, else from a round value just below ``lowest`` (the bars then start there, and the chart says so),
    so that a difference of a few points between scores of 50 shows."""
    if not (math.isfinite(lowest) and math.isfinite(top)) or top <= lowest:
        lowest, top = min(0.0, lowest) if math.isfinite(lowest) else 0.0, max(top, 1.0) if math.isfinite(top) else 1.0
    near = lowest > top / 2
    start = lowest if near or lowest < 0 else 0.0
    span = top - start if top > start else 1.0
    step = _step(span)
    first = math.floor(start / step) * step
    if near and first >= lowest:
        first -= step  # the lowest bar keeps some height
    return [first + step * i for i in range(math.ceil((top - first) / step - 1e-9) + 1)]


def grouped_bars(
    groups: list[str],
    series: list[str],
    values: np.ndarray,
    lower: np.ndarray | None = None,
    upper: np.ndarray | None = None,
    label: str = "",
    width: int = 720,
    height: int = 260,
) -> str:
    """Bars of ``values[series, group]`` side by side within each group, with whiskers from
    ``lower`` to ``upper``; NaN values draw nothing. A ``<title>`` on each bar gives its number.
    The axis starts at 0, or near the data where 0 is far below it (``axis``): then the bars start
    at the axis's first value, and the label says where the axis starts."""
    shown = [v for v in (values, lower, upper) if v is not None and np.isfinite(v).any()]
    top = max([float(np.nanmax(v)) for v in shown] + [0.0])
    lowest = min([float(np.nanmin(v)) for v in shown] + [top])
    ticks = axis(lowest, top)
    base = max(ticks[0], 0.0)  # bars grow from here (from 0 where the axis holds it)
    if ticks[0] > 0:
        label = f"{label} (axis starts at {ticks[0]:g}, not 0)"
    left, bottom, right, head = 48, 40, 8, 22
    plot_w, plot_h = width - left - right, height - bottom - head
    scale = plot_h / (ticks[-1] - ticks[0])

    def y_of(value: float) -> float:
        return head + plot_h - (value - ticks[0]) * scale

    slot = plot_w / max(len(groups), 1)
    bar = slot * 0.8 / max(len(series), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(label)}">'
    ]
    for tick in ticks:
        y = y_of(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tick" x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for g, group in enumerate(groups):
        x0 = left + g * slot + slot * 0.1
        for s, name in enumerate(series):
            value = values[s, g]
            if not np.isfinite(value):
                continue
            x = x0 + s * bar
            y_top, y_bottom = sorted((y_of(value), y_of(base)))
            tip = f"{name} | {group}: {value:.2f}"
            if lower is not None and upper is not None and np.isfinite(lower[s, g]):
                tip += f" [{lower[s, g]:.2f}, {upper[s, g]:.2f}]"
            parts.append(
                f'<rect x="{x:.1f}" y="{y_top:.1f}" width="{max(bar - 1, 1):.1f}" height="{y_bottom - y_top:.1f}" '
                f'fill="{colour(s)}"><title>{escape(tip)}</title></rect>'
            )
            if lower is not None and upper is not None and np.isfinite(lower[s, g]):
                cx = x + (bar - 1) / 2
                y1, y2 = y_of(lower[s, g]), y_of(upper[s, g])
                parts.append(f'<line class="whisker" x1="{cx:.1f}" x2="{cx:.1f}" y1="{y1:.1f}" y2="{y2:.1f}"/>')
        parts.append(
            f'<text class="label" x="{x0 + slot * 0.4:.1f}" y="{height - bottom + 16}" '
            f'text-anchor="middle">{escape(group)}</text>'
        )
    parts.append(f'<text class="axis" x="4" y="4" dominant-baseline="hanging">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def legend(series: list[str]) -> str:
    """The colour of each series, as HTML (text stays selectable and searchable)."""
    items = "".join(
        f'<li><span class="swatch" style="background:{colour(i)}"></span><bdi>{escape(name)}</bdi></li>'
        for i, name in enumerate(series)
    )
    return f'<ul class="legend">{items}</ul>'
