"""The ``bleu`` command: sacrebleu's invocation forms, clear errors and documented exit codes.

Exit codes: 0 success, 1 usage error (bad option or arguments), 2 input error
(unreadable or malformed files, mismatched line counts, empty input).
"""

from __future__ import annotations

import argparse
import json
import sys

from . import tokenizers
from .config import SMOOTH_DEFAULTS
from .errors import BleuInputError
from .signature import __version__

EXIT_OK, EXIT_USAGE, EXIT_INPUT = 0, 1, 2


class UsageError(Exception):
    """Wrong arguments: exit 1 with a message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would exit 2, which we keep for input errors
        raise UsageError(message)


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """Tokenization and scoring options, shared by scoring and ``explain``."""
    parser.add_argument("-tok", "--tokenize", default="13a", choices=tokenizers.available(), help="tokenizer (default: 13a)")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    parser.add_argument("-s", "--smooth-method", default="exp", choices=list(SMOOTH_DEFAULTS), help="smoothing (default: exp)")
    parser.add_argument("-sv", "--smooth-value", type=float, help="value for floor (0.1), add-k (1), nltk-method1 epsilon (0.1), nltk-method4/7 k (5), nltk-method6 alpha (5)")
    parser.add_argument("--max-ngram-order", type=int, default=4, metavar="N", help="highest n-gram order (default: 4)")
    parser.add_argument("--weights", type=float, nargs="+", metavar="W", help="one weight per order, summing to 1 (default: uniform)")
    parser.add_argument("-e", "--effective-order", action="store_true", help="ignore orders with no hypothesis n-grams")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bleu",
        description="Score hypotheses against references with BLEU, exactly as sacrebleu does.",
        epilog="examples:\n  bleu ref.de -i hyp.de\n  cat hyp.de | bleu ref1.de ref2.de\n"
        "  bleu ref.de -i sys1.de sys2.de -f text\n  bleu ref.de -i hyp.de -sl -f tsv\n"
        "  bleu explain --hyp 'the cat sat' --ref 'the cat sat down'   (see bleu explain --help)\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files (plain text or .gz), one segment per line")
    parser.add_argument("-i", "--input", nargs="+", metavar="HYP", help="hypothesis files; several give a table (default: standard input)")
    add_scoring_options(parser)
    parser.add_argument("-f", "--format", default="json", choices=["json", "text", "tsv"],
                        help="output format (default: json; with -sl, JSON lines)")
    parser.add_argument("-sl", "--sentence-level", action="store_true",
                        help="a score per segment (effective order on, as sacrebleu), then the corpus score")
    parser.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    parser.add_argument("-w", "--width", type=int, default=1, metavar="N", help="decimals of the score (default: 1)")
    parser.add_argument("-sh", "--short", action="store_true", help="short signature field names")
    parser.add_argument("-V", "--version", action="version", version=f"bleu {__version__}")
    return parser


def _read(path: str, what: str) -> list[str]:
    from .read import read_lines

    lines = read_lines(path)
    if not lines:
        name = "standard input" if path == "-" else path
        raise BleuInputError(f"{name} is empty: no {what} to score")
    return lines


def _hypothesis_sources(args) -> list[str]:
    if args.input:
        return args.input
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("no hypotheses: give them with -i HYP or pipe them on standard input")
    return ["-"]


def run(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if not args.refs:
        raise UsageError("no reference files given (references come before -i)")
    if args.width < 0:
        raise UsageError("--width must be 0 or more")
    sources = _hypothesis_sources(args)
    if len(set(sources)) != len(sources):
        raise UsageError("the same hypothesis file is given twice")

    from .metric import BLEU

    options = _options(args)
    references = [_read(path, "references") for path in args.refs]
    systems = [_read(path, "hypotheses") for path in sources]
    _check_lengths(args.refs, references, sources, systems)

    metric = BLEU(references, **options)
    if args.sentence_level:
        per_segment = _sentence_metric(options)
        prepared = metric.prepare(references)
        several = len(sources) > 1
        outputs = [_segment_lines(name, lines, metric, per_segment, prepared, args, several)
                   for name, lines in zip(sources, systems)]
        if args.format == "tsv" and not args.score_only:  # one header over all systems
            _print_lines(_tsv_lines([row for rows in outputs for row in rows]))
        else:
            for output in outputs:
                _print_lines(output)
        return EXIT_OK
    scores = [metric.corpus_score(lines) for lines in systems]
    if args.format == "tsv" and not args.score_only:
        _print_lines(_tsv_lines([(name, "corpus", score) for name, score in zip(sources, scores)]))
        return EXIT_OK
    print(_render(scores, sources, args))
    return EXIT_OK


def _options(args) -> dict:
    """The BLEU options of the command line; bad values are usage errors, found before any file is read."""
    from .metric import BLEU

    options = dict(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        smooth=args.smooth_method,
        smooth_value=args.smooth_value,
        max_order=args.max_ngram_order,
        weights=args.weights,
        effective_order=args.effective_order,
    )
    try:
        BLEU(**options)
    except BleuInputError as error:
        raise UsageError(str(error)) from None
    return options


def _sentence_metric(options: dict):
    """The metric for per-segment scores: effective order on (as sacrebleu's -sl), except for NLTK's methods."""
    from .config import sentence_effective_order
    from .metric import BLEU

    return BLEU(**{**options, "effective_order": sentence_effective_order(options["smooth"], None)})


def _check_lengths(ref_paths, references, hyp_paths, systems) -> None:
    for path, lines in zip(ref_paths[1:], references[1:]):
        if len(lines) != len(references[0]):
            raise BleuInputError(
                f"reference files differ in length: {ref_paths[0]} has {len(references[0])} lines, {path} has {len(lines)}"
            )
    for path, lines in zip(hyp_paths, systems):
        if len(lines) != len(references[0]):
            name = "standard input" if path == "-" else path
            raise BleuInputError(
                f"{name} has {len(lines)} lines but {ref_paths[0]} has {len(references[0])}; "
                "hypotheses and references need one line per segment"
            )


EXPLAIN_MAX_SEGMENTS = 100


def build_explain_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bleu explain",
        description="Show how BLEU is computed for a segment (or a small file): every n-gram with its Count, "
        "Max_Ref_Count and Count_clip (Papineni et al., 2002), the precisions, BP, smoothing and score.",
        epilog="examples:\n  bleu explain --hyp 'the cat sat on the mat' --ref 'the cat is on the mat'\n"
        "  bleu explain ref.en -i hyp.en --line 17\n\n"
        "Segments use sentence-level defaults (exp smoothing, effective order); a file of several\n"
        "segments also gets the corpus computation. exit codes: 0 ok, 1 usage error, 2 input error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files (with -i)")
    parser.add_argument("-i", "--input", metavar="HYP", help="hypothesis file")
    parser.add_argument("--line", type=int, metavar="N", help="explain only line N (from 1) of the files")
    parser.add_argument("--hyp", metavar="TEXT", help="a hypothesis given as text")
    parser.add_argument("--ref", action="append", metavar="TEXT", help="a reference given as text (repeat for more)")
    add_scoring_options(parser)
    return parser


def run_explain(argv: list[str]) -> int:
    args = build_explain_parser().parse_args(argv)
    if (args.hyp is None) == (args.input is None):
        raise UsageError("give a hypothesis either as text (--hyp) or as a file (-i)")
    if args.hyp is not None:
        if not args.ref or args.refs or args.line is not None:
            raise UsageError("with --hyp, give references as text with --ref (files and --line go with -i)")
        hypotheses, references = [args.hyp], [[ref] for ref in args.ref]
    else:
        if not args.refs or args.ref:
            raise UsageError("with -i, give reference files (text references go with --hyp)")
        references = [_read(path, "references") for path in args.refs]
        hypotheses = _read(args.input, "hypotheses")
        _check_lengths(args.refs, references, [args.input], [hypotheses])
        if args.line is not None:
            if not 1 <= args.line <= len(hypotheses):
                raise UsageError(f"--line must be between 1 and {len(hypotheses)}")
            hypotheses, references = [hypotheses[args.line - 1]], [[stream[args.line - 1]] for stream in references]
        elif len(hypotheses) > EXPLAIN_MAX_SEGMENTS:
            raise UsageError(
                f"{args.input} has {len(hypotheses)} lines; explain shows at most {EXPLAIN_MAX_SEGMENTS}: "
                "pick one with --line N, or use 'bleu REF -i HYP -sl' for every segment's score"
            )
    from .explanation import explain
    from .metric import BLEU

    options = _options(args)
    print(explain(hypotheses, references, BLEU(**options), _sentence_metric(options)))
    return EXIT_OK


def _print_lines(lines) -> None:
    sys.stdout.writelines(f"{line}\n" for line in lines)


def _segment_lines(name, lines, metric, per_segment, prepared, args, several: bool):
    """-sl output of one system: a line per segment, then the corpus score (text or JSON lines; TSV rows)."""
    stats = prepared.stats(metric.tokenize(lines))
    corpus = metric.score_stats(stats, prepared.nrefs)
    segments = list(enumerate(per_segment.score_segments(stats, prepared.nrefs), 1))
    width, prefix = args.width, f"{name}\t" if several else ""
    if args.score_only:
        yield from (f"{prefix}{line}\t{score.format(width, score_only=True)}" for line, score in segments)
        yield f"{prefix}corpus\t{corpus.format(width, score_only=True)}"
    elif args.format == "tsv":  # rows; the caller adds one header for all systems
        yield from [(name, line, score) for line, score in segments] + [(name, "corpus", corpus)]
    elif args.format == "json":
        for line, score in segments:
            yield json.dumps({"system": name, "line": line, **score.to_dict()}, ensure_ascii=False)
        yield json.dumps({"system": name, "line": "corpus", **corpus.to_dict(),
                          "signature": corpus.signature.format(args.short),
                          "segment_signature": segments[0][1].signature.format(args.short) if segments else None},
                         ensure_ascii=False)
    else:
        yield from (f"{prefix}{line}\t{score.format(width)}" for line, score in segments)
        yield f"{prefix}corpus\t{corpus.format(width)}"
        if segments:
            yield f"{prefix}segment signature: {segments[0][1].signature.format(args.short)}"
        yield f"{prefix}corpus signature: {corpus.signature.format(args.short)}"


def _tsv_lines(rows):
    """Tab-separated rows (system, line, score, BP, lengths, counts, totals, precisions) with a header."""
    order = len(rows[0][2].counts)
    header = ["system", "line", "score", "bp", "sys_len", "ref_len"]
    for field in ("counts", "totals", "precisions"):
        header += [f"{field}_{n}" for n in range(1, order + 1)]
    yield "\t".join(header)
    for name, line, score in rows:
        values = [score.score, score.bp, score.sys_len, score.ref_len, *score.counts, *score.totals, *score.precisions]
        yield "\t".join([name, str(line), *map(str, values)])


def _render(scores, sources: list[str], args) -> str:
    width = args.width
    if len(scores) == 1:
        score = scores[0]
        if args.score_only:
            return score.format(width, score_only=True)
        if args.format == "json":
            return score.to_json(width)
        return score.format(width, signature=score.signature.format(args.short))
    if args.score_only:
        return "\n".join(score.format(width, score_only=True) for score in scores)
    signature = scores[0].signature.format(args.short)
    if args.format == "json":
        rows = [
            {"system": name, "BLEU": score.format(width, score_only=True), "signature": signature}
            for name, score in zip(sources, scores)
        ]
        return json.dumps(rows, indent=4, ensure_ascii=False)
    name_width = max(len("System"), *(len(name) for name in sources))
    lines = [f"{'System':<{name_width}}  BLEU"]
    lines += [f"{name:<{name_width}}  {score.format(width, score_only=True)}" for name, score in zip(sources, scores)]
    return "\n".join(lines + ["", f"BLEU signature: {signature}"])


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``bleu`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    explaining = bool(argv) and argv[0] == "explain"
    try:
        return run_explain(argv[1:]) if explaining else run(argv)
    except UsageError as error:
        command = "bleu explain" if explaining else "bleu"
        print(f"{command}: usage error: {error}\nTry '{command} --help'.", file=sys.stderr)
        return EXIT_USAGE
    except BleuInputError as error:
        print(f"bleu: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing to report
        return EXIT_OK
