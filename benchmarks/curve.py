"""Draw, per metric, time per segment against segments per call (log-log), mtscore beside its peer,
from committed results: the per-call harness's JSON (one segment to 1,000 per call) and the corpus
harness's JSON (a whole workload in one call). Writes one SVG per metric into docs/images/.

    python benchmarks/curve.py [--metrics BLEU,WER]
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from html import escape
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


@dataclass(frozen=True)
class Curve:
    """Where one metric's points come from: the per-call harness's rows whose case starts with one of
    ``prefix`` (in the files ``percall``), and the corpus harness's rows of ``workload`` in ``corpus_file``, whose
    implementations ``ours`` and ``theirs`` are mtscore and the peer, scoring ``segments`` segments in
    calls of ``per_call`` segments each (a workload of several systems is one call per system)."""

    prefix: tuple[str, ...]
    peer: str
    corpus_file: str
    workload: str
    segments: int
    per_call: int
    ours: str = "mtscore"
    theirs: str = ""
    percall: tuple[str, ...] = ("percall-2026-11-28-unique-speedA.json",)


CURVES_PERCALL = (
    "percall-2026-11-28-unique-speedA.json",  # one segment per call: WER, CER
    "percall-2026-11-28-unique-nltk-meteor.json",  # one segment per call: the NLTK drop-in
    "percall-2026-11-28-curves.json",  # batches
)
# WER and CER after calls of up to 4,096 segments were aligned pair by pair (one call and batches).
WER_CER_PERCALL = ("percall-2026-11-28-wer-cer-4096.json",)
METRICS = {
    "BLEU": Curve(("mtscore.corpus_bleu",), "sacrebleu", "2026-11-26-RB.json", "R", 183_120, 183_120),
    "chrF": Curve(("mtscore.corpus_chrf",), "sacrebleu", "2026-11-26-S-183120.json", "S", 183_120, 183_120),
    "TER": Curve(("mtscore.corpus_ter",), "sacrebleu", "2026-11-26-IU.json", "U", 4_000, 4_000),
    # WMT22 en-de: 9 systems of 2,037 segments, one call per system.
    "WER": Curve(
        ("mtscore.sentence_wer(", "mtscore.corpus_wer x"),
        "jiwer",
        "2026-11-28-M.json",
        "M",
        18_333,
        2_037,
        percall=WER_CER_PERCALL,
    ),
    "CER": Curve(
        ("mtscore.sentence_cer(", "mtscore.corpus_cer x"),
        "jiwer",
        "2026-11-28-M.json",
        "M",
        18_333,
        2_037,
        ours="mtscore-cer",
        theirs="jiwer-cer",
        percall=WER_CER_PERCALL,
    ),
    "Google-BLEU": Curve(
        ("mtscore.nltk.sentence_gleu", "mtscore.nltk.corpus_gleu x"),
        "NLTK",
        "2026-11-28-JKPQ-tokens-2.json",
        "K",
        18_333,
        2_037,
        ours="mtscore-tokens",
        theirs="nltk",
        percall=CURVES_PERCALL,
    ),
    "NIST": Curve(
        ("mtscore.nltk.sentence_nist", "mtscore.nltk.corpus_nist x"),
        "NLTK",
        "2026-11-28-JKPQ-tokens-2.json",
        "Q",
        18_333,
        2_037,
        ours="mtscore-tokens",
        theirs="nltk",
        percall=CURVES_PERCALL,
    ),
    # WMT22 de-en: 9 systems of 1,984 segments, one call per system.
    "METEOR": Curve(
        ("mtscore.nltk.meteor_score", "mtscore.sentence_meteors x"),
        "NLTK",
        "2026-11-26-JKNOPQ.json",
        "O",
        17_856,
        1_984,
        theirs="nltk",
        percall=CURVES_PERCALL,
    ),
}
WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 460, 300, 64, 44, 30, 110


def points(percall: list[dict], corpus: dict, curve: Curve) -> dict[str, list]:
    """(segments per call, microseconds per segment) for mtscore and its peer."""
    curves: dict[str, list[tuple[float, float]]] = {"mtscore": [], curve.peer: []}
    for row in (row for results in percall for row in results["rows"]):
        if not row["case"].startswith(curve.prefix):
            continue
        per_call = row["segments"] / row["calls"]
        curves["mtscore"].append((per_call, row["ours_us_per_call"] / per_call))
        curves[curve.peer].append((per_call, row["peer_us_per_call"] / per_call))
    names = {curve.ours: "mtscore", curve.theirs or curve.peer: curve.peer}
    for row in corpus["rows"]:
        if row["workload"] == curve.workload and row["implementation"] in names:
            point = (curve.per_call, row["median_s"] * 1e6 / curve.segments)
            curves[names[row["implementation"]]].append(point)
    return {name: sorted(dict(values).items()) for name, values in curves.items()}  # a later file's point wins


def speedups(curves: dict[str, list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """(segments per call, the peer's time over mtscore's) at each size both were timed at."""
    (_, ours), (_, theirs) = curves.items()
    peer = dict(theirs)
    return [(x, peer[x] / y) for x, y in ours if x in peer]


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
    parser.add_argument("--metrics", default=",".join(METRICS), help="the metrics to draw")
    args = parser.parse_args()
    for metric in args.metrics.split(","):
        curve = METRICS[metric]
        percall = [json.loads((RESULTS / name).read_text(encoding="utf-8")) for name in curve.percall]
        corpus = json.loads((RESULTS / curve.corpus_file).read_text(encoding="utf-8"))
        curves = points(percall, corpus, curve)
        title = f"{metric}: time per segment against segments per call"
        target = IMAGES / f"curve-{metric.lower()}.svg"
        target.write_text(svg(title, curves), encoding="utf-8")
        ratios = ", ".join(f"{x:,.0f}: {ratio:.1f}x" for x, ratio in speedups(curves))
        print(f"{target.name}: {curve.peer} / mtscore per segment at {ratios}")


if __name__ == "__main__":
    main()
