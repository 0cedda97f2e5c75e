"""Streaming: the ``mtscore`` command on a generated 10M-segment corpus, with bounded memory; and, with
``--metrics``, every metric that streams on WMT22 text, the command line against the in-memory API.

    python benchmarks/streaming.py [--segments 10000000] [--base 1000000] [--dir /tmp/mtscore-streaming]
    python benchmarks/streaming.py --metrics bleu,chrf,google_bleu,wer,cer [--b-segments N] [--copies K] [--unique]

A base corpus of ``--base`` segment pairs is generated (seeded, cached in ``--dir``), and the
big corpus is that base repeated until it has ``--segments`` lines. Repeating every line k times
multiplies every statistic by k, which leaves every precision and the brevity penalty, and so the
score, unchanged to the last bit (the quotients are the same, and IEEE division is correctly
rounded): the streamed score of the big files must equal the in-memory score of the base. The run
is one fresh ``mtscore`` process, started by a small launcher process; its wall time and peak RSS
(the launcher's ``RUSAGE_CHILDREN``) are reported and written to ``benchmarks/results/streaming-DATE.md``.

With ``--metrics``: workload B's hypotheses and references (its first ``--b-segments``, the whole
written ``--copies`` times) are written to two files, and for each metric two fresh processes run:
``cat HYP | mtscore REF -m METRIC -b -w 17`` (standard input is a pipe, so the command line scores
block by block; the time is the whole process: start-up, imports, reading) and the in-memory API
(``mtscore.corpus_METRIC(hyps, [refs])``; timed twice: the call alone, on lines already read, and the
whole process as a script would run, start-up, imports and reading included, like the CLI's), and
the same command on the files with streaming turned off (every line in memory). Each
reports segments per second and its peak RSS (the API's includes the lines in memory); the two scores
must be identical. Written to ``benchmarks/results/streaming-metrics-DATE.md``.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
LIMIT_MIB = 1024


def generate_base(folder: Path, segments: int, seed: int = 0) -> tuple[Path, Path]:
    """Hypothesis and reference files of ``segments`` lines: 5-20 words from a 5000-word
    vocabulary, the hypothesis keeping each reference word with probability 0.7."""
    hyp, ref = folder / f"base-{segments}.hyp", folder / f"base-{segments}.ref"
    if hyp.exists() and ref.exists():
        return hyp, ref
    rng = np.random.default_rng(seed)
    lengths = rng.integers(5, 21, size=segments)
    words = rng.integers(0, 5000, size=int(lengths.sum()))
    kept = np.where(rng.random(len(words)) < 0.7, words, rng.integers(0, 5000, size=len(words)))
    ends = np.cumsum(lengths)
    for path, ids in ((ref, words), (hyp, kept)):
        tokens = np.char.add("w", ids.astype(str))
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(
                " ".join(tokens[start:end]) + " .\n" for start, end in zip(ends - lengths, ends, strict=False)
            )
    return hyp, ref


def repeat(path: Path, copies: int, target: Path) -> Path:
    """``path`` written ``copies`` times into ``target`` (cached)."""
    if not target.exists():
        data = path.read_bytes()
        with open(target, "wb") as handle:
            handle.writelines(data for _ in range(copies))
    return target


# A small launcher process runs a command and prints its wall time, its output and its child's peak
# RSS: measured from this script, the RSS would include this process's own memory (Linux carries it
# over fork and exec).
_TIMED = (
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout; "
    "print(time.perf_counter() - start, out.strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def run_cli(ref: Path, hyp: Path) -> tuple[float, float, int]:
    """(score, wall seconds, peak RSS in MiB) of one ``mtscore`` process."""
    command = [sys.executable, "-m", "mtscore", str(ref), "-i", str(hyp), "-b", "-w", "17", "--no-progress"]
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", _TIMED, *command], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start  # the launcher's start included, as before
    score, rss_kib = result.stdout.split()[1:]
    return float(score), seconds, int(rss_kib) // 1024


# Metrics whose corpus score streams (``Metric.can_stream``; NIST's information weights need the whole corpus).
STREAMING_METRICS = ("bleu", "chrf", "ter", "google_bleu", "wer", "cer", "meteor")
# A fresh process: read the files, time the API call (after a warm-up call, also timed), print the call's
# seconds, the warm-up's, the score and the peak RSS (KiB).
_IN_MEMORY = (
    "import resource, sys, time; import mtscore; from mtscore.metrics.bleu import stages; "
    "hyps, refs = stages.read(sys.argv[2]), stages.read(sys.argv[3]); "
    "function = getattr(mtscore, 'corpus_' + sys.argv[1]); start = time.perf_counter(); "
    "function(hyps[:10], [refs[:10]]); warm = time.perf_counter() - start; "
    "start = time.perf_counter(); score = function(hyps, [refs]).score; seconds = time.perf_counter() - start; "
    "print(seconds, warm, repr(score), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
)
# A launcher: ``cat HYP | mtscore ...`` (a real pipe), the pipeline's wall time and its largest child's peak RSS.
_PIPE = (
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "cat = subprocess.Popen(['cat', sys.argv[1]], stdout=subprocess.PIPE); "
    "out = subprocess.run(sys.argv[2:], stdin=cat.stdout, capture_output=True, text=True, check=True).stdout; "
    "cat.stdout.close(); cat.wait(); seconds = time.perf_counter() - start; "
    "print(seconds, out.strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)

# The command line with streaming off: the same command, every line in memory.
_CLI_IN_MEMORY = (
    "import sys; from mtscore.cli import score; score.STREAM_BYTES = 1 << 62; "
    "from mtscore.cli import main; sys.exit(main())"
)


def b_files(folder: Path, segments: int | None, copies: int, unique: bool = False) -> tuple[Path, Path, int]:
    """Workload B's hypotheses and references (first ``segments``) written ``copies`` times (cached);
    ``unique``: copy c of hypothesis and reference i both prefixed with ``s<c>_<i> `` (so copy 0 is the
    lines of workload R), so that no line repeats and none is tokenized or counted once for several."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from workloads import workload_b

    stem = folder / f"b-{segments or 'all'}-x{copies}{'-unique' if unique else ''}"
    hyp, ref = stem.with_suffix(".hyp"), stem.with_suffix(".ref")
    data = workload_b(segments)
    if not (hyp.exists() and ref.exists()):
        for path, lines in ((hyp, data.hypotheses), (ref, data.streams[0])):
            with open(path, "wb") as handle:
                for copy in range(copies):
                    prefixes = [f"s{copy}_{i} " for i in range(len(lines))] if unique else [""] * len(lines)
                    text = "".join(p + line + "\n" for p, line in zip(prefixes, lines, strict=True))
                    handle.write(text.encode("utf-8"))
    return hyp, ref, len(data.hypotheses) * copies


UNIQUE_NOTE = ", every line made unique (copy c of line i prefixed with s<c>_<i>)"


def compare_metrics(args) -> int:
    """Each metric on the command line (streamed from a pipe) and in memory; a table to stdout and results."""
    hyp, ref, segments = b_files(args.dir, args.b_segments, args.copies, args.unique)
    rows, same = [], True
    for metric in args.metrics:
        command = [sys.executable, "-m", "mtscore", str(ref), "-m", metric, "-b", "-w", "17", "--no-progress"]
        piped = subprocess.run(
            [sys.executable, "-c", _PIPE, str(hyp), *command], capture_output=True, text=True, check=False
        )
        options = ["-m", metric, "-b", "-w", "17", "--no-progress"]
        in_memory = [sys.executable, "-c", _CLI_IN_MEMORY, str(ref), "-i", str(hyp), *options]
        whole = subprocess.run([sys.executable, "-c", _TIMED, *in_memory], capture_output=True, text=True, check=False)
        start = time.perf_counter()
        api = subprocess.run(
            [sys.executable, "-c", _IN_MEMORY, metric, str(hyp), str(ref)], capture_output=True, text=True, check=False
        )
        api_process = time.perf_counter() - start
        if piped.returncode or api.returncode or whole.returncode:
            error = (piped.stderr or api.stderr or whole.stderr).strip().splitlines()[-1]
            rows.append(f"| {metric} | error: {error} | | | | | | | | | | | | |")
            same = False
            continue
        cli_seconds, cli_score, cli_rss = piped.stdout.split()
        cli = float(cli_seconds)
        api_seconds, warm_up, api_score, api_rss = api.stdout.split()
        api_whole = api_process - float(warm_up)  # the whole process as a script would run it, without the warm-up
        whole_seconds, whole_score, whole_rss = whole.stdout.split()
        equal = float(cli_score) == float(api_score) == float(whole_score)
        same &= equal
        rows.append(
            f"| {metric} | {float(cli_seconds):.2f} | {segments / float(cli_seconds):,.0f} | {int(cli_rss) // 1024} "
            f"| {float(api_seconds):.2f} | {segments / float(api_seconds):,.0f} | {int(api_rss) // 1024} "
            f"| {api_whole:.2f} | {float(whole_seconds):.2f} | {int(whole_rss) // 1024} "
            f"| {float(api_seconds) / cli:.2f}x | {api_whole / cli:.2f}x | {float(whole_seconds) / cli:.2f}x "
            f"| {'identical' if equal else f'DIFFERENT: {cli_score} vs {api_score} vs {whole_score}'} |"
        )
        print(rows[-1], flush=True)
    size = (hyp.stat().st_size + ref.stat().st_size) / 2**20
    lines = [
        f"# Streaming: every metric that streams, command line vs in-memory API ({datetime.date.today()})",
        "",
        f"Input: workload B's {'first ' + format(args.b_segments, ',') + ' ' if args.b_segments else ''}hypotheses "
        f"and references written {args.copies} time(s){UNIQUE_NOTE if args.unique else ''}: "
        f"{segments:,} segments, {size:,.0f} MiB together.",
        "",
        "| Metric | CLI s | CLI segments/s | CLI peak RSS MiB | API call s | API segments/s | API peak RSS MiB "
        "| API process s | CLI in memory s | CLI in memory peak RSS MiB | CLI / API call | CLI / API process "
        "| CLI / CLI in memory | Scores |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "CLI: `cat HYP | python -m mtscore REF -m METRIC -b -w 17 --no-progress`, one fresh process; its time is the "
        "whole pipeline (interpreter start, imports, reading and decoding the pipe block by block, scoring), its RSS "
        "the largest child's peak (`RUSAGE_CHILDREN`). API: `mtscore.corpus_METRIC(hyps, [refs])` in a fresh process "
        "on lines read untimed (`stages.read`), after a 10-segment warm-up call; its RSS (`ru_maxrss`) includes the "
        "interpreter, the imports and both files' lines in memory. API process: the same fresh process's whole wall "
        "time (interpreter start, imports, reading both files, the call) less the warm-up call: what a script using "
        "the API takes, to compare with the CLI's whole process. CLI in memory: the same command on the files "
        "(`-i HYP`) with streaming turned off, every line in memory. CLI / ...: throughput ratios (the other's "
        "seconds over the streamed CLI's; above 1, streaming is faster).",
    ]
    print("\n".join(lines))
    if args.save:
        RESULTS.mkdir(exist_ok=True)
        kind = f"-x{args.copies}{'-unique' if args.unique else ''}" if args.unique or args.copies > 1 else ""
        name = f"streaming-metrics-{datetime.date.today()}-{'-'.join(args.metrics)}{kind}.md"
        (RESULTS / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if same else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=10_000_000)
    parser.add_argument("--base", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mtscore-streaming"))
    parser.add_argument(
        "--metrics", default=None, help=f"compare the CLI and the API on B for these ({','.join(STREAMING_METRICS)})"
    )
    parser.add_argument("--b-segments", type=int, default=None, help="--metrics: B's first N segments (default: all)")
    parser.add_argument("--copies", type=int, default=1, help="--metrics: B written this many times")
    parser.add_argument(
        "--unique", action="store_true", help="--metrics: prefix copy c of line i with s<c>_<i> (no line repeats)"
    )
    parser.add_argument("--no-save", dest="save", action="store_false", help="--metrics: print only")
    args = parser.parse_args(argv)
    if args.metrics:
        args.metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
        unknown = sorted(set(args.metrics) - set(STREAMING_METRICS))
        if unknown:
            parser.error(f"unknown or non-streaming metric(s) {', '.join(unknown)}; choose from {STREAMING_METRICS}")
        args.dir.mkdir(parents=True, exist_ok=True)
        return compare_metrics(args)
    if args.segments % args.base:
        parser.error("--segments must be a multiple of --base")
    args.dir.mkdir(parents=True, exist_ok=True)
    copies = args.segments // args.base
    hyp, ref = generate_base(args.dir, args.base)
    big_hyp = repeat(hyp, copies, args.dir / f"big-{args.segments}.hyp")
    big_ref = repeat(ref, copies, args.dir / f"big-{args.segments}.ref")

    score, seconds, rss = run_cli(big_ref, big_hyp)
    import mtscore
    from mtscore.metrics.bleu import stages  # the command line's reader

    in_memory = mtscore.corpus_bleu(stages.read(hyp), [stages.read(ref)]).score
    size = (big_hyp.stat().st_size + big_ref.stat().st_size) / 2**20
    lines = [
        f"# Streaming: `mtscore` on {args.segments:,} generated segments ({datetime.date.today()})",
        "",
        f"- files: {size:,.0f} MiB together ({copies} copies of a {args.base:,}-segment base corpus)",
        f"- `mtscore REF -i HYP`: {seconds:.1f} s, {args.segments / seconds:,.0f} segments/s",
        f"- peak RSS: {rss} MiB (target: under {LIMIT_MIB} MiB): {'met' if rss < LIMIT_MIB else 'NOT met'}",
        (
            f"- score {score!r}; in-memory score of the base corpus {in_memory!r}: "
            f"{'identical' if score == in_memory else f'DIFFERENT by {abs(score - in_memory):.3g}'}"
        ),
    ]
    print("\n".join(lines))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"streaming-{datetime.date.today()}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if score == in_memory and rss < LIMIT_MIB else 1


if __name__ == "__main__":
    sys.exit(main())
