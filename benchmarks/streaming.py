"""Streaming check: the ``mtscore`` command on a generated 10M-segment corpus, with bounded memory.

    python benchmarks/streaming.py [--segments 10000000] [--base 1000000] [--dir /tmp/mtscore-streaming]

A base corpus of ``--base`` segment pairs is generated (seeded, cached in ``--dir``), and the
big corpus is that base repeated until it has ``--segments`` lines. Repeating every line k times
multiplies every statistic by k, which leaves every precision and the brevity penalty, and so the
score, unchanged to the last bit (the quotients are the same, and IEEE division is correctly
rounded): the streamed score of the big files must equal the in-memory score of the base. The run
is one fresh ``mtscore`` process, started by a small launcher process; its wall time and peak RSS
(the launcher's ``RUSAGE_CHILDREN``) are reported and written to ``benchmarks/results/streaming-DATE.md``.
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


# A small launcher process runs the command and reports its child's peak RSS: measured from this
# script, the RSS would include this process's own memory (Linux carries it over fork and exec).
_LAUNCHER = (
    "import resource, subprocess, sys; out = subprocess.run(sys.argv[1:], capture_output=True, text=True, "
    "check=True).stdout; print(out.strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def run_cli(ref: Path, hyp: Path) -> tuple[float, float, int]:
    """(score, wall seconds, peak RSS in MiB) of one ``mtscore`` process."""
    command = [sys.executable, "-m", "mtscore", str(ref), "-i", str(hyp), "-b", "-w", "17", "--no-progress"]
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", _LAUNCHER, *command], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    score, rss_kib = result.stdout.split()
    return float(score), seconds, int(rss_kib) // 1024


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=10_000_000)
    parser.add_argument("--base", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mtscore-streaming"))
    args = parser.parse_args(argv)
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
