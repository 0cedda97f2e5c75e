"""``mtscore meta-eval``: how well metrics agree with human scores, as mt-metrics-eval computes it,
from an mt-metrics-eval data folder or from plain files (a TSV of human scores, a reference and the
system files): mtscore's metrics (``-m``) and scores computed elsewhere
(``--scores``), ranked by every statistic with their significance clusters."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..metaeval.titles import LEVEL_TITLES, statistic_title
from ..metrics import METRICS
from .common import EXIT_OK, Parser, UsageError, add_metric_options, metric_keywords, write_file

if TYPE_CHECKING:
    from ..metaeval import EvalSet, MetaEvaluation, Ranking, TaskSetResult


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mtscore meta-eval",
        description="Meta-evaluate metrics against human scores (MQM, DA ...) exactly as Google's mt-metrics-eval "
        "does: system-level Pearson, Spearman, Kendall and pairwise accuracy; segment-level Pearson, Kendall and "
        "acc-t; PERM-BOTH significance clusters. For the test sets mt-metrics-eval knows (WMT22, WMT23) the "
        "standard reference, gold, outliers and human translations default to its settings.",
        epilog="examples:\n  mtscore meta-eval mt-metrics-eval-v2 -t wmt23 -l en-de -m bleu chrf ter\n"
        "  mtscore meta-eval ROOT -t wmt23 -l zh-en -m bleu --scores COMET-refA.seg.score COMET-refA.sys.score\n"
        "  mtscore meta-eval ROOT -t wmt23 -l en-de -m bleu chrf --domain news\n"
        "  mtscore meta-eval --human-scores mqm.tsv -r ref.txt -i sysA.txt sysB.txt sysC.txt -m bleu\n\n"
        "Plain files: the human scores are system<TAB>segment<TAB>score lines (segments from 1; None or empty:\n"
        "not rated), systems named by their file names less the extension (or --names); a system's\n"
        "system-level human score is the mean of its rated segments. --scores TSV files hold\n"
        "system<TAB>segment<TAB>score or system<TAB>score lines, the metric named by the file.\n\n"
        "Metric names: the registry's, and chrf++ (chrF with word order 2). Lower-is-better metrics (TER)\n"
        "are negated. exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "root", metavar="ROOT", nargs="?", help="the folder holding the test sets (mt-metrics-eval's layout)"
    )
    parser.add_argument("-t", "--test-set", help="the test set (a folder under ROOT), e.g. wmt23")
    parser.add_argument(
        "-l",
        "--language-pair",
        action="append",
        metavar="LP",
        help="the language pair, e.g. en-de; several (-l en-de -l zh-en, or -l en-de,zh-en as mt-metrics-eval "
        "writes them): WMT23's task set over them (pairwise accuracy pooled over the pairs; each pair's "
        "system- and segment-level Pearson and acc-t) and its weighted average",
    )
    plain = parser.add_argument_group("plain files (instead of ROOT)")
    plain.add_argument(
        "--human-scores",
        metavar="TSV",
        help="human scores: system<TAB>segment<TAB>score per line (segments from 1; None or empty: not rated)",
    )
    plain.add_argument("-r", "--ref-file", metavar="REF", help="the reference, one segment per line")
    plain.add_argument("-i", "--input", nargs="+", metavar="SYS", help="the system outputs, one file per system")
    plain.add_argument(
        "--names", nargs="+", metavar="NAME", help="the systems' names (default: file names less extension)"
    )
    plain.add_argument(
        "--documents",
        metavar="DOCS",
        help="mt-metrics-eval's .docs file ('<domain> <document>' per segment), for --domain",
    )
    parser.add_argument("--domain", help="count only the segments of this domain (documents/<lp>.docs)")
    parser.add_argument("-m", "--metrics", nargs="+", default=[], metavar="METRIC", help="mtscore metrics to score")
    parser.add_argument(
        "--scores",
        nargs="+",
        default=[],
        metavar="FILE",
        help="score files of other metrics; with several -l, each path names its pair as {lp}",
    )
    parser.add_argument("--gold", help="the human scores (default: mt-metrics-eval's, e.g. mqm)")
    parser.add_argument("--reference", help="the standard reference (default: mt-metrics-eval's, e.g. refA)")
    human = parser.add_mutually_exclusive_group()
    human.add_argument("--human", dest="human", action="store_true", default=None, help="count human translations")
    human.add_argument("--no-human", dest="human", action="store_false", help="leave human translations out")
    parser.add_argument("--outliers", nargs="*", metavar="SYSTEM", help="the outlier systems (default: known ones)")
    parser.add_argument("--use-outliers", action="store_true", help="count the outlier systems")
    parser.add_argument(
        "--statistics",
        nargs="+",
        metavar="LEVEL:CORR_FCN[:AVG_BY[:VARIANT]]",
        help="the statistics to compute, by mt-metrics-eval's names, e.g. seg:kendall:item:c, "
        "seg:KendallVariants:sys:acc23, seg:pearson:item, sys:pce (soft pairwise accuracy) "
        "(default: every statistic without grouping)",
    )
    parser.add_argument("-k", type=int, default=1000, help="PERM-BOTH draws at most; 0: no test (default: 1000)")
    parser.add_argument("--block-size", type=int, default=100, help="draws between early stops (default: 100)")
    parser.add_argument("--pval", type=float, default=0.05, help="significance level of clusters (default: 0.05)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the permutation draws (default: 0)")
    parser.add_argument(
        "--sample-rate",
        type=float,
        default=1.0,
        help="acc-t: share of segment pairs drawn to find the tie threshold, in (0, 1] "
        "(mt-metrics-eval's sample_rate; default: 1, every pair)",
    )
    parser.add_argument("-f", "--format", choices=["text", "json"], default="text", help="output format")
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="also write each metric's system scores against the human scores, with the fitted line (SVG)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write one self-contained HTML page: the settings, each statistic's ranking with its "
        "significance clusters and p-values, the figure of each language pair (and a task set's averages)",
    )
    add_metric_options(parser, list(METRICS), grouped=True)
    return parser


def run(argv: list[str]) -> int:
    from ..metaeval import PermutationSettings, evaluate

    args = build_parser().parse_args(argv)
    if not args.metrics and not args.scores:
        raise UsageError("give metrics to score (-m) or score files (--scores)")
    if args.k < 0 or args.block_size < 1:
        raise UsageError("-k must be 0 or more and --block-size 1 or more")
    if not 0 < args.pval < 1:
        raise UsageError("--pval must be between 0 and 1")
    if not 0 < args.sample_rate <= 1:
        raise UsageError(f"--sample-rate must be in (0, 1], got {args.sample_rate:g}")
    metrics = [(name, _options(args, name)) for name in args.metrics]
    _check_data_source(args)
    args.language_pair = [lp for value in args.language_pair or [] for lp in value.split(",")]
    if "" in args.language_pair:
        raise UsageError("-l takes language pairs such as en-de, or several as en-de,zh-en; one here is empty")
    if len(args.language_pair) > 1:
        return _run_task_set(args, metrics)
    statistics = None if args.statistics is None else [_statistic(spec) for spec in args.statistics]
    evs = _eval_set(args)
    gold = args.gold
    if args.human_scores is not None:  # plain files: the human scores and the reference are those given
        gold = gold if gold is not None else evs.human_scores and next(iter(evs.human_scores))[0]
        args.reference = args.reference if args.reference is not None else next(iter(evs.references))
    result = evaluate(
        evs,
        metrics,
        scores=args.scores,
        gold=gold,
        reference=args.reference,
        include_human=args.human,
        outliers=None if args.outliers is None else set(args.outliers),
        include_outliers=args.use_outliers,
        statistics=statistics,
        permutation=PermutationSettings(k=args.k, block_size=args.block_size),
        pval=args.pval,
        seed=args.seed,
        domain=args.domain,
        sample_rate=args.sample_rate,
    )
    if args.svg:
        from ..metaeval.figure import scatter_svg

        code = write_file(args.svg, scatter_svg(result).encode("utf-8"), "mtscore meta-eval")
        if code != EXIT_OK:
            return code
    code = _write_html(args.html, result)
    if code != EXIT_OK:
        return code
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=1))
    else:
        print("\n".join(text_report(result)))
    return EXIT_OK


def _write_html(path: str | None, result: MetaEvaluation | TaskSetResult) -> int:
    """``--html``: the page of ``result`` written to ``path`` (nothing without one); an exit code."""
    if path is None:
        return EXIT_OK
    from ..report.metaeval import render_page

    return write_file(path, render_page(result).encode("utf-8"), "mtscore meta-eval")


def _check_data_source(args: argparse.Namespace) -> None:
    """Either ROOT with -t and -l, or plain files: --human-scores with -r and -i."""
    plain = {"--human-scores": args.human_scores, "-r": args.ref_file, "-i": args.input, "--names": args.names}
    plain["--documents"] = args.documents
    given = [flag for flag, value in plain.items() if value is not None]
    if args.root is not None:
        if given:
            raise UsageError(
                f"{', '.join(given)} are for plain files, without ROOT; ROOT reads mt-metrics-eval's layout"
            )
        if args.test_set is None or args.language_pair is None:
            raise UsageError("ROOT needs the test set and the language pair (-t wmt23 -l en-de)")
        return
    if args.human_scores is None or args.ref_file is None or args.input is None:
        raise UsageError(
            "give an mt-metrics-eval folder (ROOT -t TEST_SET -l LP) or plain files "
            "(--human-scores TSV -r REF -i SYS ...)"
        )
    if args.test_set is not None:
        raise UsageError("-t names a test set under ROOT; plain files have none")
    if args.language_pair is not None and len(args.language_pair) > 1:
        raise UsageError("plain files are one language pair: give -l once (or leave it out)")
    if args.names is not None and len(args.names) != len(args.input):
        raise UsageError(
            f"--names gives {len(args.names)} names for {len(args.input)} system files (-i); give one each"
        )


def _eval_set(args: argparse.Namespace) -> EvalSet:
    """The data of the command line: an mt-metrics-eval folder's test set and pair, or plain files."""
    from ..metaeval import read_eval_set
    from ..metaeval.data import read_plain_eval_set

    if args.root is not None:
        return read_eval_set(args.root, args.test_set, args.language_pair[0])
    return read_plain_eval_set(
        args.human_scores,
        args.ref_file,
        args.input,
        names=args.names,
        gold=args.gold,
        lp=args.language_pair[0] if args.language_pair else "",
        documents=args.documents,
    )


def _run_task_set(args: argparse.Namespace, metrics: list[tuple[str, dict[str, Any]]]) -> int:
    """Several language pairs: WMT23's task set, its pooled accuracy and weighted average."""
    from ..metaeval import PermutationSettings, read_eval_set
    from ..metaeval.tasksets import evaluate_tasks

    one_pair = (("--statistics", args.statistics), ("--svg", args.svg), ("--outliers", args.outliers))
    if args.sample_rate != 1:
        raise UsageError("--sample-rate is for one language pair; WMT23's task set draws every pair")
    for flag, value in (*one_pair, ("--domain", args.domain)):
        if value is not None:
            raise UsageError(f"{flag} is for one language pair; several run WMT23's task set")
    unnamed = [path for path in args.scores if "{lp}" not in path]
    if unnamed:
        raise UsageError(
            f"with several language pairs, a --scores path names its pair as {{lp}} "
            f"(e.g. metric-scores/{{lp}}/COMET-refA.seg.score): {', '.join(unnamed)}"
        )
    lps = args.language_pair
    eval_sets = [read_eval_set(args.root, args.test_set, lp) for lp in lps]
    result = evaluate_tasks(
        eval_sets,
        metrics,
        scores={lp: [path.replace("{lp}", lp) for path in args.scores] for lp in lps},
        gold=args.gold,
        reference=args.reference,
        include_human=args.human,
        include_outliers=args.use_outliers,
        permutation=PermutationSettings(k=args.k, block_size=args.block_size),
        pval=args.pval,
        seed=args.seed,
    )
    code = _write_html(args.html, result)
    if code != EXIT_OK:
        return code
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=1))
        return EXIT_OK
    lines = [f"{result.test_set} {', '.join(result.lps)}: WMT23's task set"]
    for (lang, ranking), weight in zip(result.tasks, result.weights, strict=True):
        title = statistic_title(ranking.level, ranking.statistic, ranking.avg_by, ranking.variant)
        if ranking is result.accuracy:
            title += " pooled over the language pairs"
        lines += ["", f"{lang} {title} (weight {weight:g})", *_ranking_lines(ranking)]
    lines += ["", "weighted average (each value on [0, 1]: a correlation c as (c + 1) / 2)"]
    width = max(len(name) for name in result.average)
    lines += [f"{i:>3}  {name:<{width}}  {value: .6f}" for i, (name, value) in enumerate(result.average.items(), 1)]
    lines += ["", "weighted average rank (each task's significance cluster; without a test, its position)"]
    lines += [
        f"{i:>3}  {name:<{width}}  {value: .6f}" for i, (name, value) in enumerate(result.average_ranks.items(), 1)
    ]
    lines += ["", f"columns: position, significance cluster (PERM-BOTH, p <= {args.pval}, at most {args.k} draws, "
              f"seed {args.seed}; '-': no test), metric, value"]  # fmt: skip
    print("\n".join(lines))
    return EXIT_OK


def _ranking_lines(ranking: Ranking) -> list[str]:
    """One line per metric: position, significance cluster ('-' without a test), name and value."""
    lines = []
    width = max(len(name) for name in ranking.values)
    for position, (name, value) in enumerate(ranking.values.items(), 1):
        cluster = f"{ranking.ranks[name]:>4}" if ranking.pvalues else f"{'-':>4}"
        extra = f"  epsilon {ranking.epsilons[name]:.6g}" if ranking.epsilons else ""
        lines.append(f"{position:>3} {cluster}  {name:<{width}}  {value: .6f}{extra}")
    return lines


def _options(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """The command line's options of metric ``name`` (a variant: those of its base metric)."""
    from ..metaeval.scoring import metric_spec

    try:
        base, _ = metric_spec(name)
    except InputError as error:
        raise UsageError(str(error)) from None
    return metric_keywords(args, base)


def _statistic(spec: str) -> tuple[str, str, str, str | None]:
    """A ``--statistics`` value ``level:corr_fcn[:avg_by[:variant]]``, checked."""
    from ..metaeval.evaluate import statistic_task

    try:
        return statistic_task(spec.split(":"))
    except InputError as error:
        raise UsageError(f"--statistics {spec}: {error}") from None


def text_report(result: MetaEvaluation) -> list[str]:
    """The rankings as tables read at a glance: per statistic, the metrics by value with their cluster."""
    lines = [f"{result.test_set} {result.lp}".strip() + (f", domain {result.domain}" if result.domain else "")]
    for level, selection in result.selections.items():
        human = ", ".join(selection.human_systems) if selection.human_systems else "none"
        outliers = ", ".join(selection.outliers) or "none"
        lines.append(
            f"{LEVEL_TITLES[level]}: gold {selection.gold}, reference {selection.reference}, "
            f"{len(selection.systems)} systems (human translations: {human}; outliers "
            f"{'in' if selection.include_outliers else 'out'}: {outliers})"
        )
    for ranking in result.rankings:
        title = statistic_title(ranking.level, ranking.statistic, ranking.avg_by, ranking.variant)
        lines += ["", title, *_ranking_lines(ranking)]
    lines += [
        "",
        f"columns: position, significance cluster (PERM-BOTH, p <= {result.pval}, at most "
        f"{result.permutation.k} draws, seed {result.seed}; '-': no test), metric, value",
    ]
    return lines
