"""Time ``mtscore`` against its peers on the same inputs, each measurement in a fresh process.

    python benchmarks/run.py                       # every workload (A-W), 3 runs, full size
    python benchmarks/run.py --quick --runs 1      # B, C, E, R on their first 20,000 segments, S on 20,000
    python benchmarks/run.py --workloads A,D --runs 5 --impls mtscore,sacrebleu,nltk

Rounds alternate between implementations (round r starts r places further down the list), so that
no implementation profits from another's warm caches. Results: a table on stdout, and
``benchmarks/results/latest.{md,json}`` plus a dated copy. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402
import report  # noqa: E402
from implementations import IMPLEMENTATIONS, PLAN, not_comparable_reason  # noqa: E402
from workloads import KINDS, REPO_ROOT, WORKLOADS  # noqa: E402

QUICK_SEGMENTS = 20_000
SUBSET_WORKLOADS = ("B", "C", "E", "R", "S")  # the ones --segments cuts (S: a sample of that size)
# Peers too slow for a full-size run: the largest segment count they run on unless --all-peers
# (None: only with --all-peers; H has no smaller size, and torchmetrics' chrF takes minutes on it).
SLOW = {("B", "torchmetrics"): QUICK_SEGMENTS, ("H", "torchmetrics"): None, ("H", "torchmetrics-chrf++"): None}
WORKER = HERE / "worker.py"
FOOTNOTE = (
    "*Peak RSS is the worker's ru_maxrss: interpreter + imports + data loading + the call; "
    "'(CLI)': the command-line child process's ru_maxrss (F, G, V, W; mteval on P, Q). "
    "Time / mtscore > 1 means mtscore is faster (variant rows: over their mtscore row). Agreement: |score - reference| "
    "on the 0-100 scale (per-segment workloads: max over segments; F, G, V: max over every system's score, "
    "p-value, mean and CI; K, M, Q: max over the systems' scores); reference = sacrebleu (A, B, C, F-I; E against "
    "B's; chrF++ rows: sacrebleu-chrf++), NLTK (D, J, K, N, O), jiwer (L, M; '-wer-std', '-cer' rows: their jiwer "
    "pair), mteval-v13a.pl (P, Q; nltk: mtscore-nist-nltk), sacrebleu (R-V; V's '-ar' rows: sacrebleu-ar); "
    "ok means <= 1e-9."
)
STAGE_NOTE = (
    "The stages are mtscore.metrics.bleu.stages' functions, called one after another; 'read' is not part of "
    "workload B's timing (B gets lines in memory)."
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help=f"comma-separated, from {','.join(WORKLOADS)}")
    parser.add_argument("--impls", default=None, help="only these implementations (comma-separated)")
    parser.add_argument("--runs", type=int, default=3, help="fresh-process runs per implementation and workload")
    parser.add_argument("--quick", action="store_true", help=f"--segments {QUICK_SEGMENTS:,}")
    parser.add_argument(
        "--segments", type=int, default=None, help="B, C, E and R on their first N segments; S on a sample of N"
    )
    parser.add_argument(
        "--all-peers", action="store_true", help="also run peers too slow for full size (torchmetrics on B and H)"
    )
    parser.add_argument("--no-stages", action="store_true", help="skip mtscore's stage breakdown on B (or R)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a worker is stopped")
    parser.add_argument("--results", type=Path, default=HERE / "results", help="where to write the results")
    parser.add_argument("--no-save", action="store_true", help="print the tables only")
    parser.add_argument(
        "--render",
        type=Path,
        default=None,
        metavar="JSON",
        help="measure nothing: redraw the tables of a saved results JSON and rewrite its .md",
    )
    args = parser.parse_args(argv)
    args.workloads = [w.strip().upper() for w in args.workloads.split(",") if w.strip()]
    unknown = sorted(set(args.workloads) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; choose from {','.join(WORKLOADS)}")
    if args.impls:
        args.impls = [i.strip() for i in args.impls.split(",") if i.strip()]
        unknown = sorted(set(args.impls) - set(IMPLEMENTATIONS))
        if unknown:
            parser.error(f"unknown implementation(s) {', '.join(unknown)}; choose from {','.join(IMPLEMENTATIONS)}")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.segments is None and args.quick:
        args.segments = QUICK_SEGMENTS
    return args


def segments_for(workload: str, args) -> int | None:
    return args.segments if workload in SUBSET_WORKLOADS else None


def call_worker(arguments: list[str], timeout: float) -> dict:
    """Run the worker in a fresh interpreter; its last stdout line is the JSON record."""
    command = [sys.executable, str(WORKER), *arguments]
    try:
        done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "error": f"stopped after {timeout:.0f} s"}
    for line in reversed(done.stdout.strip().splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                break
    tail = " | ".join(done.stderr.strip().splitlines()[-3:])
    return {"status": "error", "error": f"worker exited with {done.returncode}: {tail}"}


def too_slow(workload: str, implementation: str, args) -> str | None:
    """Why a peer listed in SLOW is skipped at this size, or None when it runs."""
    if (workload, implementation) not in SLOW or args.all_peers:
        return None
    limit, segments = SLOW[(workload, implementation)], segments_for(workload, args)
    if limit is None:
        return "too slow for a default run (minutes per call); --all-peers to run it"
    if segments is None or segments > limit:
        return f"too slow at this size (runs up to {limit:,} segments; --all-peers to force)"
    return None


def plan_workload(workload: str, args) -> tuple[list[str], dict[str, dict]]:
    """Implementations to run on ``workload``, and rows for those that will not run (with why)."""
    wanted = [i for i in PLAN[workload] if not args.impls or i in args.impls]
    to_run, not_run = [], {}
    for implementation in wanted:
        reason = not_comparable_reason(implementation, KINDS[workload])
        slow = too_slow(workload, implementation, args)
        if reason:
            not_run[implementation] = {"status": "not-comparable", "error": reason}
        elif slow:
            not_run[implementation] = {"status": "skipped", "error": slow}
        else:
            to_run.append(implementation)
    return to_run, not_run


def rotated(items: list[str], round_index: int) -> list[str]:
    shift = round_index % len(items) if items else 0
    return items[shift:] + items[:shift]


def measure_workload(workload: str, args, scratch: Path) -> tuple[list[dict], dict[str, list[dict]]]:
    """All rounds of one workload; an implementation that fails once is not retried."""
    to_run, not_run = plan_workload(workload, args)
    records: dict[str, list[dict]] = {i: [] for i in to_run}
    failed: set[str] = set()
    segments = segments_for(workload, args)
    for round_index in range(args.runs):
        for implementation in rotated(to_run, round_index):
            if implementation in failed:
                continue
            arguments = [implementation, workload]
            if segments is not None:
                arguments += ["--segments", str(segments)]
            if KINDS[workload] in report.VECTOR_KINDS:
                arguments += ["--scores-out", str(scratch / f"{workload}-{implementation}-{round_index}.npy")]
            record = call_worker(arguments, args.timeout)
            record.update(round=round_index + 1, implementation=implementation, workload=workload)
            records[implementation].append(record)
            if record["status"] != "ok":
                failed.add(implementation)
            log(f"[{workload} {round_index + 1}/{args.runs}] {implementation:<12} {progress(record)}")
    return [{"workload": workload, "implementation": i, **row} for i, row in not_run.items()], records


def progress(record: dict) -> str:
    if record["status"] != "ok":
        return f"{record['status']}: {record.get('error', '')}"
    score = record.get("score")
    return f"{record['seconds']:.3f} s" + ("" if score is None else f"  score {score:.6f}")


def stage_workload(args) -> str | None:
    """The workload whose stages are broken down: B, else R (B-unique), when it runs."""
    if args.no_stages:
        return None
    return next((name for name in ("B", "R") if name in args.workloads), None)


def measure_stages(args) -> list[dict]:
    """mtscore's stage breakdown on B (or R), once per run, each in a fresh process."""
    runs = []
    for round_index in range(args.runs):
        arguments = ["stages", stage_workload(args)] + (["--segments", str(args.segments)] if args.segments else [])
        record = call_worker(arguments, args.timeout)
        record["round"] = round_index + 1
        runs.append(record)
        detail = ", ".join(f"{k} {v:.3f}" for k, v in record.get("stages", {}).items()) or record.get("error", "")
        log(f"[stages {round_index + 1}/{args.runs}] {detail}")
    return runs


def workload_info(workloads: list[str], args) -> dict[str, dict]:
    """Segments and hypothesis tokens per workload, counted once in a worker (untimed)."""
    info = {}
    for workload in workloads:
        arguments = ["info", workload] + (["--segments", str(s)] if (s := segments_for(workload, args)) else [])
        info[workload] = call_worker(arguments, args.timeout)
        log(f"[{workload}] {report.DESCRIPTIONS[workload]}: {info[workload]}")
    return info


def build_rows(skipped: list[dict], records: dict, info: dict) -> list[dict]:
    """Summary rows in plan order, with ratios and agreement filled in."""
    rows = []
    for workload, by_impl in records.items():
        tokens = info[workload].get("hyp_tokens")
        for implementation in PLAN[workload]:
            if implementation in by_impl:
                rows.append(report.summarize(workload, implementation, by_impl[implementation], tokens))
            else:
                rows += [r for r in skipped if r["workload"] == workload and r["implementation"] == implementation]
    report.add_ratios(rows)
    report.add_agreement(rows)
    return rows


def render(rows, stage_rows, info, machine_info, args, command: str, markdown: bool, date: str | None = None) -> str:
    """The whole report, as plain text (stdout) or Markdown (results file)."""
    table = report.markdown_table if markdown else report.text_table
    out = []
    if markdown:
        date = date or datetime.date.today().isoformat()
        out += [
            f"# mtscore benchmark, {date}",
            "",
            f"Command: `{command}`",
            "",
            f"Machine: {machine.summary(machine_info)}",
            "",
            "Workloads:",
            "",
        ]
        out += [*report.workload_lines(info), ""]
    if machine_info.get("warning"):
        out += [f"**Warning: {machine_info['warning']}.**" if markdown else f"WARNING: {machine_info['warning']}.", ""]
    out.append(table(report.COLUMNS, [report.cells(r) for r in rows]))
    out += ["", f"Median of {args.runs} run(s), each in a fresh process; only the scoring call is timed. {FOOTNOTE}"]
    causes = report.known_causes(rows)
    if causes:
        out += ["", "Score differences and their causes:", "", *causes]
    targets = report.target_notes(rows)
    if targets:
        out += ["", "Speed targets (the peer's median over mtscore's):", "", *targets]
    floor_notes = report.floor_notes(rows)
    if floor_notes:
        out += ["", *floor_notes]
    rates = report.per_segment_notes(rows, info)
    if rates:
        out += ["", *rates]
    notes = [f"- {r['workload']} {r['implementation']}: {r['note']}" for r in rows if r.get("note")]
    if markdown and notes:
        out += ["", "How each implementation was called:", "", *notes]
    if stage_rows:
        heading = f"mtscore stage breakdown on workload {stage_rows[0].get('workload', 'B')} (median per stage)"
        out += ["", f"## {heading}" if markdown else heading, ""]
        out.append(table(report.STAGE_COLUMNS, [report.stage_cells(r) for r in stage_rows]))
        out += ["", STAGE_NOTE]
    return "\n".join(out) + "\n"


def dated_stem(args) -> str:
    """``YYYY-MM-DD``, then ``-`` and the workloads when not all ran, then ``-quick`` for ``--quick``
    runs or ``-N`` for ``--segments N``."""
    stem = datetime.date.today().isoformat()
    if sorted(args.workloads) != sorted(WORKLOADS):
        stem += "-" + "".join(args.workloads)
    return stem + ("-quick" if args.quick else f"-{args.segments}" if args.segments else "")


def save(results_dir: Path, markdown: str, data: dict, stem: str) -> list[Path]:
    """``latest.md``/``latest.json`` and a dated copy named ``stem``."""
    results_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in ("latest", stem):
        (results_dir / f"{name}.md").write_text(markdown, encoding="utf-8")
        (results_dir / f"{name}.json").write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
        paths += [results_dir / f"{name}.md", results_dir / f"{name}.json"]
    return paths


def strip_scratch(rows: list[dict], records: dict) -> None:
    """Drop paths into the scratch folder, which is deleted at the end."""
    for row in rows:
        row.pop("scores_file", None)
    for by_impl in records.values():
        for runs in by_impl.values():
            for record in runs:
                record.pop("scores_file", None)


def rerender(path: Path) -> int:
    """Redraw a saved run's tables (e.g. after a change to the notes) into the .md beside its JSON."""
    data = report.upgrade_saved(json.loads(path.read_text(encoding="utf-8")))
    args = argparse.Namespace(**data["config"])
    date = data["date"][:10]
    rows, stage_rows, info, machine_info = data["rows"], data["stages"], data["workloads"], data["machine"]
    print(render(rows, stage_rows, info, machine_info, args, data["command"], markdown=False, date=date))
    markdown = render(rows, stage_rows, info, machine_info, args, data["command"], markdown=True, date=date)
    path.with_suffix(".md").write_text(markdown, encoding="utf-8")
    log(f"wrote {path.with_suffix('.md')}")
    return 0


def compile_bytecode() -> None:
    """Write the library's bytecode, as ``pip install`` does: the command-line workloads start a
    fresh interpreter, which would otherwise compile ``mtscore``'s sources inside the timed call when
    bytecode writing is off (``PYTHONDONTWRITEBYTECODE``, as in some sandboxes)."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("mtscore")
    if spec is not None and spec.origin:
        compileall.compile_dir(Path(spec.origin).parent, quiet=1)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.render:
        return rerender(args.render)
    compile_bytecode()
    command = "python benchmarks/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    machine_info = machine.machine_info(REPO_ROOT)
    log(f"machine: {machine.summary(machine_info)}")
    source = machine_info.get("mtscore_imported_from")
    if source and not Path(source).resolve().is_relative_to((REPO_ROOT / "src").resolve()):
        log(
            f"warning: the workers import mtscore from {source}, not this tree's src/ (whose digest the results "
            f"record): install it with `pip install -e .` or set PYTHONPATH={REPO_ROOT / 'src'}"
        )
    info = workload_info(args.workloads, args)
    scratch = Path(tempfile.mkdtemp(prefix="mtscore-bench-"))
    try:
        skipped, records = [], {}
        for workload in args.workloads:
            if info[workload].get("status") != "ok":
                skipped += [{"workload": workload, "implementation": i, **info[workload]} for i in PLAN[workload]]
                continue
            not_run, records[workload] = measure_workload(workload, args, scratch)
            skipped += not_run
        stage_runs = measure_stages(args) if stage_workload(args) else []
        rows = build_rows(skipped, records, info)
        rows += [r for r in skipped if r["workload"] not in records]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    strip_scratch(rows, records)
    stage_rows = report.stage_rows(stage_runs, stage_workload(args) or "B")
    machine_info["load_average_end"] = machine.load_average()
    machine_info["source_digest_end"] = machine.source_digest(REPO_ROOT)
    if machine_info["source_digest_end"] != machine_info["source_digest"]:
        machine_info["warning"] = "the library's source files changed during the run: rows may mix versions"
        log(f"warning: {machine_info['warning']}")
    print(render(rows, stage_rows, info, machine_info, args, command, markdown=False))
    if not args.no_save:
        data = {
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "command": command,
            "machine": machine_info,
            "config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
            "workloads": info,
            "rows": rows,
            "stages": stage_rows,
            "stage_runs": stage_runs,
            "runs": records,
        }
        markdown = render(rows, stage_rows, info, machine_info, args, command, markdown=True)
        for path in save(args.results, markdown, data, dated_stem(args)):
            log(f"wrote {os.path.relpath(path, REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
