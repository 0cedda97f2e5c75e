"""Draw, per metric, time per segment against segments per call (log-log), mtscore beside its peer,
from committed results: the per-call harness's JSON (one segment to 1,000 per call) and the corpus
harness's JSON (a whole workload in one call). Writes one SVG per metric into docs/images/.

    python benchmarks/curve.py [--percall benchmarks/results/percall-2026-11-28-unique-speedA.json]
"""

from __future__ import annotations

import argparse
import json
import math
from html import escape
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"

# metric -> (the per-call harness's case prefix, its peer's name, corpus results file, workload, segments)
METRICS = {
    "BLEU": ("mtscore.corpus_bleu", "sacrebleu", "2026-11-26-RB.json", "R", 183_120),
    "chrF": ("mtscore.corpus_chrf", "sacrebleu", "2026-11-26-S-183120.json", "S", 183_120),
    "TER": ("mtscore.corpus_ter", "sacrebleu", "2026-11-26-IU.json", "U", 4_000),
}
WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 460, 300, 64, 44, 30, 110


def points(percall: dict, corpus: dict, prefix: str, peer: str, workload: str, segments: int) -> dict[str, list]:
    """(segments per call, microseconds per segment) for mtscore and its peer."""
    curves: dict[str, list[tuple[float, float]]] = {"mtscore": [], peer: []}
    for row in percall["rows"]:
        if not row["case"].startswith(prefix):
            continue
        per_call = row["segments"] / row["calls"]
        curves["mtscore"].append((per_call, row["ours_us_per_call"] / per_call))
        curves[peer].append((per_call, row["peer_us_per_call"] / per_call))
    for row in corpus["rows"]:
        if row["workload"] == workload and row["implementation"] in ("mtscore", peer):
            curves[row["implementation"]].append((segments, row["median_s"] * 1e6 / segments))
    return {name: sorted(values) for name, values in curves.items()}


def svg(title: str, curves: dict[str, list[tuple[float, float]]]) -> str:
    xs = [x for values in curves.values() for x, _ in values]
    ys = [y for values in curves.values() for _, y in values]
    x_low, x_high = 0, math.ceil(math.log10(max(xs)))
    y_low, y_high = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (math.log10(x) - x_low) / (x_high - x_low) * plot_w

    def py(y: float) -> float:
        return TOP + plot_h - (math.log10(y) - y_low) / (y_high - y_low) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}">',
        "<style>text{font:11px sans-serif;fill:#222}.t{font-weight:bold;font-size:12px}.g{stroke:#ddd}"
        "circle.m,text.m{fill:#1f5fa8}circle.p,text.p{fill:#c33}polyline{fill:none;stroke-width:2}"
        "polyline.m{stroke:#1f5fa8}polyline.p{stroke:#c33}</style>",
        f'<text class="t" x="{LEFT}" y="18">{escape(title)}</text>',
    ]
    for exponent in range(x_low, x_high + 1):
        x = px(10**exponent)
        parts.append(f'<line class="g" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + plot_h}"/>')
        parts.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 14}" text-anchor="middle">10^{exponent}</text>')
    for exponent in range(y_low, y_high + 1):
        y = py(10**exponent)
        parts.append(f'<line class="g" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}"/>')
        label = f"{10**exponent:g} µs" if exponent < 3 else f"{10 ** (exponent - 3):g} ms"
        parts.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">segments per call</text>')
    for index, (name, values) in enumerate(curves.items()):
        kind = "m" if name == "mtscore" else "p"
        line = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in values)
        parts.append(f'<polyline class="{kind}" points="{line}"/>')
        for x, y in values:
            parts.append(
                f'<circle class="{kind}" cx="{px(x):.1f}" cy="{py(y):.1f}" r="3">'
                f"<title>{escape(name)}: {x:,.0f} per call, {y:,.1f} µs per segment</title></circle>"
            )
        parts.append(f'<text class="{kind}" x="{LEFT + plot_w + 8}" y="{TOP + 14 + 16 * index}">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--percall", default=str(RESULTS / "percall-2026-11-28-unique-speedA.json"))
    args = parser.parse_args()
    percall = json.loads(Path(args.percall).read_text(encoding="utf-8"))
    for metric, (prefix, peer, corpus_file, workload, segments) in METRICS.items():
        corpus = json.loads((RESULTS / corpus_file).read_text(encoding="utf-8"))
        curves = points(percall, corpus, prefix, peer, workload, segments)
        title = f"{metric}: time per segment against segments per call"
        target = IMAGES / f"curve-{metric.lower()}.svg"
        target.write_text(svg(title, curves), encoding="utf-8")
        print(target)


if __name__ == "__main__":
    main()
