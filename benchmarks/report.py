"""Turn the workers' records into summary rows, agreement checks and tables (plain text and Markdown)."""

from __future__ import annotations

import statistics

from implementations import TARGETS, baseline_of, reference_of
from stages import DESCRIPTIONS as STAGE_DESCRIPTIONS
from stages import STAGES
from workloads import DESCRIPTIONS, KINDS

TOLERANCE = 1e-9  # on the 0-100 scale
# Workloads whose rows are checked value by value, and what a value is.
VECTOR_UNITS = {
    "sentence": "segs",
    "ids": "segs",
    "cli": "values",
    "meteor": "segs",
    "meteor-systems": "segs",
    "gleu-systems": "systems",
    "wer-systems": "systems",
    "nist-systems": "systems",
}
VECTOR_KINDS = tuple(VECTOR_UNITS)
COLUMNS = (
    "Workload",
    "Implementation",
    "Median s",
    "Range s",
    "CPU s",
    "Hyp tokens/s",
    "Peak RSS MiB*",
    "Time / mtscore",
    "Score",
    "Agreement",
)


# Implementation names in results saved before the package was renamed ``mtscore`` (from ``bleu``).
LEGACY_NAMES = {"bleu": "mtscore", "bleu-torch": "mtscore-torch", "bleu-chrf++": "mtscore-chrf++"}
# Keys of saved rows and machine records renamed with it: old key -> today's.
LEGACY_KEYS = {
    "time_vs_bleu": "time_vs_mtscore",
    "bleu_source_digest": "source_digest",
    "bleu_source_digest_end": "source_digest_end",
}


def upgrade_saved(data: dict) -> dict:
    """A saved results JSON (``--render``) in today's implementation names and keys, so that the
    report code reads files saved before the rename; the file itself is left as it is."""

    def renamed(record: dict) -> dict:
        record = {LEGACY_KEYS.get(key, key): value for key, value in record.items()}
        if "implementation" in record:
            record["implementation"] = LEGACY_NAMES.get(record["implementation"], record["implementation"])
        return record

    config = dict(data["config"])
    if config.get("impls"):
        config["impls"] = [LEGACY_NAMES.get(name, name) for name in config["impls"]]
    return {**data, "config": config, "machine": renamed(data["machine"]), "rows": [renamed(r) for r in data["rows"]]}


def summarize(workload: str, implementation: str, records: list[dict], hyp_tokens: int | None) -> dict:
    """One row from every run of an implementation on a workload (ok runs only; else the first failure)."""
    ok = [r for r in records if r["status"] == "ok"]
    row = {"workload": workload, "implementation": implementation, "runs": len(ok)}
    if not ok:
        failure = records[0] if records else {"status": "error", "error": "never ran"}
        return {**row, "status": failure["status"], "error": failure.get("error", "")}
    seconds = [r["seconds"] for r in ok]
    cpus = [r["cpu_seconds"] for r in ok if r.get("cpu_seconds") is not None]  # absent in older results
    median = statistics.median(seconds)
    return {
        **row,
        "status": "ok",
        "median_s": median,
        "min_s": min(seconds),
        "median_cpu_s": statistics.median(cpus) if len(cpus) == len(ok) else None,
        "max_s": max(seconds),
        "seconds": seconds,
        "tokens_per_s": hyp_tokens / median if hyp_tokens and median > 0 else None,
        "peak_rss_mib": max(r["peak_rss_kib"] for r in ok) / 1024,
        "rss_of": ok[0].get("rss_of", "worker"),
        "score": ok[0].get("score"),
        "scores_file": ok[0].get("scores_file"),
        "note": ok[0].get("note", ""),
        "scores_vary": len({r.get("score") for r in ok}) > 1,
    }


def add_ratios(rows: list[dict]) -> None:
    """``time_vs_mtscore``: each row's median time over mtscore's (or mtscore's row of its variant,
    e.g. chrF++) on the same workload (> 1: mtscore is faster)."""
    medians = {(r["workload"], r["implementation"]): r["median_s"] for r in rows if r["status"] == "ok"}
    for row in rows:
        base = medians.get((row["workload"], baseline_of(row["workload"], row["implementation"])))
        if row["status"] == "ok" and base:
            row["time_vs_mtscore"] = row["median_s"] / base


def _load_scores(path):
    import numpy as np

    return np.load(path)


def _abs_diff(mine, theirs):
    """|mine - theirs| value by value; NaN (a null in a JSON report) equals NaN and is inf from a number."""
    import numpy as np

    diff = np.abs(mine - theirs)
    return np.where(np.isnan(mine) & np.isnan(theirs), 0.0, np.where(np.isnan(diff), np.inf, diff))


def agreement(row: dict, reference: dict | None) -> dict:
    """Compare a row's score(s) with the reference implementation's (sacrebleu; NLTK on D)."""
    kind = KINDS[row["workload"]]
    if row.get("score") is None:
        return {"agreement": "- (computes no score)"}
    if reference is None or reference.get("status") != "ok":
        return {"agreement": "no reference run"}
    if reference is row:
        return {"agreement": "reference"}
    if kind in VECTOR_KINDS:
        unit = VECTOR_UNITS[kind]
        if not row.get("scores_file") or not reference.get("scores_file"):
            return {"agreement": f"no per-{unit} scores"}
        mine, theirs = _load_scores(row["scores_file"]), _load_scores(reference["scores_file"])
        if mine.shape != theirs.shape:
            return {"agreement": f"n/a: {mine.size} vs {theirs.size} {unit}"}
        diff = _abs_diff(mine, theirs)
        worst, differ = float(diff.max()), int((diff > TOLERANCE).sum())
        label = "ok" if differ == 0 else "DIFF"
        text = f"{label} max|Δ| {worst:.1e}" + (f", {differ}/{diff.size} {unit} > 1e-9" if differ else "")
        return {"agreement": text, "max_abs_diff": worst, "segments_differ": differ}
    worst = abs(row["score"] - reference["score"])
    label = "ok" if worst <= TOLERANCE else "DIFF"
    return {"agreement": f"{label} |Δ| {worst:.1e}", "max_abs_diff": worst}


def add_agreement(rows: list[dict]) -> None:
    """Fill ``agreement`` for every ok row against its workload's (or its variant's) reference row."""
    index = {(r["workload"], r["implementation"]): r for r in rows}
    for row in rows:
        if row["status"] == "ok":
            row.update(agreement(row, index.get(reference_of(row["workload"], row["implementation"]))))


_TORCHMETRICS_CHRF = (
    "torchmetrics removes only ASCII spaces before counting character n-grams (sacrebleu removes all whitespace, "
    "e.g. the no-break spaces in 23 of H's hypothesis and reference lines), averages the per-order F-scores "
    "(sacrebleu's eps_smoothing=True; "
    "its default takes the F-score of the averaged precision and recall) and returns float32. With all other "
    "whitespace replaced by spaces, sacrebleu's CHRF(eps_smoothing=True) reproduces its chrF and chrF++ scores "
    "on H within 6e-6."
)
# Why a peer's score differs from the reference, where the cause is known (shown only for DIFF rows).
KNOWN_CAUSES = {
    ("corpus", "nltk"): "NLTK divides each order's matches by max(1, hypothesis n-grams) per segment, so every "
    "hypothesis shorter than n adds 1 to that order's denominator (recomputing sacrebleu's "
    "counts with those denominators reproduces NLTK's score; checked on B's first 20,000 segments).",
    ("sentence", "nltk"): "NLTK has no effective order: hypotheses shorter than 4 tokens get smoothed precisions "
    "for orders they have no n-grams of (on B, every differing segment has 1-3 tokens).",
    (
        "files",
        "mtscore",
    ): "mtscore's reader (the command line's) drops a UTF-8 byte order mark; the harness's own reader (used for "
    "B, and so for sacrebleu) keeps it, as sacrebleu's command line does. One B file starts "
    "with one (generaltest2022.uk-en.hyp.PROMT.en); sacrebleu on the BOM-stripped text gives "
    "mtscore's E score.",
    ("corpus", "torchmetrics"): "torchmetrics returns a float32 tensor: about 7 significant digits.",
    ("ids", "torchmetrics"): "torchmetrics returns a float32 tensor: about 7 significant digits.",
    ("chrf", "torchmetrics"): _TORCHMETRICS_CHRF,
    ("chrf", "torchmetrics-chrf++"): _TORCHMETRICS_CHRF,
    ("ter", "torchmetrics"): "torchmetrics' _compute_sentence_statistics passes the reference where its edit-rate "
    "function takes the hypothesis, so its greedy shift search moves reference words (the "
    "edit distance is symmetric, the shifts are not). sacrebleu's lib_ter with the two "
    "swapped reproduces its I score within 1e-6 (float32).",
}


def known_causes(rows: list[dict]) -> list[str]:
    """One line per implementation whose scores differ from the reference for a known reason."""
    lines = []
    for row in rows:
        cause = KNOWN_CAUSES.get((KINDS[row["workload"]], row["implementation"]))
        if cause and row.get("agreement", "").startswith("DIFF"):
            lines.append(f"- {row['workload']} {row['implementation']}: {cause}")
    return lines


def _human_rate(rate: float | None) -> str:
    if rate is None:
        return "-"
    if rate < 1e3:
        return f"{rate:.0f}"
    return f"{rate / 1e6:.2f} M" if rate >= 1e6 else f"{rate / 1e3:.0f} k"


def _score_text(row: dict) -> str:
    score = row.get("score")
    if score is None:
        return "-"
    kind = KINDS[row["workload"]]
    prefix = "baseline " if kind == "cli" else "mean " if kind in VECTOR_KINDS else ""
    return f"{prefix}{score:.6f}"


def cells(row: dict) -> list[str]:
    """A summary row as table cells."""
    head = [row["workload"], row["implementation"]]
    if row["status"] != "ok":
        reason = f"{row['status']}: {row.get('error', '')}".rstrip(": ")
        return [*head, "-", "-", "-", "-", "-", "-", "-", reason]
    ratio = row.get("time_vs_mtscore")
    return [
        *head,
        f"{row['median_s']:.3f}",
        f"{row['min_s']:.3f}-{row['max_s']:.3f}",
        "-" if row.get("median_cpu_s") is None else f"{row['median_cpu_s']:.3f}",
        _human_rate(row.get("tokens_per_s")),
        f"{row['peak_rss_mib']:.0f}" + (" (CLI)" if row.get("rss_of") == "child" else ""),
        "-" if ratio is None else f"{ratio:.2f}x",
        _score_text(row),
        row.get("agreement", ""),
    ]


def text_table(header, body: list[list[str]]) -> str:
    """Columns padded to their widest cell."""
    widths = [max(len(str(line[i])) for line in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=False)).rstrip() for line in [header, *body]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(header, body: list[list[str]]) -> str:
    def escape(cell) -> str:
        return str(cell).replace("|", "\\|")

    lines = ["| " + " | ".join(map(escape, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(escape, line)) + " |" for line in body]
    return "\n".join(lines)


def stage_rows(stage_runs: list[dict], workload: str = "B") -> list[dict]:
    """Median seconds per stage over the ok runs, with each stage's share of the total (of ``workload``)."""
    ok = [r for r in stage_runs if r["status"] == "ok"]
    if not ok:
        return []
    medians = {name: statistics.median(r["stages"][name] for r in ok) for name in STAGES}
    total = sum(medians.values())
    rows = [
        {
            "stage": name,
            "what": STAGE_DESCRIPTIONS[name],
            "median_s": medians[name],
            "share": medians[name] / total if total else 0.0,
            "workload": workload,
        }
        for name in STAGES
    ]
    rows.append({"stage": "total", "what": "sum of the stage medians", "median_s": total, "share": 1.0})
    return rows


def stage_cells(row: dict) -> list[str]:
    return [row["stage"], row["what"], f"{row['median_s']:.3f}", f"{100 * row['share']:.1f} %"]


STAGE_COLUMNS = ("Stage", "What is timed", "Median s", "Share")


def floor_notes(rows: list[dict]) -> list[str]:
    """How far mtscore is from the split-only floor (workload E; J-Q: their own floor rows), if both ran."""
    index = {(r["workload"], r["implementation"]): r for r in rows if r["status"] == "ok"}
    notes = []
    for (workload, implementation), floor in index.items():
        if implementation != "floor" or workload == "E" or not floor["median_s"]:
            continue
        times = ", ".join(
            f"{row['implementation']} {row['median_s'] / floor['median_s']:.1f}x"
            for (other, name), row in index.items()
            if other == workload and name != "floor"
        )
        if times:
            notes.append(
                f"{workload}: time over the split-only floor (str.split() of the same lines in memory): {times}."
            )
    floor = index.get(("E", "floor"))
    if not floor:
        return notes
    if ("E", "mtscore") in index:
        ratio = index[("E", "mtscore")]["median_s"] / floor["median_s"]
        notes.append(f"E: mtscore reading the same files and scoring takes {ratio:.1f}x the split-only floor.")
    if ("B", "mtscore") in index:
        ratio = index[("B", "mtscore")]["median_s"] / floor["median_s"]
        notes.append(
            f"B vs E: mtscore's corpus_bleu on lines already in memory takes {ratio:.1f}x the floor "
            "(which also reads the files)."
        )
    return notes


def target_notes(rows: list[dict]) -> list[str]:
    """One line per workload with a speed target: mtscore's speed-up over the peer, and whether it is met."""
    index = {(r["workload"], r["implementation"]): r for r in rows}
    notes = []
    for workload, peer, factor in TARGETS:
        row = index.get((workload, peer))
        if row is None:
            continue
        ratio = row.get("time_vs_mtscore")
        if factor == 1:
            goal, shown = f"mtscore at least as fast as {peer}", None if ratio is None else f"{ratio:.2f}x"
        elif factor > 1:
            goal, shown = f"mtscore at least {factor:g}x faster than {peer}", None if ratio is None else f"{ratio:.1f}x"
        else:
            goal, shown = (
                f"mtscore at most {1 / factor:g}x {peer}'s time",
                None if ratio is None else f"{1 / ratio:.2f}x",
            )
        verdict = "not measured" if ratio is None else f"{shown}: {'met' if ratio >= factor else 'NOT met'}"
        notes.append(f"- {workload}: {goal}: {verdict}")
    return notes


# Workloads of one metric at different sizes: the per-segment time of each is set beside the others'.
SAME_METRIC = (("H", "S", "T"), ("I", "U"))


def per_segment_notes(rows: list[dict], workload_info: dict) -> list[str]:
    """Microseconds per segment of every row of the chrF (H, S, T) and TER (I, U) workloads that ran,
    so that a large sample's rate can be set beside a small one's."""
    notes = []
    for group in SAME_METRIC:
        parts = []
        for workload in group:
            segments = workload_info.get(workload, {}).get("n_segments")
            times = [
                f"{row['implementation']} {1e6 * row['median_s'] / segments:.1f}"
                for row in rows
                if row["workload"] == workload and row["status"] == "ok" and segments
            ]
            if times:
                parts.append(f"{workload} ({segments:,} segments): {', '.join(times)}")
        if parts:
            notes.append(f"µs per segment: {'; '.join(parts)}.")
    return notes


def workload_lines(workload_info: dict) -> list[str]:
    """One line per workload: what it is, segments, hypothesis tokens."""
    lines = []
    for name, info in workload_info.items():
        size = (
            f"{info['n_segments']:,} segments, {info['hyp_tokens']:,} hypothesis tokens (13a)"
            if info.get("status") == "ok"
            else f"inputs unavailable: {info.get('error', '')}"
        )
        lines.append(f"- **{name}**: {DESCRIPTIONS[name]}. {size}.")
    return lines
