"""``mtscore report``: a comparison of systems as one self-contained HTML page (scores with
intervals and paired tests, buckets, characteristic n-grams, the segments where the systems differ
most), or its score table as Markdown or LaTeX."""

from __future__ import annotations

import argparse
import os
import sys

from ..metrics import METRICS, canonical
from .common import (
    EXIT_OK,
    Parser,
    UsageError,
    add_metric_options,
    check_counts,
    configured_metric,
    metric_keywords,
    read,
    write_file,
)
from .modes import MAX_RESAMPLES
from .score import add_scores_file_option, external_metrics, read_references

DEFAULT_METRICS = ["bleu", "chrf", "ter"]
FORMATS = ["html", "md", "latex"]
MAX_EXAMPLES = 1000


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mtscore report",
        description="Compare systems in one self-contained HTML page: every metric with bootstrap intervals and "
        "paired tests against the baseline (the first -i file), scores by bucket, characteristic n-grams and the "
        "segments where the systems differ most, with each n-gram coloured by whether BLEU matched it, clipped it "
        "away or found no match. Opens offline in any browser.",
        epilog="examples:\n  mtscore report ref.de -i base.de sys2.de sys3.de -o report.html\n"
        "  mtscore report ref.A.de ref.B.de -i base.de sys2.de --src src.en -m bleu chrf ter -o report.html\n"
        "  mtscore report ref.de -i base.de sys2.de --format md\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files, one segment per line")
    parser.add_argument(
        "-i", "--input", nargs="+", metavar="HYP", help="two or more system outputs; the first is the baseline"
    )
    parser.add_argument(
        "--names", nargs="+", metavar="NAME", help="the systems' names on the page (default: their file names, less "
        "what all of them share)",
    )  # fmt: skip
    parser.add_argument("--src", metavar="SRC", help="the source file, shown beside the examples")
    parser.add_argument(
        "-nr", "--num-refs", type=int, default=1, metavar="N", help="the one reference file holds N tab-separated "
        "references per line (default: 1)",
    )  # fmt: skip
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        default=DEFAULT_METRICS,
        type=canonical,
        choices=list(METRICS),
        metavar="METRIC",
        help=f"metrics to report: {', '.join(METRICS)} (default: {' '.join(DEFAULT_METRICS)})",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report here (default: standard output)")
    parser.add_argument(
        "-f", "--format", default="html", choices=FORMATS, help="html (default), or md / latex: the score table"
    )
    parser.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair of systems (Holm-corrected), not only with the baseline",
    )
    parser.add_argument(
        "-n", "--resamples", type=int, default=1000, metavar="N", help="bootstrap resamples (default: 1000)"
    )
    parser.add_argument(
        "--seed", metavar="S", help="random seed, or 'none' (default: $MTSCORE_SEED, $SACREBLEU_SEED, else 12345)"
    )
    parser.add_argument(
        "--examples", type=int, default=30, metavar="N", help="segments shown in the examples (default: 30)"
    )
    parser.add_argument(
        "--encoding", default="utf-8", metavar="NAME", help="encoding of the input files (default: utf-8)"
    )
    add_scores_file_option(parser)
    add_metric_options(parser, ["bleu"], grouped=False)
    add_metric_options(parser, [name for name in METRICS if name != "bleu"], grouped=True)
    return parser


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    _check(args)
    from ..errors import InputError
    from ..report.compare.analysis import Inputs, analyse
    from ..significance.resampling import resolve_seed

    try:
        seed = resolve_seed(args.seed)
    except InputError as error:
        raise UsageError(str(error)) from None
    names = list(dict.fromkeys(args.metrics))
    for name in names:
        configured_metric(args, name)  # bad option values: usage errors, before any file is read
    externals = external_metrics(args.scores_file)
    references = read_references(args, args.encoding)
    hypotheses = [read(path, args.encoding) for path in args.input]
    sources = read(args.src, args.encoding) if args.src else None
    ref_names = args.refs if args.num_refs == 1 else [args.refs[0]] * args.num_refs
    extra = [args.src] if sources is not None else []
    counts = [len(h) for h in hypotheses] + ([len(sources)] if sources is not None else [])
    check_counts(ref_names, [len(r) for r in references], [*args.input, *extra], counts)

    from ..metrics import metric_class
    from ..metrics.bleu.metric import BLEU

    metrics = [metric_class(name)(references, **metric_keywords(args, name)) for name in names]
    if externals:
        from ..external.metric import file_names, name_systems

        shown = args.names or display_names(args.input)
        names_of_files = [(name, *file_names(path)) for name, path in zip(shown, args.input, strict=True)]
        name_systems(externals, names_of_files, hypotheses)
        metrics += externals
    bleu = next((m for m in metrics if isinstance(m, BLEU)), None) or BLEU(references, **metric_keywords(args, "bleu"))
    inputs = Inputs(args.names or display_names(args.input), hypotheses, references, sources, tuple(argv))
    analysis = analyse(inputs, metrics, bleu, args.resamples, seed, args.all_pairs, args.examples)
    return _write(args, _render(analysis, args.format))


def display_names(paths: list[str]) -> list[str]:
    """Short names for files: their base names less the longest prefix and suffix that all share,
    cut where a name part starts or ends (``newstest.hyp.A.de``, ``newstest.hyp.B.de``: ``A``, ``B``);
    the base names (or paths) where that would leave a name empty or two names alike."""
    names = [os.path.basename(path) or path for path in paths]
    prefix = _shared_start(names)
    suffix = _shared_start([name[::-1] for name in names])[::-1]
    prefix = prefix[: max(prefix.rfind(mark) + 1 for mark in "._-")] if prefix else ""
    suffix = suffix[min((suffix.find(mark) for mark in "._-" if mark in suffix), default=len(suffix)) :]
    short = [name[len(prefix) : len(name) - len(suffix)] for name in names]
    if all(short) and len(set(short)) == len(short):
        return short
    return names if len(set(names)) == len(names) else list(paths)


def _shared_start(strings: list[str]) -> str:
    """The longest string that every one of ``strings`` starts with, character by character."""
    first = min(strings, key=len)
    for index, character in enumerate(first):
        if any(other[index] != character for other in strings):
            return first[:index]
    return first


def _check(args: argparse.Namespace) -> None:
    if not args.refs:
        raise UsageError("no reference files given (references come before -i)")
    if not args.input or len(args.input) < 2:
        raise UsageError("a report compares two or more systems: give them after -i (the first is the baseline)")
    if len(set(args.input)) != len(args.input):
        raise UsageError("the same hypothesis file is given twice")
    if args.names and len(args.names) != len(args.input):
        raise UsageError(f"--names gives {len(args.names)} names for {len(args.input)} systems")
    if args.names and len(set(args.names)) != len(args.names):
        raise UsageError("--names gives the same name twice")
    if "-" in [*args.refs, *args.input, args.src]:
        raise UsageError("a report reads files, not standard input")
    if args.num_refs < 1 or (args.num_refs > 1 and len(args.refs) > 1):
        raise UsageError("--num-refs N reads N tab-separated references from one reference file (N >= 1)")
    if not 1 <= args.resamples <= MAX_RESAMPLES:
        raise UsageError(f"--resamples must be 1 or more and at most {MAX_RESAMPLES:,}")
    if not 0 <= args.examples <= MAX_EXAMPLES:
        raise UsageError(f"--examples must be 0 or more and at most {MAX_EXAMPLES:,}")


def _render(analysis: object, form: str) -> str:
    from ..report.compare import page, tables

    render = {"html": page.render, "md": tables.markdown, "latex": tables.latex}[form]
    return render(analysis)  # type: ignore[arg-type]


def _write(args: argparse.Namespace, text: str) -> int:
    """To standard output, or to ``-o`` whole or not at all."""
    if not args.output:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return EXIT_OK
    return write_file(args.output, text.encode("utf-8"), "mtscore report")
