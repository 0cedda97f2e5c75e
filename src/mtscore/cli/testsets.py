"""sacrebleu's test-set options for ``mtscore``: ``-t NAME[,NAME] -l SRC-TGT`` scores against a test
set's references (downloaded into sacrebleu's cache if needed), ``--echo`` prints its fields,
``--origlang``/``--subset`` keep some of its segments, ``-d`` breaks the score down by them,
``--citation``, ``--list`` and ``--download``; ``-l`` also picks BLEU's tokenizer for the target
language, as sacrebleu, unless ``-tok`` is given.
``mtscore.testsets`` (urllib, tarfile, the registry: about 50 ms) is imported only when one is used.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import InputError
from .common import EXIT_OK, UsageError

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..testsets import PairData, TestSet

# What sacrebleu's -d prints where no document names its original language (or there is no -t).
NO_DETAIL = "No subset information found. Consider using --origlang argument."


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options, in a group of their own. Call it after BLEU's options: it makes ``-tok``'s
    default ``None`` so that ``act`` can tell a default from a choice."""
    group = parser.add_argument_group("test sets (sacrebleu's, in its cache: $SACREBLEU, else ~/.sacrebleu)")
    group.add_argument(
        "-t",
        "--test-set",
        metavar="NAME",
        help="score against the references of test set NAME (e.g. wmt22; several joined by commas), "
        "with -l; downloaded if not in the cache",
    )
    group.add_argument(
        "-l",
        "--language-pair",
        dest="langpair",
        metavar="SRC-TGT",
        help="language pair of -t (e.g. en-de); its target also sets BLEU's default tokenizer "
        "(zh: zh, ja: ja-mecab, ko: ko-mecab, else 13a)",
    )
    group.add_argument(
        "-ol",
        "--origlang",
        metavar="LANG",
        help="keep the segments whose document was written in LANG ('non-LANG': the others)",
    )
    group.add_argument(
        "--subset",
        metavar="REGEX",
        help="keep the segments whose document's domain (WMT XML) or annotation (wmt18, wmt19) matches REGEX",
    )
    group.add_argument(
        "--echo",
        nargs="+",
        metavar="FIELD",
        help="print these fields of -t/-l, tab-separated (src, ref, docid, origlang, ref:A, a system ...; "
        "'all': every field; -t NAME --list names them) and exit",
    )
    group.add_argument(
        "-d",
        "--detail",
        action="store_true",
        help="after one system's scores, its score on each original language's segments, and on each domain's "
        "within them (-t's WMT XML and SGML sets), as sacrebleu prints it",
    )
    group.add_argument(
        "--citation", "--cite", action="store_true", help="print the BibTeX citation of each test set of -t and exit"
    )
    group.add_argument(
        "--list", action="store_true", help="list the test sets (with -l: those with that pair; with -t: its fields)"
    )
    group.add_argument("--download", metavar="NAME", help="download test set NAME into the cache and exit")
    parser.set_defaults(tokenize=None)


def act(args: argparse.Namespace) -> int | None:
    """What the options do before any scoring: checks, ``-tok``'s default, and ``--download``,
    ``--list`` and ``--echo``, which print and give the exit code; ``None``: go on and score."""
    target = _target(args.langpair)
    if args.tokenize is None and getattr(args, "compat", None) is None:  # --compat: the tool's tokenizer
        args.tokenize = default_tokenizer(target) if target else "13a"
    if not (args.download or args.list or args.citation or args.test_set or args.echo or args.origlang or args.subset):
        return None
    from .. import testsets

    log = _log(args)
    try:
        if args.download:
            test_set = testsets.get(args.download)
            files = testsets.pair_files(test_set, args.langpair) if args.langpair else testsets.every_file(test_set)
            testsets.raw_files(test_set, files, log)
            log(f"test set {test_set.name} is in {testsets.raw_dir(test_set)}")
            return EXIT_OK
        if args.list:
            _list(args, log)
            return EXIT_OK
        if args.citation:
            _citation(args)
            return EXIT_OK
        if args.test_set is None:
            for option, value in (("--origlang", args.origlang), ("--subset", args.subset), ("--echo", args.echo)):
                if value:
                    raise UsageError(f"{option} needs a test set (-t) and a language pair (-l)")
            return None
        _check_test_sets(args)
        if args.echo:
            _echo(args, log)
            return EXIT_OK
    except testsets.TestSetError as error:
        if error.usage:
            raise UsageError(str(error)) from None
        raise
    return None


def select(
    args: argparse.Namespace, sources: list[str], systems: list[list[str]]
) -> tuple[list[list[str]], list[str], list[list[str]], list[bool]]:
    """The reference streams of ``-t``/``-l`` (every test set's, one after the other), their names,
    and ``systems``; both cut to the segments ``--origlang``/``--subset`` keep. Every system must
    have a line per segment of the whole test set. Last, whether each segment of the whole test sets
    is kept."""
    from .. import testsets

    try:
        sets, references, names = _read_sets(args)
        references = [[line.rstrip() for line in stream] for stream in references]  # as sacrebleu reads them
        kept = [keep for test_set, data in sets for keep in testsets.keep(test_set, data, args.origlang, args.subset)]
    except testsets.TestSetError as error:
        if error.usage:
            raise UsageError(str(error)) from None
        raise
    for source, lines in zip(sources, systems, strict=True):
        if len(lines) != len(kept):
            shown = "standard input" if source == "-" else source
            raise InputError(
                f"{shown} has {len(lines)} lines but test set {args.test_set} ({args.langpair}) has "
                f"{len(kept)} segments; hypotheses need one line per segment of the whole test set"
            )
    if not any(kept):
        raise UsageError(f"no segment of test set {args.test_set} ({args.langpair}) is kept by {_filters(args)}")
    if not all(kept):
        references = [_kept(stream, kept) for stream in references]
        systems = [_kept(lines, kept) for lines in systems]
    return references, names, systems, kept


def filters(args: argparse.Namespace) -> str:
    """The options that keep some segments of the test sets, as given (``--origlang de``), or ``""``."""
    return _filters(args)


def detail_lines(
    args: argparse.Namespace, system: list[str] | None, make_metrics: Callable[[list[list[str]]], list[Metric]]
) -> list[str]:
    """``-d``: what sacrebleu prints after one system's scores: the system (a line per segment of
    the whole test sets; ``None`` without ``-t``) scored by each metric of ``make_metrics`` on the
    segments of each original language, and of each domain within it (``--origlang``/``--subset``:
    those alone), a line per row and metric."""
    if not args.test_set or system is None:
        return [NO_DETAIL]
    from .. import testsets

    try:
        sets, references, _ = _read_sets(args)
        rows = testsets.breakdown(sets, args.origlang, args.subset)
    except testsets.TestSetError as error:
        if error.usage:
            raise UsageError(str(error)) from None
        raise
    if not rows:
        return [NO_DETAIL]
    results = []
    for label, kept in rows:
        hypotheses = _kept(system, kept)
        metrics = make_metrics([_kept(stream, kept) for stream in references])
        results.append((label, len(hypotheses), [metric.corpus_score(hypotheses) for metric in metrics]))
    label_width = max(len(label) for label, _, _ in results) + 1
    name_width = max(len(score.name) for score in results[0][2])
    return [
        f"{label:<{label_width}}: sentences={count:<6} {score.name:<{name_width}} = {score.score:.{args.width}f}"
        for label, count, scores in results
        for score in scores
    ]


def default_tokenizer(target: str) -> str:
    """BLEU's tokenizer for a target language, as sacrebleu picks it (zh, ja-mecab, ko-mecab, else 13a)."""
    from ..tokenizers import default_for_target

    return default_for_target(target)


def _target(pair: str | None) -> str | None:
    if pair is None:
        return None
    source, dash, target = pair.partition("-")
    if not (source and dash and target):
        raise UsageError(f"-l takes a language pair SRC-TGT, such as en-de (not {pair!r})")
    return target


def _log(args: argparse.Namespace) -> Callable[[str], None]:
    def log(message: str) -> None:
        if not args.quiet:
            print(f"mtscore: {message}", file=sys.stderr)

    return log


def _read_sets(args: argparse.Namespace) -> tuple[list[tuple[TestSet, PairData]], list[list[str]], list[str]]:
    """Each test set of ``-t`` read for ``-l``, and their reference streams joined one after the
    other, with their names; the sets must have as many references, each a segment per source."""
    from .. import testsets

    sets = []
    references: list[list[str]] = []
    names: list[str] = []
    for name in args.test_set.split(","):
        test_set = testsets.get(name)
        data = testsets.read(test_set, args.langpair, _log(args))
        streams = [data.fields[field] for field in data.references]
        if not streams:
            raise InputError(f"test set {name} ({args.langpair}) has no reference to score against")
        _same_lengths(f"{name} ({args.langpair})", data.fields["src"], dict(zip(data.references, streams, strict=True)))
        if not references:
            references = [[] for _ in streams]
            names = [f"test set {name} ({args.langpair}) {field}" for field in data.references]
        if len(streams) != len(references):
            raise InputError(
                f"the test sets of -t {args.test_set} have different numbers of references for "
                f"{args.langpair} ({len(references)} and {len(streams)}): they cannot be joined"
            )
        for joined, stream in zip(references, streams, strict=True):
            joined.extend(stream)
        sets.append((test_set, data))
    return sets, references, names


def _citation(args: argparse.Namespace) -> None:
    """``--citation``: the BibTeX citation of each test set of ``-t``, as sacrebleu's registry has
    it; a set without one is said on standard error (not an error, as in sacrebleu)."""
    from .. import testsets

    if not args.test_set:
        raise UsageError("--citation needs a test set (-t)")
    for test_set in [testsets.get(name) for name in args.test_set.split(",")]:
        if test_set.citation is None:
            print(f"mtscore: no citation found for test set {test_set.name}", file=sys.stderr)
        else:
            print(test_set.citation)


def _check_test_sets(args: argparse.Namespace) -> None:
    """``-t`` with ``-l``, a pair every named set has, and no reference files or ``-nr``."""
    from .. import testsets

    if args.refs:
        raise UsageError("give reference files or a test set (-t), not both")
    if args.num_refs != 1:
        raise UsageError("--num-refs splits a reference file; a test set (-t) brings its own references")
    if args.langpair is None:
        raise UsageError(f"-t needs a language pair (-l); mtscore -t {args.test_set} --list shows them")
    for name in args.test_set.split(","):
        testsets.get(name).files(args.langpair)


def _list(args: argparse.Namespace, log: Callable[[str], None]) -> None:
    """``--list``: the test sets (with ``-l``, those with that pair or its reverse); with ``-t``, the
    fields of each of its pairs (or of ``-l``'s)."""
    from .. import testsets

    if args.test_set:
        for name in args.test_set.split(","):
            test_set = testsets.get(name)
            if "," in args.test_set:
                print(f"{name}:")
            for pair in [args.langpair] if args.langpair else list(test_set.pairs):
                print(f"{pair}: {', '.join(testsets.field_names(test_set, pair, log))}")
        return
    if args.langpair:
        print(f"The test sets with {args.langpair} (or its reverse):")
        chosen = testsets.for_pair(args.langpair)
    else:
        print("The test sets:")
        chosen = testsets.names()
    for name in chosen:
        print(f"{name:<30}: {testsets.describe(name)}")


def _echo(args: argparse.Namespace, log: Callable[[str], None]) -> None:
    """``--echo``: the asked fields of each test set, tab-separated, a line per kept segment."""
    from .. import testsets

    for name in args.test_set.split(","):
        test_set = testsets.get(name)
        data = testsets.read(test_set, args.langpair, log)
        fields = _echo_fields(args.echo, list(data.fields), name, args.langpair)
        columns = {field: data.fields[field] for field in fields}
        _same_lengths(f"{name} ({args.langpair})", data.fields["src"], columns)
        kept = testsets.keep(test_set, data, args.origlang, args.subset)
        rows = zip(*(columns[field] for field in fields), strict=True)
        sys.stdout.writelines("\t".join(row) + "\n" for row, keep in zip(rows, kept, strict=True) if keep)


def _echo_fields(asked: list[str], available: list[str], name: str, pair: str) -> list[str]:
    """The fields ``--echo`` asks for: ``all`` alone is every field; ``ref`` where a set names its
    references ``ref:X`` is the first of them by name, as in sacrebleu."""
    if "all" in asked:
        if len(asked) > 1:
            raise UsageError("--echo all goes alone")
        return available
    first_reference = min((field for field in available if field.startswith("ref")), default="ref")
    fields = [first_reference if field == "ref" and "ref" not in available else field for field in asked]
    for field in fields:
        if field not in available:
            raise UsageError(f"test set {name} ({pair}) has no field {field!r}; it has: {', '.join(available)}")
    return fields


def _same_lengths(what: str, source: list[str], columns: dict[str, list[str]]) -> None:
    for field, values in columns.items():
        if len(values) != len(source):
            raise InputError(
                f"test set {what}: field {field} has {len(values)} segments but src has {len(source)} "
                "(a damaged cache? delete the test set's folder in it to download it again)"
            )


def _filters(args: argparse.Namespace) -> str:
    return " and ".join(
        f"{option} {value}" for option, value in (("--origlang", args.origlang), ("--subset", args.subset)) if value
    )


def _kept(values: list[str], kept: list[bool]) -> list[str]:
    return [value for value, keep in zip(values, kept, strict=True) if keep]
