"""``mtscore explain``: how a metric is computed for a segment or a small file, step by step
(each metric's ``explain``: BLEU's n-gram tables, WER's and CER's alignments)."""

from __future__ import annotations

import argparse

from ..metrics import METRICS
from .common import (
    EXIT_OK,
    Parser,
    UsageError,
    add_metric_options,
    check_counts,
    configured_metric,
    read,
)

DEFAULT_METRIC = "bleu"  # its options are the top-level ones, as in scoring
MAX_SEGMENTS = 100


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mtscore explain",
        description="Show how a metric is computed for a segment (or a small file). BLEU: every n-gram with its "
        "Count, Max_Ref_Count and Count_clip (Papineni et al., 2002), the precisions, BP, smoothing and score. "
        "WER, CER: the alignment, with each substitution, deletion and insertion, and the counts.",
        epilog="examples:\n  mtscore explain --hyp 'the cat sat on the mat' --ref 'the cat is on the mat'\n"
        "  mtscore explain -m wer --hyp 'the cat sat on the mat' --ref 'the cat is on the mat'\n"
        "  mtscore explain ref.en -i hyp.en --line 17\n\n"
        "BLEU's segments use sentence-level defaults (exp smoothing, effective order); a file of several\n"
        "segments also gets the corpus computation. exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files (with -i)")
    parser.add_argument("-i", "--input", metavar="HYP", help="hypothesis file")
    parser.add_argument("--line", type=int, metavar="N", help="explain only line N (from 1) of the files")
    parser.add_argument("--hyp", metavar="TEXT", help="a hypothesis given as text")
    parser.add_argument("--ref", action="append", metavar="TEXT", help="a reference given as text (repeat for more)")
    parser.add_argument(
        "-m",
        "--metric",
        default=DEFAULT_METRIC,
        choices=list(METRICS),
        metavar="METRIC",
        help=f"the metric to explain: {', '.join(METRICS)} (default: {DEFAULT_METRIC})",
    )
    add_metric_options(parser, [DEFAULT_METRIC], grouped=False)
    add_metric_options(parser, [name for name in METRICS if name != DEFAULT_METRIC], grouped=True)
    return parser


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if (args.hyp is None) == (args.input is None):
        raise UsageError("give a hypothesis either as text (--hyp) or as a file (-i)")
    if args.hyp is not None:
        if not args.ref or args.refs or args.line is not None:
            raise UsageError("with --hyp, give references as text with --ref (files and --line go with -i)")
        hypotheses, references = [args.hyp], [[ref] for ref in args.ref]
    else:
        if not args.refs or args.ref:
            raise UsageError("with -i, give reference files (text references go with --hyp)")
        references = [read(path) for path in args.refs]
        hypotheses = read(args.input)
        check_counts(args.refs, list(map(len, references)), [args.input], [len(hypotheses)])
        if args.line is not None:
            if not 1 <= args.line <= len(hypotheses):
                raise UsageError(f"--line must be between 1 and {len(hypotheses)}")
            hypotheses, references = [hypotheses[args.line - 1]], [[stream[args.line - 1]] for stream in references]
        elif len(hypotheses) > MAX_SEGMENTS:
            raise UsageError(
                f"{args.input} has {len(hypotheses)} lines; explain shows at most {MAX_SEGMENTS}: "
                "pick one with --line N, or use 'mtscore REF -i HYP -sl' for every segment's score"
            )
    print(configured_metric(args, args.metric).explain(hypotheses, references))
    return EXIT_OK
