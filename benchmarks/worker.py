"""One measurement in a fresh process; prints exactly one JSON line (the last line of stdout).

    python benchmarks/worker.py IMPL WORKLOAD [--segments N] [--scores-out FILE.npy]
    python benchmarks/worker.py info WORKLOAD [--segments N]     # segments and hypothesis tokens
    python benchmarks/worker.py stages B [--segments N]          # mtscore's stage breakdown (B, or R: B-unique)

Inputs are built before the clock starts; only the scoring call is timed (``time.perf_counter``), and
its CPU time is recorded beside (``cpu_seconds``: ``time.process_time``, every thread of the worker; for a
call that runs a child process, the children's user + system time), which a loaded machine inflates
far less than the wall time.
Peak RSS is ``getrusage(RUSAGE_SELF).ru_maxrss`` (KiB on Linux) and so includes the interpreter,
the imports and the data loading, not just the scoring call. For the command-line workloads (F, G, V, W)
and mteval-v13a.pl (P, Q), whose timed call is a child process, it is
``getrusage(RUSAGE_CHILDREN).ru_maxrss``: that child's peak (the worker starts no other, but for the
small ``git show`` and ``perl -e 1`` of mteval's untimed setup).

The JSON line has ``status``: ``ok``, ``unavailable`` (the package cannot be imported),
``not-comparable`` or ``error`` (with ``error``: the exception).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import workloads
from implementations import IMPLEMENTATIONS, NotComparable, not_comparable_reason


def peak_rss_kib(children: bool = False) -> int:
    """Peak resident set size of this process so far, or of its largest finished child (KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF).ru_maxrss


def _children_cpu() -> float:
    """User + system CPU seconds of the finished children of this process."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def prepare(implementation: str, workload: str, segments: int | None):
    """Build the workload's inputs and the implementation's ``Timed`` call (all untimed)."""
    kind = workloads.KINDS[workload]
    reason = not_comparable_reason(implementation, kind)
    if reason:
        raise NotComparable(reason)
    impl = IMPLEMENTATIONS[implementation]()
    if kind in ("corpus", "chrf", "ter"):
        data = workloads.text_workload(workload, segments)
        return getattr(impl, f"prepare_{kind}")(data.hypotheses, data.streams)
    if kind == "cli":
        return impl.prepare_cli(*workloads.significance_files(workload), workloads.CLI_TESTS[workload])
    if kind == "startup":
        return impl.prepare_startup()
    if kind == "sentence":
        data = workloads.workload_b(segments)
        return impl.prepare_sentence(data.hypotheses, data.streams)
    if kind == "ids":
        return impl.prepare_ids(*workloads.workload_d())
    if workload in workloads.METRIC_WORKLOADS:  # J-Q: one system or every system of a pair
        metric = workloads.METRIC_WORKLOADS[workload][0]
        return getattr(impl, f"prepare_{metric}")(workloads.systems_workload(workload))
    return impl.prepare_files(workloads.b_file_pairs(), segments)


def measure(implementation: str, workload: str, segments: int | None, scores_out: str | None) -> dict:
    """Prepare, time the one call, extract the score(s); save a vector of scores to ``scores_out``."""
    timed = prepare(implementation, workload, segments)
    start, cpu_start, children_start = time.perf_counter(), time.process_time(), _children_cpu()
    result = timed.call()
    seconds = time.perf_counter() - start
    cpu = _children_cpu() - children_start if timed.in_child else time.process_time() - cpu_start
    if timed.seconds_of is not None:  # W: the median of the call's own repeated measurements
        seconds, cpu = timed.seconds_of(result), None
    scores = timed.extract(result)
    record = {"status": "ok", "seconds": seconds, "cpu_seconds": cpu, "note": timed.note}
    if timed.in_child:
        record.update(peak_rss_kib=peak_rss_kib(children=True), rss_of="child")
    if scores is None:
        record["score"] = None
    elif isinstance(scores, float) or getattr(scores, "ndim", 1) == 0:
        record["score"] = float(scores)
    else:
        import numpy as np

        scores = np.asarray(scores, dtype=np.float64)
        headline = timed.headline(scores) if timed.headline else scores.mean()
        record.update(score=float(headline), n_scores=int(scores.size))
        if scores_out:
            np.save(scores_out, scores)
            record["scores_file"] = scores_out
    return record


def run(args) -> dict:
    """Dispatch on the first argument; failures become a status, never a traceback on stdout."""
    try:
        if args.implementation == "info":
            n_segments, tokens = workloads.hypothesis_tokens(args.workload, args.segments)
            return {"status": "ok", "n_segments": n_segments, "hyp_tokens": tokens}
        if args.implementation == "stages":
            from stages import stage_breakdown

            return {"status": "ok", **stage_breakdown(args.segments, unique=args.workload == "R")}
        return measure(args.implementation, args.workload, args.segments, args.scores_out)
    except NotComparable as reason:
        return {"status": "not-comparable", "error": str(reason)}
    except ImportError as error:
        return {"status": "unavailable", "error": f"{type(error).__name__}: {error}"}
    except Exception as error:  # a peer failing on a workload is a result, not a crash
        traceback.print_exc(file=sys.stderr)
        return {"status": "error", "error": f"{type(error).__name__}: {error}"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("implementation", choices=[*IMPLEMENTATIONS, "info", "stages"])
    parser.add_argument("workload", choices=workloads.WORKLOADS)
    parser.add_argument("--segments", type=int, default=None, help="first N segments of B (workloads B, C, E)")
    parser.add_argument("--scores-out", default=None, help="where to save per-segment scores (.npy)")
    args = parser.parse_args(argv)
    record = run(args)
    record.update(implementation=args.implementation, workload=args.workload)
    record.setdefault("peak_rss_kib", peak_rss_kib())
    sys.stdout.flush()
    print(json.dumps(record), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
