"""Issue 15's measurement: how long ``mtscore report`` takes on WMT22 en-de, next to compare-mt
(the peer MT researchers use for the same analyses), each in fresh processes, with the page size.

    python benchmarks/report_speed.py                  # 3 runs each; compare-mt from PyPI if installed
    python benchmarks/report_speed.py --runs 1 --systems 3

Two measurements:
- ``target``: the issue's case: all 9 en-de systems, ref.A and ref.B, BLEU, chrF and TER, 1,000
  bootstrap resamples (target: under 5 s, page under 5 MB).
- ``peer``: like for like with compare-mt, which takes one reference and has no TER: ``--systems``
  systems, ref.A, BLEU and chrF with 1,000 bootstrap resamples, and the analyses both make (scores
  with bootstrap, word F-measure by frequency, sentence buckets by length, length difference and
  sentence BLEU, characteristic n-grams, sentence examples). compare-mt re-scores text for each
  resample; we resample per-segment statistics.
Wall time and CPU time (user + system of the child) are both printed: on a busy machine the CPU
time is the steadier number. Results go to ``benchmarks/results/report-<date>.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_info, summary

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "wmt22" / "txt"


def timed(command: list[str], timeout: float) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (which must succeed); a run stopped at
    ``timeout`` gives its times so far (the table then says "at least")."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(command, check=True, capture_output=True, timeout=timeout)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_of(command: list[str], runs: int, timeout: float) -> tuple[float, float]:
    times = [timed(command, timeout) for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--systems", type=int, default=9, help="systems in the comparison with compare-mt")
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    refs = [DATA / "references" / f"generaltest2022.en-de.ref.{name}.de" for name in "AB"]
    systems = sorted((DATA / "system-outputs").glob("generaltest2022.en-de.hyp.*.de"))
    ours = [sys.executable, "-m", "mtscore", "report"]
    lines = [f"# mtscore report: speed (issue 15), {datetime.date.today()}", "", summary(machine_info(ROOT)), ""]
    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "report.html"
        command = [*ours, *map(str, refs), "-i", *map(str, systems), "-m", "bleu", "chrf", "ter", "-o", str(page)]
        wall, cpu = median_of(command, args.runs, args.timeout)
        size = page.stat().st_size
        lines += [
            "## Target: 9 systems, 2 references, BLEU + chrF + TER, 1,000 resamples",
            "",
            "| | wall s | CPU s | page MB | target |",
            "|---|---:|---:|---:|---|",
            f"| mtscore report | {wall:.2f} | {cpu:.2f} | {size / 1e6:.2f} | < 5 s, < 5 MB: "
            f"{'met' if wall < 5 and size < 5e6 else 'not met'} |",
            "",
        ]
        chosen = systems[: args.systems]
        source = DATA / "sources" / "generaltest2022.en-de.src.en"
        ours_peer = [*ours, str(refs[0]), "-i", *map(str, chosen), "--src", str(source), "-m", "bleu", "chrf"]
        ours_peer += ["-o", str(page)]
        row = [
            f"## Like for like with compare-mt: {len(chosen)} systems, ref.A, the source, BLEU + chrF, 1,000 resamples",
            "",
        ]
        wall_ours, cpu_ours = median_of(ours_peer, args.runs, args.timeout)
        peer = shutil.which("compare-mt")
        if peer is None:
            row.append(f"mtscore report: {wall_ours:.2f} s wall, {cpu_ours:.2f} s CPU; compare-mt: unavailable")
        else:
            out = Path(scratch) / "cmt"
            peer_command = [
                peer, str(refs[0]), *map(str, chosen), "--src_file", str(source),
                "--compare_scores", "score_type=bleu,bootstrap=1000", "score_type=chrf,bootstrap=1000",
                "--compare_word_accuracies", "bucket_type=freq",
                "--compare_sentence_buckets", "bucket_type=length,statistic_type=score,score_measure=bleu",
                "bucket_type=lengthdiff", "bucket_type=score,score_measure=sentbleu",
                "--compare_ngrams", "compare_type=match",
                "--compare_sentence_examples", "score_type=sentbleu",
                "--output_directory", str(out),
            ]  # fmt: skip
            wall_peer, cpu_peer = median_of(peer_command, args.runs, args.timeout)
            bound = ">= " if wall_peer >= args.timeout else ""  # stopped at the time limit
            row += [
                "| | wall s | CPU s | ratio (wall) | ratio (CPU) |",
                "|---|---:|---:|---:|---:|",
                f"| mtscore report | {wall_ours:.2f} | {cpu_ours:.2f} | | |",
                f"| compare-mt 0.2.10 | {bound}{wall_peer:.2f} | {bound}{cpu_peer:.2f} | "
                f"{bound}{wall_peer / wall_ours:.1f}x | {bound}{cpu_peer / cpu_ours:.1f}x |",
                "",
                f"Target: >= 10x compare-mt: {'met' if wall_peer / wall_ours >= 10 else 'not met'}.",
            ]
        lines += row
    text = "\n".join(lines) + "\n"
    print(text)
    results = ROOT / "benchmarks" / "results" / f"report-{datetime.date.today()}.md"
    results.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
