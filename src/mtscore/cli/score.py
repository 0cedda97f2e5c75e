"""The default command, ``mtscore REF [REF ...] -i HYP ...``: corpus scores of one or several
systems under one or several metrics (streamed block by block when the input is large), each
segment's score (``-sl``), bootstrap confidence intervals and paired significance tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import stat
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..metrics import ALIASES, METRICS, canonical, metric_class, metric_options
from ..report import Form
from ..report.corpus import render_scores
from ..report.segments import segment_lines
from . import testsets
from .commands import commands_help
from .common import (
    EXIT_OK,
    STDIN,
    Parser,
    UsageError,
    VersionAction,
    add_metric_options,
    check_counts,
    configured_metric,
    metric_keywords,
    option_dest,
    print_lines,
    read,
)
from .modes import Modes, check_modes, scoring_modes

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..core.options import Option

FORMATS = ["json", "text", "tsv", "latex"]
DEFAULT_METRIC = "bleu"  # its options are sacrebleu's top-level ones (-tok, -lc, -s ...), the others' are grouped


def _smoothing_takes_a_value(args: argparse.Namespace) -> bool:
    """Whether BLEU's smoothing uses ``--smooth-value`` (a ``--compat`` mode checks its own)."""
    from ..metrics.bleu.scoring import SMOOTH_DEFAULTS

    return args.compat is not None or SMOOTH_DEFAULTS.get(args.smooth_method or "exp") is not None


def add_significance_options(parser: argparse.ArgumentParser, baseline: str = "the first -i file") -> None:
    """Bootstrap confidence intervals and paired tests, with sacrebleu's option names; ``baseline``:
    which system the command compares the others with."""
    group = parser.add_argument_group("confidence intervals and paired significance tests")
    group.add_argument(
        "-ci", "--confidence", action="store_true", help="bootstrap 95%% confidence interval of each score"
    )
    group.add_argument(
        "-cin",
        "--confidence-n",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples for -ci (default: 1000)",
    )
    paired = group.add_mutually_exclusive_group()
    paired.add_argument(
        "-pbs",
        "--paired-bs",
        action="store_true",
        help=f"paired bootstrap resampling test; {baseline} is the baseline",
    )
    paired.add_argument(
        "-par",
        "--paired-ar",
        action="store_true",
        help=f"paired approximate randomization test; {baseline} is the baseline",
    )
    group.add_argument(
        "-pbsn", "--paired-bs-n", type=int, default=1000, metavar="N", help="bootstrap resamples (default: 1000)"
    )
    group.add_argument(
        "-parn", "--paired-ar-n", type=int, default=10000, metavar="N", help="randomization trials (default: 10000)"
    )
    group.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair of systems, not only each with the baseline (Holm-corrected)",
    )
    group.add_argument(
        "--comparisons",
        action="store_true",
        help="paired tests in this project's fuller form (text, JSON, LaTeX): each difference with its 95%% "
        "interval and Holm-adjusted p (default: sacrebleu's table; --all-pairs implies it)",
    )
    group.add_argument(
        "--seed", metavar="S", help="random seed, or 'none' (default: $MTSCORE_SEED, $SACREBLEU_SEED, else 12345)"
    )
    group.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    group.add_argument(
        "-j",
        "--paired-jobs",
        type=int,
        default=1,
        metavar="N",
        help="accepted for sacrebleu's command lines; the tests are vectorised in one process",
    )


def add_scores_file_option(parser: argparse.ArgumentParser) -> None:
    """``--scores-file``: segment scores computed elsewhere, each file one more metric (their mean)."""
    parser.add_argument(
        "--scores-file",
        nargs="+",
        default=[],
        metavar="FILE",
        help="segment scores computed elsewhere (COMET, an LLM judge, MQM), each file one more metric whose corpus "
        "score is the mean: mt-metrics-eval's NAME.seg.score, or a TSV file of system, segment (from 1), score; "
        "each -i file's scores are those of the system named as the file, its base name or that less its "
        "extension; None: a segment not rated, left out of the mean. Scores all within [-1, 1] show 4 decimals "
        "unless -w is given",
    )


# Decimals shown when a --scores-file metric's scores all lie in [-1, 1] and -w is not given.
UNIT_SCALE_WIDTH = 4


def _external_width(modes: Modes, externals: list[Metric], given: Callable[[], set[str]]) -> Modes:
    """``modes`` showing ``UNIT_SCALE_WIDTH`` decimals when a score file's scores all lie in [-1, 1] (COMET's
    0.8412 would print as 0.8) and -w does not say otherwise (``given()``: the options the command line
    gave); unchanged without such a file."""
    if not any(getattr(metric, "on_unit_scale", False) for metric in externals):
        return modes
    if "width" in given():
        return modes
    return dataclasses.replace(modes, width=max(modes.width, UNIT_SCALE_WIDTH))


def external_metrics(paths: list[str]) -> list[Metric]:
    """The metrics of ``--scores-file`` (files read now: a bad one is an input error); two of one
    name are a usage error."""
    if not paths:
        return []
    from ..external import ExternalScores

    metrics: list[Metric] = [ExternalScores(path) for path in paths]
    names = [metric.name for metric in metrics]
    twice = sorted({name for name in names if names.count(name) > 1})
    if len(set(paths)) != len(paths) or twice:
        raise UsageError(f"--scores-file gives the same file or metric name twice ({', '.join(twice or paths)})")
    return metrics


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mtscore",
        description="Score hypotheses against references with BLEU, chrF and TER exactly as sacrebleu does, and "
        "with Google-BLEU, WER/CER, METEOR and NIST exactly as NLTK, jiwer and mteval-v13a do; confidence "
        "intervals and paired significance tests.",
        epilog="examples:\n  mtscore ref.de -i hyp.de\n  cat hyp.de | mtscore ref1.de ref2.de\n"
        "  mtscore ref.de -i sys1.de sys2.de -f text\n  mtscore ref.de -i hyp.de -sl -f tsv\n"
        "  mtscore ref.de -i hyp.de -m bleu chrf ter --confidence\n"
        "  mtscore ref.de -i base.de sys2.de sys3.de --paired-bs --all-pairs -f text\n"
        "  mtscore explain --hyp 'the cat sat' --ref 'the cat sat down'\n\n"
        f"{commands_help()}\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "refs", nargs="*", metavar="REF", help="reference files (plain text, gzip, bzip2 or xz), one segment per line"
    )
    parser.add_argument(
        "-nr",
        "--num-refs",
        type=int,
        default=1,
        metavar="N",
        help="the one reference file holds N tab-separated references per line (default: 1)",
    )
    parser.add_argument(
        "-i",
        "--input",
        nargs="+",
        metavar="HYP",
        help="hypothesis files; several give a table (default: standard input, split on tabs into systems "
        "when its first line holds one)",
    )
    add_metric_options(parser, [DEFAULT_METRIC], grouped=False)
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        default=[DEFAULT_METRIC],
        type=canonical,  # an alias is its metric from here on
        choices=list(METRICS),
        metavar="METRIC",
        help=f"metrics to compute: {', '.join(METRICS)} (default: {DEFAULT_METRIC}); "
        + ", ".join(f"{alias} is {name}" for alias, name in ALIASES.items()),
    )
    add_metric_options(parser, [name for name in METRICS if name != DEFAULT_METRIC], grouped=True)
    add_significance_options(parser)
    add_scores_file_option(parser)
    parser.add_argument(
        "-f",
        "--format",
        default=None,
        choices=FORMATS,
        help="output format (default: $SACREBLEU_FORMAT if json, text or latex, else json); -sl prints sacrebleu's "
        "lines unless -f json (JSON lines) or -f tsv is given; -b -f tsv: the numbers alone, a line per system",
    )
    parser.add_argument(
        "-sl",
        "--sentence-level",
        action="store_true",
        help="a score per segment (effective order on, as sacrebleu), then the corpus score",
    )
    parser.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only the score (as in sacrebleu, several systems and paired tests ignore it but with -f tsv)",
    )
    parser.add_argument("-w", "--width", type=int, default=1, metavar="N", help="decimals of the score (default: 1)")
    parser.add_argument("-sh", "--short", action="store_true", help="short signature field names")
    parser.add_argument(
        "--encoding",
        default="utf-8",
        metavar="NAME",
        help="the encoding of the input files, as Python names it (default: utf-8; e.g. latin-1, utf-16)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no messages on standard error but errors")
    parser.add_argument("-nc", "--no-color", action="store_true", help="accepted for sacrebleu's command lines")
    parser.add_argument("-V", "--version", action=VersionAction)
    testsets.add_options(parser)  # last: it changes -tok's default
    return parser


def _hypothesis_sources(args: argparse.Namespace) -> list[str]:
    if args.input:
        return args.input
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("no hypotheses: give them with -i HYP or pipe them on standard input")
    return [STDIN]


def _check_references_form(args: argparse.Namespace) -> None:
    """``-nr`` reads N tab-separated references from one reference file."""
    if args.num_refs < 1:
        raise UsageError("--num-refs must be 1 or more")
    if args.num_refs > 1 and len(args.refs) > 1:
        raise UsageError("--num-refs reads N tab-separated references from one reference file; give only one")


def read_references(args: argparse.Namespace, encoding: str = "utf-8") -> list[list[str]]:
    """The reference streams: one per file, or with ``-nr N`` the N tab-separated fields of each
    line of the one file (every line must have N)."""
    if args.num_refs == 1:
        return [read(path, encoding) for path in args.refs]
    lines = read(args.refs[0], encoding)
    for number, line in enumerate(lines, 1):
        if line.count("\t") + 1 != args.num_refs:
            raise InputError(
                f"{args.refs[0]}: line {number} has {line.count(chr(9)) + 1} tab-separated fields, "
                f"expected {args.num_refs} (--num-refs)"
            )
    return [list(stream) for stream in zip(*(line.split("\t") for line in lines), strict=True)]


def _pasted_systems(sources: list[str], encoding: str) -> list[list[str]] | None:
    """Systems pasted side by side on standard input (``paste SYS1 SYS2 | mtscore REF``): when its
    first line holds a tab, each line is split on tabs into one segment per system, as sacrebleu
    reads it; every line must then have as many fields. ``None`` for any other input."""
    from ..files.read import SNIFF_BYTES, compression, standard_input_first_line

    if sources != [STDIN]:
        return None
    head = standard_input_first_line()
    if b"\t" not in head or compression(head[:SNIFF_BYTES]):  # a tab in compressed bytes is no tab
        return None
    lines = read(STDIN, encoding)
    width = lines[0].count("\t") + 1
    for number, line in enumerate(lines, 1):
        if line.count("\t") + 1 != width:
            raise InputError(
                f"standard input: line {number} has {line.count(chr(9)) + 1} tab-separated fields but line 1 has "
                f"{width}; systems pasted side by side need as many on every line (to score one system whose "
                "lines hold tabs, give it as a file with -i)"
            )
    rows = [line.split("\t") for line in lines]
    # sacrebleu strips each field's trailing whitespace too, but not on the first line's fields.
    rows[1:] = [[field.rstrip() for field in row] for row in rows[1:]]
    return [list(column) for column in zip(*rows, strict=True)]


def given_options(parser: argparse.ArgumentParser, argv: list[str] | None, args: argparse.Namespace) -> set[str]:
    """The destinations of the options ``argv`` gives (a default is not given): parsed again by
    ``parser`` (which made ``args``; its defaults are changed) with every default a marker, so that
    only what the command line sets differs from it."""
    not_given = object()  # not a str: argparse converts only str defaults with the option's type
    parser.set_defaults(**dict.fromkeys(vars(args), not_given))
    return {dest for dest, value in vars(parser.parse_args(argv)).items() if value is not not_given}


# Options that act only with another (dest -> the flag, whether it acts, and what makes it act).
CONDITIONAL_OPTIONS: dict[str, tuple[str, Callable[[argparse.Namespace], bool], str]] = {
    "confidence_n": ("--confidence-n", lambda args: args.confidence, "with --confidence"),
    "paired_bs_n": ("--paired-bs-n", lambda args: args.paired_bs, "with --paired-bs"),
    "paired_ar_n": ("--paired-ar-n", lambda args: args.paired_ar, "with --paired-ar"),
    "seed": ("--seed", lambda args: args.confidence or args.paired_bs or args.paired_ar, "with resampling"),
    "smooth_value": ("--smooth-value", _smoothing_takes_a_value, "with floor, add-k or nltk-method1, 4, 6, 7"),
}


def unused_option_warnings(given: set[str], args: argparse.Namespace, names: list[str]) -> list[str]:
    """Why each option given does nothing: it belongs to a metric not selected with ``-m``, or acts
    only with another option (sacrebleu accepts both silently: they warn, the output is unchanged)."""
    warnings = []
    for metric in METRICS:
        if metric in names:
            continue
        for option in metric_options(metric):
            if option_dest(option) in given:
                warnings.append(
                    f"{'/'.join(option.flags)} applies to {metric}, which -m does not select: it is ignored"
                    + _own_option_hint(option, names)
                )
    for dest, (flag, acts, when) in CONDITIONAL_OPTIONS.items():
        if dest in given and not acts(args) and (dest != "smooth_value" or "bleu" in names):
            warnings.append(f"{flag} acts only {when}: it is ignored")
    return warnings


def _own_option_hint(given: Option, selected: list[str]) -> str:
    """The flags of the option of the same name that a selected metric has, and that do what the flag
    given does (``--chrf-lowercase`` for ``-lc`` with ``-m chrf``; not TER's ``--ter-case-sensitive``,
    which turns its ``lowercase`` off), as a hint; empty when none has one."""
    flags = [
        f"{metric}'s is {'/'.join(option.flags)}"
        for metric in selected
        for option in metric_options(metric)
        if option.name == given.name and _same_effect(option, given)
    ]
    return f" ({'; '.join(flags)})" if flags else ""


def _same_effect(option: Option, given: Option) -> bool:
    """Whether two options of the same name do the same when their flags are given (switches: set the same value)."""
    return given.kind is not bool or option.switch_value(True) is given.switch_value(True)


def run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    done = testsets.act(args)  # --list, --download, --echo; -t's checks; -l's tokenizer
    if done is not None:
        return done
    if not args.refs and not args.test_set:
        raise UsageError("no reference files given (references come before -i), and no test set (-t)")
    modes = scoring_modes(args)
    _check_references_form(args)
    sources = _hypothesis_sources(args)
    if len(set(sources)) != len(sources):
        raise UsageError("the same hypothesis file is given twice")
    if [*args.refs, *sources].count(STDIN) > 1:
        raise UsageError("standard input ('-') can be read only once: give it as the hypotheses or as one reference")
    pasted = _pasted_systems(sources, modes.encoding)
    if pasted:
        sources = [f"System {number}" for number in range(1, len(pasted) + 1)]  # sacrebleu's names
    paired = modes.paired
    names = list(modes.metrics)
    given = functools.cache(lambda: given_options(parser, argv, args))  # the command line parsed once more, if asked
    if not args.quiet:
        for warning in unused_option_warnings(given(), args, names):
            print(f"mtscore: warning: {warning}", file=sys.stderr)
    extended = modes.extended
    if not paired and not extended:  # sacrebleu prints its metrics sorted by name, paired tests aside
        names.sort(key=list(METRICS).index)
    configured = [configured_metric(args, name) for name in names]  # bad option values: usage errors, now
    externals = external_metrics(args.scores_file)
    configured += externals
    modes = _external_width(modes, externals, given)
    check_modes(modes, len(sources), configured)
    _check_names_fit_rows(modes, sources)
    form = Form(modes.format, modes.width, modes.score_only, args.short, extended)
    tsv_fields = configured[0].tsv_fields

    stream = not pasted and args.num_refs == 1 and _streaming(modes, [*args.refs, *sources], configured)
    whole_system = None  # -d's: the first system, every segment of the test sets
    kept: list[bool] | None = None  # -t with --origlang/--subset: the segments of the test sets kept
    if stream and not args.test_set:
        scores = _stream(args, modes, names, sources)
    else:
        if args.test_set:
            systems = pasted or [read(path, modes.encoding) for path in sources]
            whole_system = systems[0]
            references, ref_names, systems, kept = testsets.select(args, sources, systems)
        else:
            references = read_references(args, modes.encoding)
            systems = pasted or [read(path, modes.encoding) for path in sources]
            ref_names = args.refs if args.num_refs == 1 else [args.refs[0]] * args.num_refs
        check_counts(ref_names, list(map(len, references)), sources, list(map(len, systems)))
        metrics = _on_references(args, names, references) + externals
        if externals:
            from ..external.metric import file_names, name_systems

            kept_by = testsets.filters(args) if args.test_set else ""
            name_systems(externals, [file_names(source) for source in sources], systems, kept, kept_by)
        if modes.sentence_level:
            _print_segments(metrics[0], sources, systems, form, tsv_fields)
            return EXIT_OK
        if paired:
            _print_paired(modes, metrics, sources, systems, form)
            return EXIT_OK
        scores = _in_memory(modes, metrics, systems)
    print(render_scores(scores, sources, form, tsv_fields))
    if args.detail and len(sources) == 1:  # sacrebleu breaks down one system's scores, in -m's order

        def make_metrics(references: list[list[str]]) -> list[Metric]:
            return _on_references(args, list(dict.fromkeys(args.metrics)), references)

        print_lines(testsets.detail_lines(args, whole_system, make_metrics))
    return EXIT_OK


def _on_references(args: argparse.Namespace, names: list[str], references: list[list[str]]) -> list[Metric]:
    """The metrics called ``names``, with the options of the command line, on ``references``."""
    return [metric_class(name)(references, **metric_keywords(args, name)) for name in names]


# Characters that end a TSV column or row: a system name holding one would shift or split its row.
_ROW_BREAKS = ("\t", "\n", "\r")


def _check_names_fit_rows(modes: Modes, sources: list[str]) -> None:
    """Refuse a system name (a hypothesis file's name) with a tab or a line break where it becomes a
    tab-separated column: TSV rows, and ``-sl`` lines of several systems. Refused rather than escaped: TSV
    has no escape that every reader undoes, and an escaped name could be read as another file's."""
    several_segment_lines = modes.sentence_level and len(sources) > 1 and (modes.score_only or modes.format != "json")
    if not ((modes.format == "tsv" and not modes.score_only) or several_segment_lines):
        return
    for source in sources:
        if any(character in source for character in _ROW_BREAKS):
            where = "TSV rows" if modes.format == "tsv" and not modes.score_only else "-sl lines of several systems"
            raise UsageError(
                f"the hypothesis file name {source!r} holds a tab or a line break, which would break the {where} "
                "(the system's name is a tab-separated column): rename the file, or give a link to it with a plain name"
            )


STREAM_BYTES = 32 << 20  # inputs larger than this (together) are scored block by block, in bounded memory


def _streaming(modes: Modes, paths: list[str], metrics: list[Metric]) -> bool:
    """Score block by block (bounded memory) when only corpus scores are asked for, every metric
    can stream with its options, and the input is large or comes from standard input (UTF-8:
    blocks are cut and decoded as UTF-8)."""
    if modes.encoding != "utf-8":
        return False
    if modes.sentence_level or modes.paired or modes.confidence or not all(m.aggregation.streams for m in metrics):
        return False
    return any(map(_is_stream, paths)) or _larger_than(paths, STREAM_BYTES)


def _is_stream(path: str) -> bool:
    """Standard input, a pipe, a FIFO or a device (``<(...)``, ``/dev/stdin``): data that can be read
    only once, so it is never opened to be measured first and is scored as it streams in."""
    if path == STDIN:
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # missing or unreadable: the reader reports it
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _larger_than(paths: list[str], limit: int) -> bool:
    """Whether the files hold more than ``limit`` bytes together once decompressed: a compressed file is
    measured by decompressing it (up to the limit), as it is its text that is held in memory."""
    from ..files.read import unpacked_size

    total = 0
    for path in paths:
        total += unpacked_size(path, limit - total)
        if total > limit:
            return True
    return False


def _stream(args: argparse.Namespace, modes: Modes, names: list[str], sources: list[str]) -> list[list[Any]]:
    """Corpus scores (``[metric][system]``) read and counted one block of lines at a time."""
    from ..core.stream import stream_scores

    def make_metrics(references: list[list[str]]) -> list[Metric]:
        return _on_references(args, names, references)

    by_system = []
    for source in sources:

        def check(counts: list[int], source: str = source) -> None:
            check_counts(args.refs, counts[1:], [source], counts[:1])

        by_system.append(stream_scores(make_metrics, source, args.refs, check, progress=modes.progress))
    return [list(column) for column in zip(*by_system, strict=True)]


def _in_memory(modes: Modes, metrics: list[Metric], systems: list[list[str]]) -> list[list[Any]]:
    """Corpus scores (``[metric][system]``), with their bootstrap intervals if asked."""
    statistics = [metric.systems_statistics(systems) for metric in metrics]
    scores: list[list[Any]] = [
        [metric.score_statistics(stats) for stats in per_system]
        for metric, per_system in zip(metrics, statistics, strict=True)
    ]
    if modes.confidence:
        from ..report.confidence import with_confidence

        scores = [
            [
                with_confidence(metric, score, stats, modes.confidence_n, modes.seed)
                for score, stats in zip(row, per_system, strict=True)
            ]
            for metric, row, per_system in zip(metrics, scores, statistics, strict=True)
        ]
    return scores


def _print_segments(
    metric: Metric, sources: list[str], systems: list[list[str]], form: Form, tsv_fields: tuple[str, ...]
) -> None:
    """``-sl``: each system's segment scores then its corpus score, a system at a time."""
    results = (
        (source, metric.segment_results(metric.segment_statistics(lines)))
        for source, lines in zip(sources, systems, strict=True)
    )
    print_lines(segment_lines(results, form, len(sources) > 1, tsv_fields))


def _print_paired(
    modes: Modes, metrics: list[Metric], sources: list[str], systems: list[list[str]], form: Form
) -> None:
    """A paired test of every system against the first (or of every pair), under each metric."""
    from ..report.paired import render_paired
    from ..significance.paired import paired_test_statistics

    assert modes.paired is not None
    names = [metric.name for metric in metrics]
    statistics = [metric.systems_statistics(systems) for metric in metrics]
    result = paired_test_statistics(
        dict(zip(names, metrics, strict=True)),
        dict(zip(names, statistics, strict=True)),
        sources,
        modes.paired,
        modes.paired_n,
        modes.seed,
        modes.all_pairs,
        progress=modes.progress,
    )
    print(render_paired(result, form))
    if result.caution:  # beside sacrebleu's output, which stays as sacrebleu prints it
        print(f"mtscore: warning: {result.caution}", file=sys.stderr)
