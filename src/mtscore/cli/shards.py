"""``mtscore stats`` and ``mtscore merge``: a shard of a corpus counted where its files are, and the
shards scored together later, exactly as the whole corpus would have been.

``stats`` writes one ``.npz`` holding the shard's per-segment statistics and what made them (the
metric, its options, references per segment, the system's name); ``merge`` refuses shards made
with other metrics or options, joins each system's shards in the order given, and scores them,
with ``--confidence`` or a paired test where asked. A metric whose rows depend on the whole
corpus (NIST's information weights) writes its mergeable state instead (``Metric.shard_state``:
NIST's n-gram tables), which ``merge`` merges and scores exactly, and its segments' tokens
(``metrics.nist.tokens``): a resample recomputes the weights from its own reference corpus, so
``--confidence`` and the paired tests join the shards' tokens into the whole corpus and score it
as the in-memory API does, to the bit.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import BleuInputError
from ..metrics import METRICS, canonical, metric_class
from ..report import Form
from ..report.corpus import render_scores
from .common import EXIT_OK, Parser, UsageError, add_metric_options, check_counts, metric_keywords, read, write_file

FORMAT_VERSION = 2  # of the shard files (2: NIST's keep their tokens); a file of another version is refused


def build_stats_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mtscore stats",
        description="Count one shard of a corpus (hypothesis and reference files of the same segments) and write "
        "its statistics to a .npz file for 'mtscore merge'.",
        epilog="example:\n  mtscore stats ref.part1 -i hyp.part1 -m chrf -o part1.npz\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("refs", nargs="+", metavar="REF", help="the shard's reference files")
    parser.add_argument("-i", "--input", required=True, metavar="HYP", help="the shard's hypothesis file")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the shard (.npz)")
    parser.add_argument("--name", metavar="SYSTEM", help="the system's name in merged results (default: HYP)")
    parser.add_argument("-m", "--metric", default="bleu", type=canonical, metavar="METRIC", help="(default: bleu)")
    add_metric_options(parser, ["bleu"], grouped=False)
    add_metric_options(parser, [name for name in METRICS if name != "bleu"], grouped=True)
    return parser


def run_stats(argv: list[str]) -> int:
    args = build_stats_parser().parse_args(argv)
    if args.metric not in METRICS:
        raise UsageError(f"unknown metric {args.metric!r}; choose from {', '.join(METRICS)}")
    options = metric_keywords(args, args.metric)
    try:
        metric = metric_class(args.metric)(**options)
    except BleuInputError as error:
        raise UsageError(str(error)) from None
    references = [read(path) for path in args.refs]
    hypotheses = read(args.input)
    check_counts(args.refs, list(map(len, references)), [args.input], [len(hypotheses)])
    if metric.additive:
        prepared = metric_class(args.metric)(references, **options)
        arrays = {"statistics": prepared.statistics(hypotheses).to_matrix()}
        nrefs = prepared.signature().info.get("nrefs", "1")
    else:  # rows that depend on the whole corpus: the mergeable state instead (references prepared there)
        from ..core.inputs import check_references  # NumPy: not at --help
        from ..core.references import References
        from ..metrics.nist.tokens import shard_tokens

        state = metric.state_arrays(metric.shard_state(hypotheses, references))
        arrays = {f"state_{name}": values for name, values in state.items()}
        tokens = shard_tokens(metric, hypotheses, references).to_arrays()  # for resamples of the merged shards
        arrays |= {f"tokens_{name}": values for name, values in tokens.items()}
        present = check_references(references, len(hypotheses))
        nrefs = metric.signature(References(present).nrefs).info.get("nrefs", "1")
    meta = {
        "format": FORMAT_VERSION,
        "metric": args.metric,
        "options": options,
        "nrefs": nrefs,
        "system": args.name or args.input,
        "kind": "statistics" if metric.additive else "state",
    }
    import io

    import numpy as np

    data = io.BytesIO()
    np.savez(data, **arrays, meta=np.array(json.dumps(meta)))  # type: ignore[arg-type]
    return write_file(args.output, data.getvalue(), "mtscore stats")


def build_merge_parser() -> argparse.ArgumentParser:
    from .score import add_significance_options

    parser = Parser(
        prog="mtscore merge",
        description="Score shards written by 'mtscore stats' together: each system's shards are joined in the order "
        "given and scored as one corpus; several systems give a table or, with --paired-bs/--paired-ar, a paired "
        "test.",
        epilog="example:\n  mtscore merge part1.npz part2.npz part3.npz --confidence\n\n"
        "exit codes: 0 ok, 1 usage error, 2 input error, 3 output error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shards", nargs="+", metavar="SHARD", help=".npz files from mtscore stats")
    parser.add_argument("-f", "--format", default="json", choices=["json", "text", "latex"], help="(default: json)")
    parser.add_argument("-w", "--width", type=int, default=1, metavar="N", help="decimals of the score (default: 1)")
    parser.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    add_significance_options(parser)
    return parser


def _load(path: str, tokens: bool = False) -> tuple[dict[str, Any], Any]:
    """A shard's description and statistics (for a state, its arrays by name; with ``tokens``, its
    ``ShardTokens`` instead), or an input error saying what is wrong with the file."""
    import numpy as np

    try:
        with open(path, "rb") as handle:
            if handle.read(4) != b"PK\x03\x04":  # what np.load would take for a pickle
                raise ValueError("not a .npz file")
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            statistics = _contents(data, meta, tokens) if meta.get("format") == FORMAT_VERSION else None
    except FileNotFoundError:
        raise BleuInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BleuInputError(f"{path}: is a directory, expected a shard (.npz)") from None
    except (OSError, ValueError, KeyError) as error:
        raise BleuInputError(f"{path}: not a shard written by 'mtscore stats' ({error})") from None
    if meta.get("format") != FORMAT_VERSION:
        raise BleuInputError(
            f"{path}: a shard of format {meta.get('format')}, this mtscore reads {FORMAT_VERSION} "
            "(write it again with this mtscore's 'mtscore stats')"
        )
    return meta, statistics


def _contents(data: Any, meta: dict[str, Any], tokens: bool) -> Any:
    """What ``_load`` gives of an open shard of this format."""
    if meta.get("kind") != "state":
        return data["statistics"]
    if not tokens:
        return {name[6:]: data[name] for name in data.files if name.startswith("state_")}
    from ..metrics.nist.tokens import ShardTokens

    return ShardTokens.from_arrays({name[7:]: data[name] for name in data.files if name.startswith("tokens_")})


def run_merge(argv: list[str]) -> int:
    import numpy as np

    from .score import SACREBLEU_METRICS, _check_modes

    args = build_merge_parser().parse_args(argv)
    if not 0 <= args.width <= 20:
        raise UsageError("--width must be 0 or more and at most 20")
    paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    resampled = bool(paired or args.confidence)  # NIST's resamples need its shards' tokens, not its tables
    shards = [(path, *_load(path, tokens=resampled)) for path in args.shards]
    first_path, first, _ = shards[0]
    for path, meta, _ in shards[1:]:
        for key in ("metric", "options", "nrefs"):
            if meta[key] != first[key]:
                raise BleuInputError(
                    f"{path} was counted with {key} {meta[key]!r} but {first_path} with {first[key]!r}: "
                    "shards merge only when made the same way"
                )
    systems: dict[str, list[Any]] = {}
    for _, meta, statistics in shards:
        systems.setdefault(meta["system"], []).append(statistics)
    names = list(systems)
    args.sentence_level, args.metrics = False, [first["metric"]]
    metric = metric_class(first["metric"])(**first["options"])
    _check_modes(args, paired, len(names), [metric])
    extended = args.all_pairs or args.comparisons or first["metric"] not in SACREBLEU_METRICS
    form = Form(args.format, args.width, args.score_only, False, extended)
    if first.get("kind") == "state" and not resampled:
        return _merge_states(metric, first, systems, form)
    if first.get("kind") == "state":
        matrices, nrefs = _state_rows(metric, list(systems.values()), paired is not None)
    else:
        matrices = [np.concatenate(parts) for parts in systems.values()]
        nrefs = [first["nrefs"]] * len(matrices)
    if len({len(matrix) for matrix in matrices}) > 1:
        raise BleuInputError(
            "the systems' shards cover different numbers of segments: "
            + ", ".join(f"{name} {len(matrix)}" for name, matrix in zip(names, matrices, strict=True))
        )
    if paired:
        from ..report.paired import render_paired
        from ..significance.paired import paired_test_statistics

        result = paired_test_statistics(
            {metric.name: metric},
            {metric.name: matrices},
            names,
            paired,
            args.paired_bs_n if paired == "bs" else args.paired_ar_n,
            args.seed,
            args.all_pairs,
        )
        signatures = {name: signature.with_fields(nrefs=nrefs[0]) for name, signature in result.signatures.items()}
        import dataclasses  # here: it costs start-up time that --help need not pay

        print(render_paired(dataclasses.replace(result, signatures=signatures), form))
        return EXIT_OK
    scores: list[Any] = [metric.score_statistics(m, nrefs=n) for m, n in zip(matrices, nrefs, strict=True)]
    if args.confidence:
        from ..report.confidence import with_confidence

        scores = [
            with_confidence(metric, score, matrix, args.confidence_n, args.seed)
            for score, matrix in zip(scores, matrices, strict=True)
        ]
    print(render_scores([scores], names, form))
    return EXIT_OK


def _state_rows(metric: Any, systems: list[list[Any]], paired: bool) -> tuple[list[Any], list[str]]:
    """Each system's per-segment rows, resamplable, from its shards' tokens (``ShardTokens``) joined
    in order: the in-memory API's rows of the whole corpus (NIST's, whose resamples recompute the
    information weights from every reference segment); and its references per segment. A paired
    test compares systems on one reference corpus: shards of other references are refused."""
    import numpy as np

    from ..metrics.nist.tokens import corpus_keys, same_keys

    matrices, nrefs, known = [], [], None
    prepared: Any = None  # the references of the systems so far (``known``), counted
    for parts in systems:
        references, present, hypotheses = corpus_keys(parts)
        if known is None or not (np.array_equal(known[1], present) and same_keys(known[0], references)):
            if known is not None and paired:
                raise BleuInputError(
                    "the systems' shards hold different references: a paired test compares systems on one "
                    "reference corpus (count every system's shards against the same references)"
                )
            known, prepared = (references, present), metric.prepare_keys(references, present)  # once per corpus
        matrices.append(metric.key_statistics(prepared, hypotheses))
        nrefs.append(str(prepared.nrefs))
    return matrices, nrefs


def _merge_states(metric: Any, first: dict[str, Any], systems: dict[str, list[Any]], form: Form) -> int:
    """``merge`` of shards holding mergeable states (NIST's n-gram tables): each system's merged and
    scored (resamples read the shards' tokens instead: ``_state_rows``)."""
    from ..core.sums import merge_states

    try:
        states = {name: merge_states(map(metric.state_from_arrays, parts)) for name, parts in systems.items()}
    except KeyError as error:
        raise BleuInputError(f"a {first['metric']} shard lacks its state's {error} array") from None
    sizes = {name: metric.state_segments(state) for name, state in states.items()}
    if len(set(sizes.values())) > 1:
        raise BleuInputError(
            "the systems' shards cover different numbers of segments: "
            + ", ".join(f"{name} {size}" for name, size in sizes.items())
        )
    scores: list[Any] = []
    for state in states.values():
        score = metric.score_shard_state(state)
        scores.append(score.with_signature(score.signature.with_fields(nrefs=first["nrefs"])))
    print(render_scores([scores], list(states), form))
    return EXIT_OK
