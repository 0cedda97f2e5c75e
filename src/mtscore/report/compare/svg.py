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


def _ticks(top: float, low: float = 0.0) -> list[float]:
    """About five round tick values from ``low`` (0, or a negative number) to at least ``top``."""
    span = top - low
    if span <= 0 or not math.isfinite(span):
        return [0.0, 1.0]
    step = 10 ** math.floor(math.log10(span / 5))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 6:
            step *= factor
            break
    return [step * i for i in range(math.floor(low / step), math.ceil(top / step) + 1)]


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
    ``lower`` to ``upper``; NaN values draw nothing; a negative value is a bar down from 0. A
    ``<title>`` on each bar gives its number."""
    finite = [v for v in (values, upper) if v is not None]
    top = max([float(np.nanmax(v)) for v in finite if np.isfinite(v).any()] + [0.0])
    bottoms = [v for v in (values, lower) if v is not None]
    low = min([float(np.nanmin(v)) for v in bottoms if np.isfinite(v).any()] + [0.0])
    ticks = _ticks(top, low)
    left, bottom, right, head = 48, 40, 8, 22
    plot_w, plot_h = width - left - right, height - bottom - head
    scale = plot_h / (ticks[-1] - ticks[0])
    base = -ticks[0] * scale  # the height of 0 above the plot's bottom
    slot = plot_w / max(len(groups), 1)
    bar = slot * 0.8 / max(len(series), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(label)}">'
    ]
    for tick in ticks:
        y = head + plot_h - (tick - ticks[0]) * scale
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tick" x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for g, group in enumerate(groups):
        x0 = left + g * slot + slot * 0.1
        for s, name in enumerate(series):
            value = values[s, g]
            if not np.isfinite(value):
                continue
            x, h = x0 + s * bar, value * scale
            y_top = head + plot_h - (base + max(h, 0.0))
            tip = f"{name} | {group}: {value:.2f}"
            if lower is not None and upper is not None and np.isfinite(lower[s, g]):
                tip += f" [{lower[s, g]:.2f}, {upper[s, g]:.2f}]"
            parts.append(
                f'<rect x="{x:.1f}" y="{y_top:.1f}" width="{max(bar - 1, 1):.1f}" height="{abs(h):.1f}" '
                f'fill="{colour(s)}"><title>{escape(tip)}</title></rect>'
            )
            if lower is not None and upper is not None and np.isfinite(lower[s, g]):
                cx = x + (bar - 1) / 2
                y1 = head + plot_h - (base + lower[s, g] * scale)
                y2 = head + plot_h - (base + upper[s, g] * scale)
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
