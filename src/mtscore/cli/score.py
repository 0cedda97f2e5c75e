"""The ``mtscore`` command: sacrebleu's invocation forms, clear errors and documented exit codes.

Exit codes: 0 success, 1 usage error (bad option or arguments), 2 input error
(unreadable or malformed files, mismatched line counts, empty input).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .. import tokenizers
from ..errors import BleuInputError
from ..metrics.bleu.scoring import NLTK_PREFIX, SMOOTH_DEFAULTS
from ..version import __version__

EXIT_OK, EXIT_USAGE, EXIT_INPUT = 0, 1, 2
STDIN = "-"


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


def add_chrf_ter_options(parser: argparse.ArgumentParser) -> None:
    """sacrebleu's chrF and TER options."""
    chrf = parser.add_argument_group("chrF (with -m chrf)")
    chrf.add_argument("-cc", "--chrf-char-order", type=int, default=6, metavar="N", help="character n-gram order (default: 6)")
    chrf.add_argument("-cw", "--chrf-word-order", type=int, default=0, metavar="N", help="word n-gram order; 2 gives chrF++ (default: 0)")
    chrf.add_argument("--chrf-beta", type=int, default=2, metavar="B", help="recall weight beta (default: 2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", help="keep whitespace in character n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", help="case-insensitive chrF")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true", help="chrF++.py's epsilon smoothing instead of effective order")
    ter = parser.add_argument_group("TER (with -m ter)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="case-sensitive TER")
    ter.add_argument("--ter-asian-support", action="store_true", help="split Asian characters (tercom's -a)")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true", help="tercom's normalisation (-N)")


def add_significance_options(parser: argparse.ArgumentParser) -> None:
    """Bootstrap confidence intervals and paired tests, with sacrebleu's option names."""
    group = parser.add_argument_group("confidence intervals and paired significance tests")
    group.add_argument("-ci", "--confidence", action="store_true", help="bootstrap 95%% confidence interval of each score")
    group.add_argument("-cin", "--confidence-n", type=int, default=1000, metavar="N", help="bootstrap resamples for -ci (default: 1000)")
    paired = group.add_mutually_exclusive_group()
    paired.add_argument("-pbs", "--paired-bs", action="store_true", help="paired bootstrap resampling test; the first -i file is the baseline")
    paired.add_argument("-par", "--paired-ar", action="store_true", help="paired approximate randomization test; the first -i file is the baseline")
    group.add_argument("-pbsn", "--paired-bs-n", type=int, default=1000, metavar="N", help="bootstrap resamples (default: 1000)")
    group.add_argument("-parn", "--paired-ar-n", type=int, default=10000, metavar="N", help="randomization trials (default: 10000)")
    group.add_argument("--all-pairs", action="store_true", help="compare every pair of systems, not only each with the baseline (Holm-corrected)")
    group.add_argument("--seed", metavar="S", help="random seed, or 'none' (default: $MTSCORE_SEED, $SACREBLEU_SEED, else 12345)")
    group.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mtscore",
        description="Score hypotheses against references with BLEU, chrF and TER, exactly as sacrebleu does; "
        "confidence intervals and paired significance tests.",
        epilog="examples:\n  mtscore ref.de -i hyp.de\n  cat hyp.de | mtscore ref1.de ref2.de\n"
        "  mtscore ref.de -i sys1.de sys2.de -f text\n  mtscore ref.de -i hyp.de -sl -f tsv\n"
        "  mtscore ref.de -i hyp.de -m bleu chrf ter --confidence\n"
        "  mtscore ref.de -i base.de sys2.de sys3.de --paired-bs --all-pairs -f text\n"
        "  mtscore explain --hyp 'the cat sat' --ref 'the cat sat down'   (see mtscore explain --help)\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="*", metavar="REF", help="reference files (plain text or .gz), one segment per line")
    parser.add_argument("-i", "--input", nargs="+", metavar="HYP", help="hypothesis files; several give a table (default: standard input)")
    add_scoring_options(parser)
    parser.add_argument("-m", "--metrics", nargs="+", default=["bleu"], choices=["bleu", "chrf", "ter"],
                        metavar="METRIC", help="metrics to compute: bleu, chrf, ter (default: bleu)")
    add_chrf_ter_options(parser)
    add_significance_options(parser)
    parser.add_argument("-f", "--format", default="json", choices=["json", "text", "tsv", "latex"],
                        help="output format (default: json; with -sl, JSON lines; latex: paired tests)")
    parser.add_argument("-sl", "--sentence-level", action="store_true",
                        help="a score per segment (effective order on, as sacrebleu), then the corpus score")
    parser.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    parser.add_argument("-w", "--width", type=int, default=1, metavar="N", help="decimals of the score (default: 1)")
    parser.add_argument("-sh", "--short", action="store_true", help="short signature field names")
    parser.add_argument("-V", "--version", action="version", version=f"mtscore {__version__}")
    return parser


def _read(path: str) -> list[str]:
    from ..files.read import read_lines

    return read_lines(path)


def _hypothesis_sources(args) -> list[str]:
    if args.input:
        return args.input
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("no hypotheses: give them with -i HYP or pipe them on standard input")
    return [STDIN]


def run(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if not args.refs:
        raise UsageError("no reference files given (references come before -i)")
    if args.width < 0:
        raise UsageError("--width must be 0 or more")
    sources = _hypothesis_sources(args)
    if len(set(sources)) != len(sources):
        raise UsageError("the same hypothesis file is given twice")
    paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    _check_modes(args, paired, len(sources))
    names = list(dict.fromkeys(args.metrics))
    options = {name: _metric_options(args, name) for name in names}

    if _streaming(args, paired, [*args.refs, *sources]):
        scores = _stream(args, names, options, sources)
    else:
        references = [_read(path) for path in args.refs]
        systems = [_read(path) for path in sources]
        _check_counts(args.refs, list(map(len, references)), sources, list(map(len, systems)))
        if args.sentence_level and names == ["bleu"]:
            return _sentence_level(args, options["bleu"], references, sources, systems)
        if args.sentence_level:
            _print_lines(_other_segment_lines(args, names[0], options[names[0]], references, sources, systems))
            return EXIT_OK
        scores = _in_memory(args, paired, names, options, references, sources, systems)
        if scores is None:
            return EXIT_OK
    if args.format == "tsv" and not args.score_only:
        _print_lines(_tsv_lines([(name, "corpus", score) for name, score in zip(sources, scores[0])]))
        return EXIT_OK
    print(_render(scores, sources, args))
    return EXIT_OK


STREAM_BYTES = 32 << 20  # inputs larger than this (together) are scored block by block, in bounded memory


def _streaming(args, paired: str | None, paths: list[str]) -> bool:
    """Score block by block (bounded memory) when only corpus scores are asked for and the input
    is large or comes from standard input. NLTK's corpus smoothing needs every segment's counts,
    so it is scored in memory."""
    if args.sentence_level or paired or args.confidence or args.smooth_method.startswith(NLTK_PREFIX):
        return False
    return STDIN in paths or sum(_size(path) for path in paths) > STREAM_BYTES


GZIP_RATIO = 8  # a gzip file counts as this many times its size (text compresses about 3-10x)


def _size(path: str) -> int:
    """The size a file is taken to have once decompressed (0 if unreadable: the reader reports it)."""
    try:
        with open(path, "rb") as handle:
            packed = handle.read(2) == b"\x1f\x8b"
        return os.path.getsize(path) * (GZIP_RATIO if packed else 1)
    except OSError:
        return 0


def _stream(args, names: list[str], options: dict, sources: list[str]) -> list[list]:
    """Corpus scores (``[metric][system]``) read and counted one block of lines at a time."""
    from ..core.stream import stream_scores
    from ..metrics import metric_class

    def make_metrics(references):
        return [metric_class(name)(references, **options[name]) for name in names]

    by_system = []
    for source in sources:
        def check(counts, source=source):
            _check_counts(args.refs, counts[1:], [source], counts[:1])
        by_system.append(stream_scores(make_metrics, source, args.refs, check, progress=not args.no_progress))
    return [list(column) for column in zip(*by_system)]


def _in_memory(args, paired, names, options, references, sources, systems) -> list[list] | None:
    """Corpus scores (``[metric][system]``), with intervals if asked; paired tests print their
    tables here and give None."""
    from ..metrics import metric_class

    metrics = [metric_class(name)(references, **options[name]) for name in names]
    statistics = [metric.systems_statistics(systems) for metric in metrics]
    if paired:
        print(_paired(args, paired, metrics, statistics, sources))
        return None
    scores = [[metric.score_statistics(stats) for stats in per_system] for metric, per_system in zip(metrics, statistics)]
    if args.confidence:
        scores = [[_with_confidence(metric, score, stats, args) for score, stats in zip(row, per_system)]
                  for metric, row, per_system in zip(metrics, scores, statistics)]
    return scores


def _check_modes(args, paired: str | None, n_systems: int) -> None:
    """Combinations of modes and options that cannot work, as usage errors before any file is read."""
    if paired and n_systems < 2:
        raise UsageError("paired tests need two or more systems after -i (the first is the baseline)")
    if paired and args.confidence:
        raise UsageError("--confidence goes with single-system scores; paired bootstrap already gives each system's interval")
    if args.all_pairs and not paired:
        raise UsageError("--all-pairs goes with --paired-bs or --paired-ar")
    if args.format == "latex" and not paired:
        raise UsageError("-f latex is for paired test tables (--paired-bs or --paired-ar)")
    if args.sentence_level and (paired or args.confidence):
        raise UsageError("significance tests and confidence intervals are for corpus scores, not -sl")
    if args.sentence_level and len(set(args.metrics)) > 1:
        raise UsageError("-sl scores segments with one metric at a time: give one name after -m")
    if args.sentence_level and args.format == "tsv" and args.metrics != ["bleu"]:
        raise UsageError("-sl -f tsv lists BLEU's statistics; use -f text or json for chrF and TER")
    if args.format == "tsv" and args.metrics != ["bleu"]:
        raise UsageError("-f tsv lists BLEU's statistics; use -f text or json for other metrics")
    for option in ("confidence_n", "paired_bs_n", "paired_ar_n"):
        if getattr(args, option) < 1:
            raise UsageError(f"--{option.replace('_', '-')} must be 1 or more")
    from ..significance.resampling import resolve_seed

    try:
        resolve_seed(args.seed)
    except BleuInputError as error:
        raise UsageError(str(error)) from None


def _metric_options(args, name: str) -> dict:
    """One metric's options from the command line; bad values are usage errors."""
    from ..metrics import metric_class

    if name == "bleu":
        return _options(args)
    if name == "chrf":
        options = dict(char_order=args.chrf_char_order, word_order=args.chrf_word_order, beta=args.chrf_beta,
                       lowercase=args.chrf_lowercase, whitespace=args.chrf_whitespace,
                       eps_smoothing=args.chrf_eps_smoothing)
    else:
        options = dict(normalized=args.ter_normalized, no_punct=args.ter_no_punct,
                       asian_support=args.ter_asian_support, case_sensitive=args.ter_case_sensitive)
    try:
        metric_class(name)(**options)
    except BleuInputError as error:
        raise UsageError(str(error)) from None
    return options


def _sentence_level(args, options: dict, references, sources, systems) -> int:
    from ..metrics.bleu.metric import BLEU

    metric = BLEU(references, **options)
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


def _other_segment_lines(args, name: str, options: dict, references, sources, systems):
    """-sl for chrF and TER: each segment's score (what sacrebleu's sentence_score gives), then
    the corpus score, per system; as text, JSON lines or bare numbers."""
    from ..metrics import metric_class

    metric = metric_class(name)(references, **options)
    width, several = args.width, len(sources) > 1
    for source, lines in zip(sources, systems):
        statistics = metric.segment_statistics(lines)
        scores, corpus = metric.scores_of_sums(statistics), metric.score_statistics(statistics)
        prefix = f"{source}\t" if several else ""
        rows = [(str(line), float(score)) for line, score in enumerate(scores, 1)] + [("corpus", corpus.score)]
        signature = corpus.signature.format(args.short)
        for line, score in rows:
            if args.score_only:
                yield f"{prefix}{line}\t{score:.{width}f}"
            elif args.format == "json":
                row = {"system": source, "line": line if line == "corpus" else int(line), "name": metric.name, "score": score}
                yield json.dumps(row | ({"signature": signature} if line == "corpus" else {}), ensure_ascii=False)
            else:
                yield f"{prefix}{line}\t{metric.name} = {score:.{width}f}"
        if not args.score_only and args.format != "json":
            yield f"{prefix}signature: {signature}"


def _paired(args, test: str, metrics, statistics, sources) -> str:
    from ..significance import results as report
    from ..significance.paired import paired_test_statistics

    names = [metric.name for metric in metrics]
    result = paired_test_statistics(
        dict(zip(names, metrics)), dict(zip(names, statistics)), sources, test,
        args.paired_bs_n if test == "bs" else args.paired_ar_n, args.seed, args.all_pairs,
        progress=not args.no_progress,
    )
    if args.score_only:
        return "\n".join("\t".join(f"{result.results[name][i].score:.{args.width}f}" for name in names)
                         for i in range(len(sources)))
    if args.format == "json":
        return report.to_json(result)
    if args.format == "latex":
        return report.to_latex(result, args.width)
    return report.to_text(result, args.width, args.short)


def _with_confidence(metric, score, statistics, args):
    """The score with its bootstrap mean and 95% half-width, and bs/seed in its signature."""
    import dataclasses

    from ..significance.resampling import bootstrap_confidence, resolve_seed

    mean, ci = bootstrap_confidence(metric, statistics, args.confidence_n, args.seed)
    signature = score.signature.with_fields(bs=str(args.confidence_n), seed=str(resolve_seed(args.seed)).lower())
    return Confident(dataclasses.replace(score, signature=signature), mean, ci)


class Confident:
    """A score shown with its bootstrap interval, in sacrebleu's text and JSON forms."""

    def __init__(self, score, mean: float, ci: float):
        self.score_object, self.mean, self.ci = score, mean, ci
        self.name, self.score, self.signature = score.name, score.score, score.signature

    def interval(self, width: int) -> str:
        return f"μ = {self.mean:.{width}f} ± {self.ci:.{width}f}"

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str:
        line = self.score_object.format(width, score_only, signature)
        if score_only:
            return line
        head, rest = line.split(" = ", 1)
        number, _, details = rest.partition(" ")
        return f"{head} = {number} ({self.interval(width)}) {details}".rstrip()

    def to_json(self, width: int = 2) -> str:
        data = json.loads(self.score_object.to_json(width))
        extra = {"confidence_mean": float(f"{self.mean:.{width}f}"), "confidence_var": float(f"{self.ci:.{width}f}"),
                 "confidence": self.interval(width)}
        keys = list(data)
        at = keys.index("signature") + 1
        ordered = {key: data[key] for key in keys[:at]} | extra | {key: data[key] for key in keys[at:]}
        return json.dumps(ordered, indent=1, ensure_ascii=False)


def _options(args) -> dict:
    """The BLEU options of the command line; bad values are usage errors, found before any file is read."""
    from ..metrics.bleu.metric import BLEU

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
    from ..metrics.bleu.metric import BLEU
    from ..metrics.bleu.scoring import sentence_effective_order

    return BLEU(**{**options, "effective_order": sentence_effective_order(options["smooth"], None)})


def _check_counts(ref_paths, ref_counts: list[int], hyp_paths, hyp_counts: list[int]) -> None:
    """Every file has lines, and as many as the first reference file."""
    for path, count, what in [*zip(ref_paths, ref_counts, ["references"] * len(ref_paths)),
                              *zip(hyp_paths, hyp_counts, ["hypotheses"] * len(hyp_paths))]:
        if count == 0:
            raise BleuInputError(f"{_display(path)} is empty: no {what} to score")
    for path, count in zip(ref_paths[1:], ref_counts[1:]):
        if count != ref_counts[0]:
            raise BleuInputError(
                f"reference files differ in length: {ref_paths[0]} has {ref_counts[0]} lines, {path} has {count}"
            )
    for path, count in zip(hyp_paths, hyp_counts):
        if count != ref_counts[0]:
            raise BleuInputError(
                f"{_display(path)} has {count} lines but {ref_paths[0]} has {ref_counts[0]}; "
                "hypotheses and references need one line per segment"
            )


def _display(path: str) -> str:
    return "standard input" if path == STDIN else path


EXPLAIN_MAX_SEGMENTS = 100


def build_explain_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mtscore explain",
        description="Show how BLEU is computed for a segment (or a small file): every n-gram with its Count, "
        "Max_Ref_Count and Count_clip (Papineni et al., 2002), the precisions, BP, smoothing and score.",
        epilog="examples:\n  mtscore explain --hyp 'the cat sat on the mat' --ref 'the cat is on the mat'\n"
        "  mtscore explain ref.en -i hyp.en --line 17\n\n"
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
        references = [_read(path) for path in args.refs]
        hypotheses = _read(args.input)
        _check_counts(args.refs, list(map(len, references)), [args.input], [len(hypotheses)])
        if args.line is not None:
            if not 1 <= args.line <= len(hypotheses):
                raise UsageError(f"--line must be between 1 and {len(hypotheses)}")
            hypotheses, references = [hypotheses[args.line - 1]], [[stream[args.line - 1]] for stream in references]
        elif len(hypotheses) > EXPLAIN_MAX_SEGMENTS:
            raise UsageError(
                f"{args.input} has {len(hypotheses)} lines; explain shows at most {EXPLAIN_MAX_SEGMENTS}: "
                "pick one with --line N, or use 'mtscore REF -i HYP -sl' for every segment's score"
            )
    from ..metrics.bleu.explanation import explain
    from ..metrics.bleu.metric import BLEU

    options = _options(args)
    print(explain(hypotheses, references, BLEU(**options), _sentence_metric(options)))
    return EXIT_OK


def _print_lines(lines) -> None:
    sys.stdout.writelines(f"{line}\n" for line in lines)


def _segment_lines(name, lines, metric, per_segment, prepared, args, several: bool):
    """-sl output of one system: a line per segment, then the corpus score (text or JSON lines; TSV rows)."""
    stats = prepared.stats(metric.keys(lines))
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
    """Corpus scores (``scores[metric][system]``): one system gives sacrebleu's score lines (or
    JSON objects), several give a table with a column per metric."""
    width = args.width
    if len(sources) == 1:
        column = [row[0] for row in scores]
        if args.score_only:
            numbers = [score.format(width, score_only=True) for score in column]
            if args.format == "json" and len(numbers) > 1:  # sacrebleu prints a JSON list here
                return "[\n" + ",\n".join(numbers) + "\n]"
            return "\n".join(numbers)
        if args.format == "json":
            objects = [score.to_json(width) for score in column]
            return objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]"
        lines = [score.format(width, signature=score.signature.format(args.short)) for score in column]
        return "\n".join(_align_on_equals(lines))
    if args.score_only:
        return "\n".join("\t".join(row[i].format(width, score_only=True) for row in scores) for i in range(len(sources)))
    names = [row[0].name for row in scores]
    signatures = [row[0].signature.format(args.short) for row in scores]
    if args.format == "json":
        rows = []
        for i, source in enumerate(sources):
            row = {"system": source}
            for name, column, signature in zip(names, scores, signatures):
                row[name] = column[i].format(width, score_only=True)
                row[f"{name} signature" if len(names) > 1 else "signature"] = signature
            rows.append(row)
        return json.dumps(rows, indent=4, ensure_ascii=False)
    name_width = max(len("System"), *(len(name) for name in sources))
    header = [f"{'System':<{name_width}}"] + [f"{name:>8}" for name in names]
    lines = ["  ".join(header).rstrip()]
    for i, source in enumerate(sources):
        lines.append("  ".join([f"{source:<{name_width}}"] + [f"{column[i].format(width, score_only=True):>8}"
                                                                for column in scores]))
    if len(names) == 1:
        return "\n".join(lines + ["", f"{names[0]} signature: {signatures[0]}"])
    return "\n".join(lines + ["", "Metric signatures:"] + [f" - {n:<10} {s}" for n, s in zip(names, signatures)])


def _align_on_equals(lines: list[str]) -> list[str]:
    """Score lines right-aligned on their ``=``, as sacrebleu prints several metrics."""
    if len(lines) == 1:
        return lines
    cut = [line.index(" = ") for line in lines]
    widest = max(cut)
    return [f"{line[:at]:>{widest}}{line[at:]}" for line, at in zip(lines, cut)]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mtscore`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    explaining = bool(argv) and argv[0] == "explain"
    try:
        return run_explain(argv[1:]) if explaining else run(argv)
    except UsageError as error:
        command = "mtscore explain" if explaining else "mtscore"
        print(f"{command}: usage error: {error}\nTry '{command} --help'.", file=sys.stderr)
        return EXIT_USAGE
    except BleuInputError as error:
        print(f"mtscore: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing to report
        return EXIT_OK
