"""Scale-out check (issue 16): one corpus scored by single-process streaming, Ray and Dask.

    python benchmarks/scaleout.py [--segments 1000000] [--workers 1,2] [--dir /tmp/mtscore-scaleout]

The corpus is made from WMT22 files: every ``*-en`` system output with each reference of its pair
(workload B's 183,120 real segment pairs), repeated until it has ``--segments`` pairs, written once
(cached in ``--dir``) as two aligned text files and as Parquet files of ``--rows-per-file`` rows
(columns ``hyp``, ``ref``). Each run is a fresh process:

- **streaming**: ``mtscore REF -i HYP`` on the text files (block by block, one process);
- **ray**: ``ray.init(num_cpus=W)``, ``mtscore.ray.corpus_score(ray.data.read_parquet(DIR))``;
- **dask**: a ``distributed.LocalCluster`` of W worker processes (1 thread each),
  ``mtscore.dask.corpus_score(dask.dataframe.read_parquet(DIR))``;

for each W of ``--workers``. Reported: wall time of the scoring call (the engine's start-up
apart), segments per second, the peak RSS of the driver (``ru_maxrss``) and of the engine's
worker processes (sampled every 0.2 s with psutil), the corpus BLEU (which must be the same to
the last bit everywhere) and the scaling efficiency from 1 to 2 workers, T1 / (2 T2). Nothing is
written to ``benchmarks/results``: paste the printed table where it is wanted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def generate(folder: Path, segments: int, rows_per_file: int) -> tuple[Path, Path, Path]:
    """The text files and the Parquet folder of a ``segments``-pair corpus (cached)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from workloads import workload_b

    hyp, ref, parquet = folder / f"{segments}.hyp", folder / f"{segments}.ref", folder / f"{segments}.parquet"
    if hyp.exists() and ref.exists() and (parquet / "_done").exists():
        return hyp, ref, parquet
    pool = workload_b()
    hypotheses, references = pool.hypotheses, pool.streams[0]
    parquet.mkdir(parents=True, exist_ok=True)
    with open(hyp, "w", encoding="utf-8") as hyp_file, open(ref, "w", encoding="utf-8") as ref_file:
        for number, start in enumerate(range(0, segments, rows_per_file)):
            rows = [i % len(hypotheses) for i in range(start, min(start + rows_per_file, segments))]
            part_hyps, part_refs = [hypotheses[i] for i in rows], [references[i] for i in rows]
            hyp_file.writelines(line + "\n" for line in part_hyps)
            ref_file.writelines(line + "\n" for line in part_refs)
            table = pa.table({"hyp": part_hyps, "ref": part_refs})
            pq.write_table(table, parquet / f"part-{number:05d}.parquet")
    (parquet / "_done").touch()
    return hyp, ref, parquet


class Sampler:
    """Peak RSS (MiB) of every descendant process, sampled every ``interval`` seconds."""

    def __init__(self, interval: float = 0.2):
        import psutil

        self.psutil, self.interval = psutil, interval
        self.peaks: dict[int, tuple[str, float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            for child in self.psutil.Process().children(recursive=True):
                try:
                    rss = child.memory_info().rss / 2**20
                    label = " ".join(child.cmdline())[:200] or child.name()
                except (self.psutil.NoSuchProcess, self.psutil.AccessDenied):
                    continue
                previous = self.peaks.get(child.pid, (label, 0.0))[1]
                self.peaks[child.pid] = (label, max(previous, rss))
            self.stop.wait(self.interval)

    def finish(self) -> dict[int, tuple[str, float]]:
        self.stop.set()
        self.thread.join()
        return self.peaks


def run_ray(parquet: Path, workers: int) -> dict:
    import ray

    from mtscore.ray import corpus_score

    sampler = Sampler()
    start = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    started = time.perf_counter()
    result = corpus_score(ray.data.read_parquet(str(parquet)), "bleu")
    seconds = time.perf_counter() - started
    peaks = sampler.finish()
    ray.shutdown()
    worker_peaks = sorted((rss for label, rss in peaks.values() if label.startswith("ray::")), reverse=True)
    system = sum(rss for label, rss in peaks.values() if not label.startswith("ray::"))
    return {
        "score": result.score,
        "seconds": seconds,
        "startup": started - start,
        "workers": worker_peaks,
        "system": system,
    }


def run_dask(parquet: Path, workers: int) -> dict:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from mtscore.dask import corpus_score

    sampler = Sampler()
    start = time.perf_counter()
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster),
    ):
        started = time.perf_counter()
        result = corpus_score(dd.read_parquet(str(parquet)), "bleu")
        seconds = time.perf_counter() - started
    peaks = sampler.finish()
    worker_peaks = sorted((rss for label, rss in peaks.values() if "resource_tracker" not in label), reverse=True)
    return {
        "score": result.score,
        "seconds": seconds,
        "startup": started - start,
        "workers": worker_peaks,
        "system": 0.0,
    }


def run_streaming(hyp: Path, ref: Path) -> dict:
    command = [sys.executable, "-m", "mtscore", str(ref), "-i", str(hyp), "-b", "-w", "17", "--no-progress"]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"score": float(result.stdout), "seconds": seconds, "startup": 0.0, "workers": [peak], "system": 0.0}
    # (its "driver" is only the process that started the command)


def child(argv: list[str]) -> int:
    """One measured run in this fresh process; prints a JSON line."""
    engine, workers, hyp, ref, parquet = argv[0], int(argv[1]), Path(argv[2]), Path(argv[3]), Path(argv[4])
    if engine == "streaming":
        out = run_streaming(hyp, ref)
    elif engine == "ray":
        out = run_ray(parquet, workers)
    else:
        out = run_dask(parquet, workers)
    out["driver"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("RESULT " + json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        return child(argv[1:])
    if argv and argv[0] == "--generate":
        print("\n".join(map(str, generate(Path(argv[1]), int(argv[2]), int(argv[3])))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--rows-per-file", type=int, default=125_000)
    parser.add_argument("--workers", default="1,2", help="worker counts for Ray and Dask (comma-separated)")
    parser.add_argument("--engines", default="streaming,ray,dask")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mtscore-scaleout"))
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    # Made in another process: a child's peak RSS starts from its parent's (Linux carries it over
    # fork and exec), so this process stays small.
    made = subprocess.run(
        [sys.executable, __file__, "--generate", str(args.dir), str(args.segments), str(args.rows_per_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    hyp, ref, parquet = map(Path, made.stdout.split())
    print(f"corpus: {args.segments:,} segments ({time.perf_counter() - began:.0f} s to make or find)")
    print(f"  {hyp} + .ref: {(hyp.stat().st_size + ref.stat().st_size) / 2**20:,.0f} MiB; {parquet}/")
    runs = []
    for engine in args.engines.split(","):
        for workers in [1] if engine == "streaming" else [int(w) for w in args.workers.split(",")]:
            command = [sys.executable, __file__, "--child", engine, str(workers), str(hyp), str(ref), str(parquet)]
            env = {**os.environ, "RAY_DEDUP_LOGS": "0"}
            done = subprocess.run(command, capture_output=True, text=True, env=env)
            lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
            if done.returncode or not lines:
                print(f"{engine} x{workers}: FAILED\n{done.stderr[-3000:]}")
                continue
            runs.append((engine, workers, json.loads(lines[-1][len("RESULT ") :])))
    header = "| engine | workers | start-up s | scoring s | segments/s | driver peak MiB | worker peaks MiB | score |"
    print("\n" + header + "\n|---|---|---|---|---|---|---|---|")
    for engine, workers, out in runs:
        peaks = ", ".join(f"{rss:,.0f}" for rss in out["workers"][:4])
        system = f" (+{out['system']:,.0f} Ray system)" if out["system"] else ""
        print(
            f"| {engine} | {workers} | {out['startup']:.1f} | {out['seconds']:.1f} | "
            f"{args.segments / out['seconds']:,.0f} | {out['driver']:,.0f} | {peaks}{system} | {out['score']!r} |"
        )
    scores = {out["score"] for _, _, out in runs}
    print(f"\nscores: {'identical' if len(scores) == 1 else 'DIFFERENT: ' + repr(sorted(scores))}")
    times = {(engine, workers): out["seconds"] for engine, workers, out in runs}
    for engine in ("ray", "dask"):
        if (engine, 1) in times and (engine, 2) in times:
            speedup = times[engine, 1] / times[engine, 2]
            print(f"{engine}: 1 -> 2 workers, speed-up {speedup:.2f}x, efficiency {speedup / 2:.0%}")
    return 0 if len(scores) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
