"""``mtscore stats`` and ``mtscore merge``: a shard of a corpus counted where its files are, and the
shards scored together later, exactly as the whole corpus would have been.

``stats`` writes one ``.npz`` holding what the metric keeps of the shard's segments
(``Aggregation.shard_arrays``: their statistics; NIST, whose rows depend on the whole corpus, keeps
their tokens) and what made them (the metric, its options, references per segment, the system's
name, a hash of each reference line); ``merge`` refuses shards made with other metrics or options,
joins each system's shards in the order given (``Aggregation.joined_statistics``: the whole corpus's
statistics, as the in-memory API gives them), and scores them, with ``--confidence`` or a paired
test where asked (a paired test only for systems counted against the same references).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InputError
from ..metrics import METRICS, canonical, metric_class
from ..report import Form
from ..report.corpus import render_scores
from .common import EXIT_OK, Parser, UsageError, add_metric_options, check_counts, metric_keywords, read, write_file
from .modes import check_modes, merge_modes

FORMAT_VERSION = 4  # of the shard files (4: with their digest; 3: arrays by the metric); others are refused
_HASHES = ".reference_hashes"  # where _load puts them among a shard's arrays (no metric's name starts with ".")


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
    except InputError as error:
        raise UsageError(str(error)) from None
    references = [read(path) for path in args.refs]
    hypotheses = read(args.input)
    check_counts(args.refs, list(map(len, references)), [args.input], [len(hypotheses)])
    from ..core.inputs import check_references  # NumPy: not at --help
    from ..core.references import References

    arrays = metric.aggregation.shard_arrays(metric, hypotheses, references)
    meta = {
        "format": FORMAT_VERSION,
        "metric": args.metric,
        "options": options,
        "nrefs": metric.signature(References(check_references(references, len(hypotheses))).nrefs).info["nrefs"],
        "system": args.name or args.input,
        "named": args.name is not None,  # else named after its hypothesis file
        "sources": {"hypotheses": args.input, "references": args.refs},  # tells identical shards apart
    }
    import io

    import numpy as np

    data = io.BytesIO()
    named = {f"shard_{name}": values for name, values in arrays.items()}
    named["reference_hashes"] = _line_hashes(references)
    meta_text = json.dumps(meta)
    named |= {"meta": np.array(meta_text), "digest": np.array(_digest(meta_text, named))}
    np.savez(data, **named)  # type: ignore[arg-type]
    return write_file(args.output, data.getvalue(), "mtscore stats")


def _digest(meta_text: str, arrays: dict[str, Any]) -> str:
    """The BLAKE2b digest of a shard's description and arrays (each by name, type, shape and bytes):
    ``merge`` recomputes it to find a shard altered after ``stats`` wrote it, or given twice."""
    import hashlib

    import numpy as np

    digest = hashlib.blake2b(meta_text.encode("utf-8", "surrogatepass"), digest_size=16)
    for name in sorted(arrays):
        values = np.ascontiguousarray(arrays[name])
        digest.update(json.dumps([name, values.dtype.str, list(values.shape)]).encode("ascii"))
        digest.update(values.tobytes())
    return digest.hexdigest()


def _line_hashes(references: list[list[str]]) -> Any:
    """Each reference line's 64-bit BLAKE2b hash (streams x lines): joined over a system's shards,
    they say whether two systems were counted against the same references, however each was split."""
    import hashlib

    import numpy as np

    def hashed(line: str) -> bytes:
        return hashlib.blake2b(line.encode("utf-8", "surrogatepass"), digest_size=8).digest()

    blob = b"".join(hashed(line) for stream in references for line in stream)
    return np.frombuffer(blob, dtype="<u8").reshape(len(references), -1)


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
    add_significance_options(parser, baseline="the system of the first shard")
    return parser


def _load(path: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A shard's description, arrays by name and digest, or an input error saying what is wrong with
    the file: not a shard, of another format, altered since ``stats`` wrote it, or described wrongly."""
    import zipfile
    import zlib

    import numpy as np

    try:
        with open(path, "rb") as handle:
            if handle.read(4) != b"PK\x03\x04":  # what np.load would take for a pickle
                raise ValueError("not a .npz file")
        with np.load(path, allow_pickle=False) as data:
            meta_text = str(data["meta"])
            meta = json.loads(meta_text)
            if not isinstance(meta, dict):
                raise ValueError("its description is not a JSON object")
            if meta.get("format") != FORMAT_VERSION:
                raise InputError(
                    f"{path}: a shard of format {meta.get('format')}, this mtscore reads {FORMAT_VERSION} "
                    "(write it again with this mtscore's 'mtscore stats')"
                )
            stored = {name: data[name] for name in data.files if name not in ("meta", "digest")}
            digest = str(data["digest"])
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a shard (.npz)") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise InputError(f"{path}: not a shard written by 'mtscore stats' ({error})") from None
    if digest != _digest(meta_text, stored):
        raise InputError(
            f"{path}: its content does not match the digest 'mtscore stats' wrote with it: the shard was altered "
            "(count it again with 'mtscore stats')"
        )
    _rename_options(meta)
    problem = _description_problem(meta, stored)
    if problem:
        raise InputError(f"{path}: not a shard written by 'mtscore stats' ({problem})")
    arrays = {name[6:]: values for name, values in stored.items() if name.startswith("shard_")}
    arrays[_HASHES] = stored["reference_hashes"]
    return meta, arrays, digest


def _rename_options(meta: dict[str, Any]) -> None:
    """Give a shard's options their present names: a shard written before an option was renamed stores
    the old keyword (TER's and NIST's ``case_sensitive``, now ``lowercase``), and merges with the shards
    written since, which store the present name. An old value that is not a switch is left for the checks."""
    from ..core.options import is_switch_value
    from ..metrics import metric_renamed_options

    options = meta.get("options")
    if meta.get("metric") not in METRICS or not isinstance(options, dict):
        return
    renamed = {
        option.old: option
        for option in metric_renamed_options(meta["metric"])
        if option.old in options and option.new not in options and is_switch_value(options[option.old])
    }
    if renamed:  # each in the old one's place, so that messages list the options in their usual order
        meta["options"] = {
            renamed[name].new if name in renamed else name: renamed[name].new_value(bool(value))
            if name in renamed
            else value
            for name, value in options.items()
        }


def _description_problem(meta: dict[str, Any], arrays: dict[str, Any]) -> str | None:
    """What is wrong with a shard's description and reference hashes, if anything."""
    import numpy as np

    from ..metrics import metric_options

    if meta.get("metric") not in METRICS:
        return f"its description names no known metric: {meta.get('metric')!r}"
    options = meta.get("options")
    if not isinstance(options, dict):
        return f"its options are not a mapping of option names to values: {options!r}"
    declared = {option.name: option for option in metric_options(meta["metric"])}
    unknown = set(options) - set(declared)
    if unknown:
        return f"its options include {', '.join(map(repr, sorted(unknown)))}, which {meta['metric']} does not have"
    for name, value in options.items():
        if not _of_kind(value, declared[name].kind, declared[name].nargs is not None):
            return f"its option {name} is {value!r}, not a value of type {declared[name].kind.__name__}"
    nrefs = meta.get("nrefs")
    if not (isinstance(nrefs, str) and (nrefs.isdigit() or nrefs == "var")):
        return f"its number of references is {nrefs!r}, expected a number or 'var'"
    if not isinstance(meta.get("system"), str):
        return f"its system name is {meta.get('system')!r}, expected a string"
    hashes = arrays.get("reference_hashes")
    if hashes is None or hashes.dtype != np.dtype("<u8") or hashes.ndim != 2:
        return "its reference hashes are not a (streams x segments) array of 64-bit hashes"
    return None


def run_merge(argv: list[str]) -> int:
    import dataclasses  # here: it costs start-up time that --help need not pay

    args = build_merge_parser().parse_args(argv)
    from ..core.validation import check_count_array  # NumPy: not at --help

    given = merge_modes(args)  # checked before any shard is read
    loaded = [(path, *_load(path)) for path in args.shards]
    _refuse_repeated(loaded)
    shards = [(path, meta, arrays) for path, meta, arrays, _ in loaded]
    first_path, first, _ = shards[0]
    for path, meta, _ in shards[1:]:
        for key in ("metric", "options", "nrefs"):
            if meta[key] != first[key]:
                raise InputError(
                    f"{path} was counted with {key} {meta[key]!r} but {first_path} with {first[key]!r}: "
                    "shards merge only when made the same way"
                )
    try:
        metric = metric_class(first["metric"])(**first["options"])
    except (TypeError, ValueError) as error:
        raise InputError(f"{first_path}: its {first['metric']} options do not make a metric ({error})") from None
    for path, _, arrays in shards:
        try:
            metric.aggregation.check_shard_arrays(
                metric, {name: values for name, values in arrays.items() if name != _HASHES}
            )
        except InputError as error:
            raise InputError(f"{path}: not a shard 'mtscore stats' could have written: {error}") from None
    systems: dict[str, list[dict[str, Any]]] = {}
    hashes: dict[str, list[Any]] = {}
    for _, meta, arrays in shards:
        hashes.setdefault(meta["system"], []).append(arrays.pop(_HASHES))
        systems.setdefault(meta["system"], []).append(arrays)
    names = list(systems)
    modes = dataclasses.replace(given, metrics=(first["metric"],))
    paired = modes.paired
    check_modes(modes, len(names), [metric])
    form = Form(modes.format, modes.width, modes.score_only, False, modes.extended)
    try:
        matrices = metric.aggregation.joined_statistics(metric, list(systems.values()))
    except KeyError as error:
        raise InputError(f"a {first['metric']} shard lacks its {error} array") from None
    if metric.aggregation.additive:  # the shards kept rows: their sums must not overflow
        for name, matrix in zip(names, matrices, strict=True):
            try:
                check_count_array(matrix, "statistics", integers=metric.integer_statistics)
            except InputError as error:
                raise InputError(f"the shards of {name!r}, joined: {error}") from None
    hint = _unnamed_hint([meta for _, meta, _ in shards])
    if len({len(matrix) for matrix in matrices}) > 1:
        raise InputError(
            "the systems' shards cover different numbers of segments: "
            + ", ".join(f"{name} {len(matrix)}" for name, matrix in zip(names, matrices, strict=True))
            + hint
        )
    same_references = _same_references(list(hashes.values()))
    if len(names) > 1 and hint and not same_references:
        # equally long parts of one file, written without --name: they would print as several systems
        print(f"mtscore merge: warning: the systems hold different references{hint}", file=sys.stderr)
    if paired and not same_references:
        raise InputError(
            "the systems' shards hold different references: a paired test compares systems on one reference "
            "corpus (count every system's shards against the same references, split the same way)"
        )
    nrefs = first["nrefs"]
    if paired:
        from ..report.paired import render_paired
        from ..significance.paired import paired_test_statistics

        result = paired_test_statistics(
            {metric.name: metric},
            {metric.name: matrices},
            names,
            paired,
            modes.paired_n,
            modes.seed,
            modes.all_pairs,
        )
        signatures = {name: signature.with_fields(nrefs=nrefs) for name, signature in result.signatures.items()}
        print(render_paired(dataclasses.replace(result, signatures=signatures), form))
        return EXIT_OK
    scores: list[Any] = [metric.score_statistics(matrix, nrefs=nrefs) for matrix in matrices]
    if modes.confidence:
        from ..report.confidence import with_confidence

        scores = [
            with_confidence(metric, score, matrix, modes.confidence_n, modes.seed)
            for score, matrix in zip(scores, matrices, strict=True)
        ]
    print(render_scores([scores], names, form))
    return EXIT_OK


def _unnamed_hint(descriptions: list[dict[str, Any]]) -> str:
    """What to do when shards named after their hypothesis files (each then a system of its own) are
    the parts of one system."""
    unnamed = [meta["system"] for meta in descriptions if meta.get("named") is False]
    if len(unnamed) < 2:
        return ""
    return (
        f". Shards written without --name are named after their hypothesis files ({', '.join(unnamed[:3])}"
        f"{', ...' if len(unnamed) > 3 else ''}), so each is a system of its own: to merge the parts of one "
        "system, write each part with the same name (mtscore stats REF.PART -i HYP.PART --name SYSTEM -o PART.npz)"
    )


def _of_kind(value: Any, kind: type, several: bool) -> bool:
    """Whether ``value`` is a value the command line could give an option of ``kind`` (a list of them
    if ``several``); ``None``: not given."""
    if value is None:
        return True
    if several:
        return isinstance(value, list) and all(_of_kind(item, kind, False) for item in value)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _refuse_repeated(loaded: list[tuple[str, dict[str, Any], dict[str, Any], str]]) -> None:
    """Refuse a shard given twice (the same file, or a copy: the same digest), which would count its
    segments twice; shards of the same segments counted from other files differ in their digests."""
    seen: dict[str, str] = {}
    for path, _, _, digest in loaded:
        if digest in seen:
            again = "is given twice" if path == seen[digest] else f"is the same shard as {seen[digest]} (a copy)"
            raise InputError(f"{path} {again}: each shard's segments are merged once")
        seen[digest] = path


def _same_references(systems: list[list[Any]]) -> bool:
    """Whether every system's shards, joined, hold the same reference lines (by their hashes)."""
    import numpy as np

    joined = [np.concatenate(parts, axis=1) for parts in systems]
    return all(part.shape == joined[0].shape and np.array_equal(part, joined[0]) for part in joined[1:])
