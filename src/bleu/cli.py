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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bleu",
        description="Score hypotheses against references with BLEU, exactly as sacrebleu does.",
        epilog="examples:\n  bleu ref.de -i hyp.de\n  cat hyp.de | bleu ref1.de ref2.de\n"
        "  bleu ref.de -i sys1.de sys2.de -f text\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files (plain text or .gz), one segment per line")
    parser.add_argument("-i", "--input", nargs="+", metavar="HYP", help="hypothesis files; several give a table (default: standard input)")
    parser.add_argument("-tok", "--tokenize", default="13a", choices=tokenizers.available(), help="tokenizer (default: 13a)")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    parser.add_argument("-s", "--smooth-method", default="exp", choices=list(SMOOTH_DEFAULTS), help="smoothing (default: exp)")
    parser.add_argument("-sv", "--smooth-value", type=float, help="value for floor (default 0.1) and add-k (default 1)")
    parser.add_argument("--max-ngram-order", type=int, default=4, metavar="N", help="highest n-gram order (default: 4)")
    parser.add_argument("--weights", type=float, nargs="+", metavar="W", help="one weight per order, summing to 1 (default: uniform)")
    parser.add_argument("-e", "--effective-order", action="store_true", help="ignore orders with no hypothesis n-grams")
    parser.add_argument("-f", "--format", default="json", choices=["json", "text"], help="output format (default: json)")
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
        BLEU(**options)  # bad option values are usage errors, found before any file is read
    except BleuInputError as error:
        raise UsageError(str(error)) from None

    references = [_read(path, "references") for path in args.refs]
    systems = [_read(path, "hypotheses") for path in sources]
    for path, lines in zip(args.refs[1:], references[1:]):
        if len(lines) != len(references[0]):
            raise BleuInputError(
                f"reference files differ in length: {args.refs[0]} has {len(references[0])} lines, {path} has {len(lines)}"
            )
    for path, lines in zip(sources, systems):
        if len(lines) != len(references[0]):
            name = "standard input" if path == "-" else path
            raise BleuInputError(
                f"{name} has {len(lines)} lines but {args.refs[0]} has {len(references[0])}; "
                "hypotheses and references need one line per segment"
            )

    metric = BLEU(references, **options)
    scores = [metric.corpus_score(lines) for lines in systems]
    print(_render(scores, sources, args))
    return EXIT_OK


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
    try:
        return run(argv)
    except UsageError as error:
        print(f"bleu: usage error: {error}\nTry 'bleu --help'.", file=sys.stderr)
        return EXIT_USAGE
    except BleuInputError as error:
        print(f"bleu: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing to report
        return EXIT_OK
