"""Meta-evaluation against Google's mt-metrics-eval, scoring included: WMT23's task set for seven metrics.

Both sides do the same work on the same data (WMT23 en-de and zh-en of ``../shared/data/metaeval``, MQM gold,
``tasks.WMT23`` restricted to those two pairs: pairwise accuracy pooled over the pairs, then for each pair
system-level Pearson, segment-level Pearson and acc-t, with PERM-BOTH significance):

- **mtscore**: one command, ``python -m mtscore meta-eval ROOT -t wmt23 -l en-de,zh-en -m METRICS -k K -f json``,
  timed whole in a fresh process (start-up, reading, scoring every selected system, statistics, JSON).
- **mt-metrics-eval**: the metrics' scores are first computed by the tools mtscore reproduces (sacrebleu 2.6.0
  for BLEU, chrF, chrF++ and TER, NLTK 3.10.4 for Google-BLEU, jiwer 4.0.0 for WER and CER) and written in
  mt-metrics-eval's score-file layout in a temporary copy of the data; then its own code (``data.EvalSet``,
  ``tasks.WMT23(...).Run``, ``AverageCorrs``) computes the task set. This side runs as
  ``MME_PYTHON benchmarks/metaeval.py reference-side ...`` with mt-metrics-eval's sources on ``PYTHONPATH``
  (nothing of mt-metrics-eval is in this repository).

The reference scoring is given every advantage its tools allow: sacrebleu's segment statistics are extracted once
per system (``_extract_corpus_statistics``) and both the corpus score and every segment's score (the
``sentence_*`` functions' settings: BLEU with effective order) are computed from them with sacrebleu's own
``_aggregate_and_compute``, exactly as ``corpus_score`` and ``sentence_score`` do, instead of tokenizing and
aligning every segment twice. NLTK's ``corpus_gleu`` and ``sentence_gleu`` are called as they are (13a tokens
made inside the timed scoring); jiwer's ``process_words``/``process_characters`` once per segment, the corpus
rate from the summed counts (what ``jiwer.wer`` of the lists computes). Only the systems the tasks use are
scored on either side (mt-metrics-eval's ``EvalSet`` is loaded with ``strict=False``, which fills the unused
outlier's scores with zeros).

Run (the mt-metrics-eval side may take many minutes: sacrebleu's TER on WMT23's paragraph-long en-de segments):

    PYTHONPATH=$PWD/src python benchmarks/metaeval.py --mme-python /tmp/mmeenv/bin/python \\
        --mme-src /tmp/mme3-src [--runs 1] [--mtscore-runs 3] [--part NAME]

Every timed call is a fresh process; CPU time is the child's user + system time (``RUSAGE_CHILDREN``), beside
the wall time, and the load average is recorded with each call (the machine may be shared). The deterministic
figures (every task's correlation of every metric, and the weighted average) of both sides are compared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "metaeval"
RESULTS = Path(__file__).resolve().parent / "results"
LPS = ("en-de", "zh-en")
# mtscore's metric name -> the name of its score files on the mt-metrics-eval side.
METRICS = {
    "bleu": "BLEU",
    "chrf": "chrF",
    "chrf++": "chrF++",
    "ter": "TER",
    "google_bleu": "GoogleBLEU",
    "wer": "WER",
    "cer": "CER",
}
# The data folders a working copy of the test set links to; metric-scores/ is written fresh.
LINKED = ("sources", "references", "system-outputs", "human-scores", "documents")


# ---------------------------------------------------------------- mt-metrics-eval side (its interpreter)


def reference_scores(name: str, hypotheses: list[str], references: list[str]) -> tuple[float, list[float]]:
    """The corpus score and every segment's score of one system by the reference tool, higher is better."""
    if name in ("BLEU", "chrF", "chrF++", "TER"):
        from sacrebleu.metrics import BLEU, CHRF, TER

        corpus_metric, segment_metric, sign = {
            "BLEU": (BLEU(), BLEU(effective_order=True), 1.0),
            "chrF": (CHRF(), CHRF(), 1.0),
            "chrF++": (CHRF(word_order=2), CHRF(word_order=2), 1.0),
            "TER": (TER(), TER(), -1.0),
        }[name]
        statistics = corpus_metric._extract_corpus_statistics(hypotheses, [references])
        corpus = corpus_metric._aggregate_and_compute(statistics).score
        segments = [segment_metric._aggregate_and_compute([row]).score for row in statistics]
        return sign * corpus, [sign * s for s in segments]
    if name == "GoogleBLEU":
        from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tokenize = Tokenizer13a()
        hyp_tokens = [tokenize(line).split() for line in hypotheses]
        ref_tokens = [[tokenize(line).split()] for line in references]
        corpus = 100 * corpus_gleu(ref_tokens, hyp_tokens)
        return corpus, [100 * sentence_gleu(r, h) for r, h in zip(ref_tokens, hyp_tokens, strict=True)]
    import jiwer

    process = jiwer.process_words if name == "WER" else jiwer.process_characters
    totals = [0, 0, 0, 0]
    segments = []
    for reference, hypothesis in zip(references, hypotheses, strict=True):
        out = process(reference, hypothesis)
        counts = (out.hits, out.substitutions, out.deletions, out.insertions)
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        segments.append(-100 * (out.wer if name == "WER" else out.cer))
    hits, substitutions, deletions, insertions = totals
    corpus = -100 * (substitutions + deletions + insertions) / (hits + substitutions + deletions)
    return corpus, segments


def reference_side(args: argparse.Namespace) -> None:
    """Score the metrics into ``args.work`` (if any) and run mt-metrics-eval's WMT23 task set there."""
    import types

    for unused in ("apache_beam", "dacite"):  # imported by mt-metrics-eval for parallel runs and ratings only
        sys.modules.setdefault(unused, types.ModuleType(unused))
    from mt_metrics_eval import data, tasks

    record: dict = {"scoring_s": {}, "load_average_start": os.getloadavg()}
    work = Path(args.work)
    start = time.perf_counter()
    if args.metrics:
        for lp in LPS:
            evs = data.EvalSet("wmt23", lp, False, path=str(work), strict=False)
            systems = sorted(evs.sys_names - {evs.std_ref} - evs.human_sys_names - evs.outlier_sys_names)
            references = evs.all_refs[evs.std_ref]
            folder = work / "wmt23" / "metric-scores" / lp
            folder.mkdir(parents=True, exist_ok=True)
            for name in args.metrics:
                began = time.perf_counter()
                sys_lines, seg_lines = [], []
                for system in systems:
                    corpus, segments = reference_scores(name, evs.sys_outputs[system], references)
                    sys_lines.append(f"{system}\t{corpus!r}\n")
                    seg_lines += [f"{system}\t{value!r}\n" for value in segments]
                (folder / f"{name}-{evs.std_ref}.sys.score").write_text("".join(sys_lines), encoding="utf-8")
                (folder / f"{name}-{evs.std_ref}.seg.score").write_text("".join(seg_lines), encoding="utf-8")
                record["scoring_s"][f"{lp}/{name}"] = time.perf_counter() - began
    scored = time.perf_counter()
    eval_sets = {("wmt23", lp): data.EvalSet("wmt23", lp, True, path=str(work), strict=False) for lp in LPS}
    task_set, weights = tasks.WMT23(list(LPS), primary=False, k=args.k)
    for task in task_set.tasks:
        if task.corr_fcn == "KendallWithTiesOpt":
            task.k = args.acc_t_k
    results = task_set.Run(eval_set_dict=eval_sets)
    done = time.perf_counter()
    record.update(
        scoring_total_s=scored - start,
        statistics_s=done - scored,
        total_s=done - start,
        tasks=[
            {"name": r.name, "corr_ranks": {m: [float(v), int(rank)] for m, (v, rank) in r.corr_ranks.items()}}
            for r in results
        ],
        weights=weights,
        average_corrs={m: float(v) for m, v in results.AverageCorrs(weights).items()},
        load_average_end=os.getloadavg(),
    )
    Path(args.out).write_text(json.dumps(record, indent=1), encoding="utf-8")


# ---------------------------------------------------------------- mtscore's scoring alone (the API)


def mtscore_scoring(args: argparse.Namespace) -> None:
    """Score the metrics with mtscore's API as ``meta-eval`` does (the systems its tasks select), timing each
    metric and pair, and write the scores in mt-metrics-eval's layout under ``args.work``."""
    from mtscore.metaeval import read_eval_set
    from mtscore.metaeval.scoring import score_metric
    from mtscore.metaeval.selection import select

    record: dict = {"scoring_s": {}, "load_average_start": os.getloadavg()}
    start = time.perf_counter()
    for lp in LPS:
        evs = read_eval_set(args.data, "wmt23", lp)
        selection = select(evs, "sys")
        systems = sorted(set(selection.systems) | set(select(evs, "seg").systems))
        folder = Path(args.work) / "wmt23" / "metric-scores" / lp
        folder.mkdir(parents=True, exist_ok=True)
        for name in args.metrics:
            began = time.perf_counter()
            scores = score_metric(name, None, evs, selection.reference, systems)
            record["scoring_s"][f"{lp}/{METRICS[name]}"] = time.perf_counter() - began
            stem = folder / f"{METRICS[name]}-{selection.reference}"
            sys_lines = [f"{system}\t{value!r}\n" for system, value in scores.sys.items()]
            seg_lines = [f"{system}\t{float(v)!r}\n" for system, values in scores.seg.items() for v in values]
            Path(f"{stem}.sys.score").write_text("".join(sys_lines), encoding="utf-8")
            Path(f"{stem}.seg.score").write_text("".join(seg_lines), encoding="utf-8")
    record["scoring_total_s"] = time.perf_counter() - start
    Path(args.out).write_text(json.dumps(record, indent=1), encoding="utf-8")


# ---------------------------------------------------------------- the driver (this project's interpreter)


def working_copy(root: Path, scores_from: Path | None = None, names: tuple[str, ...] = ()) -> Path:
    """A temporary test-set root that links to the data and has its own ``metric-scores/`` (a copy of the
    score files of ``names`` in ``scores_from``, if given)."""
    work = Path(tempfile.mkdtemp(prefix="mtscore-metaeval-bench-"))
    for name in LINKED:
        (work / "wmt23").mkdir(exist_ok=True)
        (work / "wmt23" / name).symlink_to(root / "wmt23" / name)
    for lp in LPS:
        (work / "wmt23" / "metric-scores" / lp).mkdir(parents=True)
        if scores_from is not None:
            for name in names:
                for path in sorted((scores_from / "wmt23" / "metric-scores" / lp).glob(f"{name}-refA.*.score")):
                    shutil.copy(path, work / "wmt23" / "metric-scores" / lp / path.name)
    return work


def timed(command: list[str], env: dict[str, str] | None = None) -> dict:
    """Run ``command`` in a fresh process: wall and CPU time (user + system of the child), peak RSS, load."""
    load = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mib": after.ru_maxrss / 1024,
        "load_average": load,
        "stdout": done.stdout,
    }


def mtscore_command(root: Path, metrics: list[str], k: int, score_files: list[str] = ()) -> list[str]:
    """The one mtscore command of the task set."""
    command = [sys.executable, "-m", "mtscore", "meta-eval", str(root), "-t", "wmt23", "-l", ",".join(LPS)]
    if metrics:
        command += ["-m", *metrics]
    if score_files:
        command += ["--scores", *score_files]
    return [*command, "-k", str(k), "-f", "json"]


def mtscore_figures(report: dict) -> dict[str, float]:
    """``task name/metric -> value`` of mtscore's task-set JSON, named as mt-metrics-eval names its tasks."""
    figures = {}
    for task in report["tasks"]:
        key = f"{task['lang']}/{task['level']}/{task['corr_fcn']}"
        for metric, (value, _rank) in task["corr_ranks"].items():
            figures[f"{key}/{metric}"] = value
    for metric, value in report["average_corrs"].items():
        figures[f"average/{metric}"] = value
    return figures


def reference_figures(record: dict) -> dict[str, float]:
    """The same keys from the mt-metrics-eval side's record (its task names are ``k=v`` strings; it marks a
    metric that is not primary with a leading ``*``)."""
    figures = {}
    for task in record["tasks"]:
        fields = dict(part.split("=", 1) for part in task["name"].split() if "=" in part)
        key = f"{fields['lang']}/{fields['level']}/{fields['corr_fcn']}"
        for metric, (value, _rank) in task["corr_ranks"].items():
            figures[f"{key}/{metric.lstrip('*')}"] = value
    for metric, value in record["average_corrs"].items():
        figures[f"average/{metric.lstrip('*')}"] = value
    return figures


def compare(ours: dict[str, float], theirs: dict[str, float], names: dict[str, str]) -> dict:
    """Every figure of both sides, mtscore's metric names mapped to the score files' names."""
    mapped = {}
    for key, value in ours.items():
        head, metric = key.rsplit("/", 1)
        mapped[f"{head}/{names.get(metric, metric)}"] = value
    common = sorted(set(mapped) & set(theirs))
    differences = {key: abs(mapped[key] - theirs[key]) for key in common}
    return {
        "compared": len(common),
        "only_mtscore": sorted(set(mapped) - set(theirs)),
        "only_mt_metrics_eval": sorted(set(theirs) - set(mapped)),
        "max_abs_difference": max(differences.values(), default=None),
        "over_1e-9": {key: d for key, d in differences.items() if d > 1e-9},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode")
    ref = sub.add_parser("reference-side", help="(internal) the mt-metrics-eval side, in its interpreter")
    ref.add_argument("--work", required=True)
    ref.add_argument("--metrics", nargs="*", default=[])
    ref.add_argument("-k", type=int, default=1000)
    ref.add_argument("--acc-t-k", type=int, default=0)
    ref.add_argument("--out", required=True)
    own = sub.add_parser("mtscore-scoring", help="(internal) mtscore's scoring alone, through the API")
    own.add_argument("--work", required=True)
    own.add_argument("--metrics", nargs="+", default=list(METRICS))
    own.add_argument("--data", type=Path, default=DATA)
    own.add_argument("--out", required=True)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--mme-python", default="/tmp/mmeenv/bin/python")
    parser.add_argument("--mme-src", default="/tmp/mme3-src")
    parser.add_argument("--metrics", nargs="+", default=list(METRICS))
    parser.add_argument("-k", type=int, default=1000, help="PERM-BOTH draws (default: 1000)")
    parser.add_argument("--runs", type=int, default=1, help="runs of the mt-metrics-eval side")
    parser.add_argument("--mtscore-runs", type=int, default=3, help="runs of each mtscore command")
    parser.add_argument(
        "--scores-dir",
        type=Path,
        help="statistics only: both sides read the metrics' scores from DIR/wmt23/metric-scores/<lp>/ instead of "
        "scoring (with 'official': the shared data's official BLEU-refA and chrF-refA files)",
    )
    parser.add_argument(
        "--mme-acc-t-k",
        type=int,
        default=None,
        help="PERM-BOTH draws of mt-metrics-eval's acc-t tasks (default: -k, as mtscore's pairs test of acc-t)",
    )
    parser.add_argument("--scoring-runs", type=int, default=0, help="runs of mtscore's scoring alone (the API)")
    parser.add_argument("--part", default="end-to-end", help="the part of the results file this run fills")
    parser.add_argument("--results", type=Path, help="the results file (default: results/DATE-metaeval.json)")
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--render", type=Path, metavar="JSON", help="measure nothing: redraw JSON's .md from it")
    args = parser.parse_args()
    if args.mode == "reference-side":
        reference_side(args)
        return
    if args.mode == "mtscore-scoring":
        mtscore_scoring(args)
        return
    if args.render is not None:
        saved = json.loads(args.render.read_text(encoding="utf-8"))
        args.render.with_suffix(".md").write_text(render(saved), encoding="utf-8")
        return
    run_benchmark(args)


def reference_run(args: argparse.Namespace, work: Path, metrics: list[str], k: int) -> dict:
    """One run of the mt-metrics-eval side (scoring ``metrics`` into ``work``, then its task set)."""
    out = work / "record.json"
    env = {**os.environ, "PYTHONPATH": args.mme_src}
    command = [args.mme_python, __file__, "reference-side", "--work", str(work), "-k", str(k), "--out", str(out)]
    command += ["--acc-t-k", str(k if args.mme_acc_t_k is None else args.mme_acc_t_k)]
    if metrics:
        command += ["--metrics", *metrics]
    run = timed(command, env)
    run.pop("stdout")
    run["record"] = json.loads(out.read_text(encoding="utf-8"))
    return run


def run_benchmark(args: argparse.Namespace) -> None:
    """Both sides, alternating, and the results."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from machine import machine_info

    if str(args.scores_dir) == "official":
        args.scores_dir, args.metrics = args.data, ["bleu", "chrf"]
    names = {m: METRICS[m] for m in args.metrics}
    # mtscore's column names of its metrics -> the score files' names
    mtscore_names = {"chrF2": "chrF", "chrF2++": "chrF++", "Google-BLEU": "GoogleBLEU"}
    score_files = []
    if args.scores_dir is not None:
        folder = args.scores_dir / "wmt23" / "metric-scores" / "{lp}"
        score_files = [str(folder / f"{n}-refA.{level}.score") for n in names.values() for level in ("sys", "seg")]
    runs: dict[str, list] = {"mtscore": [], "mt-metrics-eval": [], "mtscore-scoring": []}
    agreement = None
    for index in range(max(args.runs, args.mtscore_runs, args.scoring_runs)):
        if index < args.scoring_runs:
            with tempfile.TemporaryDirectory() as work:
                out = Path(work) / "record.json"
                command = [sys.executable, __file__, "mtscore-scoring", "--work", work, "--out", str(out)]
                run = timed([*command, "--data", str(args.data), "--metrics", *args.metrics])
                run.pop("stdout")
                run["record"] = json.loads(out.read_text(encoding="utf-8"))
            runs["mtscore-scoring"].append(run)
            print(f"mtscore scoring run {index + 1}: {run['wall_s']:.2f} s wall, {run['cpu_s']:.2f} s CPU", flush=True)
        if index < args.mtscore_runs:
            metrics = [] if score_files else args.metrics
            run = timed(mtscore_command(args.data, metrics, args.k, score_files))
            report = json.loads(run.pop("stdout"))
            run["figures"] = mtscore_figures(report)
            runs["mtscore"].append(run)
            print(f"mtscore run {index + 1}: {run['wall_s']:.2f} s wall, {run['cpu_s']:.2f} s CPU", flush=True)
        if index < args.runs:
            work = working_copy(args.data, args.scores_dir, tuple(names.values()))
            run = reference_run(args, work, [] if score_files else list(names.values()), args.k)
            runs["mt-metrics-eval"].append(run)
            record = run["record"]
            print(
                f"mt-metrics-eval run {index + 1}: {run['wall_s']:.1f} s wall ({record['scoring_total_s']:.1f} s "
                f"scoring, {record['statistics_s']:.1f} s statistics), {run['cpu_s']:.1f} s CPU",
                flush=True,
            )
            agreement = compare(mtscore_figures(report), reference_figures(record), mtscore_names)
            shutil.rmtree(work)
    result = {"machine": machine_info(REPO), "options": vars(args) | {"data": str(args.data)}, "runs": runs}
    result["options"]["mme_acc_t_k"] = args.k if args.mme_acc_t_k is None else args.mme_acc_t_k
    result["options"]["mtscore_tests_acc_t"] = True
    result["options"]["scores_dir"] = None if args.scores_dir is None else str(args.scores_dir)
    result["options"]["results"] = None if args.results is None else str(args.results)
    result["agreement"] = agreement
    print(json.dumps({"agreement": agreement}, indent=1))
    if not args.no_save:
        path = args.results or RESULTS / f"{time.strftime('%Y-%m-%d')}-metaeval.json"
        saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"parts": {}}
        saved["parts"][args.part] = result
        path.write_text(json.dumps(saved, indent=1, default=str) + "\n", encoding="utf-8")
        path.with_suffix(".md").write_text(render(saved), encoding="utf-8")
        print(f"wrote {path} and {path.with_suffix('.md').name}")


def median(values: list[float]) -> float:
    """The median (the mean of the middle two for an even count)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def summary_row(part: str, side: str, runs: list[dict]) -> str:
    """One table row: the median and range of wall and CPU time over ``runs``, and the load averages."""
    walls, cpus = [r["wall_s"] for r in runs], [r["cpu_s"] for r in runs]
    loads = ", ".join(f"{r['load_average'][0]:.1f}" for r in runs)
    return (
        f"| {part} | {side} | {len(runs)} | {median(walls):.2f} | {min(walls):.2f}-{max(walls):.2f} "
        f"| {median(cpus):.2f} | {min(cpus):.2f}-{max(cpus):.2f} | {loads} |"
    )


def part_ratios(part: str, runs: dict) -> list[str]:
    """The ratio of medians, wall and CPU, of a part run on both sides (a lower bound if the reference stopped)."""
    ours = runs.get("mtscore")
    for side, bound in (("mt-metrics-eval", ""), ("mt-metrics-eval-interrupted", "at least ")):
        theirs = runs.get(side)
        if ours and theirs:
            wall = median([r["wall_s"] for r in theirs]) / median([r["wall_s"] for r in ours])
            cpu = median([r["cpu_s"] for r in theirs]) / median([r["cpu_s"] for r in ours])
            return [f"- **{part}**: mt-metrics-eval / mtscore = **{bound}{wall:.1f}x** wall, **{bound}{cpu:.1f}x** CPU"]
    return []


def render(saved: dict) -> str:
    """The results file's parts as Markdown: times, ratios (wall and CPU), agreement, scoring per metric."""
    lines = [
        "# Meta-evaluation against mt-metrics-eval (`benchmarks/metaeval.py`)",
        "",
        "| Part | Side | Runs | Median wall s | Range wall s | Median CPU s | Range CPU s | Load (1 min) at start |",
        "|---|---|---|---|---|---|---|---|",
    ]
    ratios, notes = [], []
    for part, result in saved["parts"].items():
        runs = result["runs"]
        for side in ("mtscore", "mtscore-scoring", "mt-metrics-eval", "mt-metrics-eval-interrupted"):
            if runs.get(side):
                lines.append(summary_row(part, side, runs[side]))
        ratios += part_ratios(part, runs)
        options = result["options"]
        what = "scores from files" if options.get("scores_dir") else "scoring included"
        acc_t = options.get("mme_acc_t_k", 0)
        ours = options["k"] if options.get("mtscore_tests_acc_t") else 0  # earlier mtscore tested no acc-t
        notes.append(
            f"- {part}: metrics {', '.join(options['metrics'])}; k = {options['k']}; {what}; acc-t tasks with "
            f"k = {acc_t} (mt-metrics-eval) and k = {ours} (mtscore)"
        )
        for note in [options.get("note")] + [run.get("note") for side in runs.values() for run in side]:
            if note:
                notes.append(f"  - {note}")
        for side in ("mt-metrics-eval", "mtscore-scoring"):
            if runs.get(side) and runs[side][0]["record"].get("scoring_s"):
                record = runs[side][0]["record"]
                parts = ", ".join(f"{key} {value:.1f}" for key, value in record["scoring_s"].items())
                extra = f"; statistics {record['statistics_s']:.1f} s" if "statistics_s" in record else ""
                notes.append(f"  - {side} (first run, in-process wall s), scoring: {parts}{extra}")
        agreement = result.get("agreement")
        if agreement:
            notes.append(
                f"  - agreement: {agreement['compared']} figures compared, largest difference "
                f"{agreement['max_abs_difference']}, over 1e-9: {len(agreement['over_1e-9'])}"
            )
    machine = next(iter(saved["parts"].values()))["machine"]
    lines += ["", "Ratios (medians):", "", *ratios, *saved.get("summary", []), "", "Parts:", "", *notes, ""]
    lines.append(f"Machine: {machine.get('cpu')}, {machine.get('cores')} cores, load average recorded per run.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
