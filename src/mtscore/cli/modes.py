"""``Modes``: what a scoring command (``mtscore``, ``mtscore merge``) asks for besides its metrics, resolved
once from the parsed arguments into a value: the output format (sacrebleu's ways of choosing it
included), progress bars, the encoding, significance tests and their sizes. The arguments themselves are
never changed; the checks of combinations that cannot work are made here, once, for both commands.
"""

from __future__ import annotations

import argparse
import codecs
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .common import UsageError

SACREBLEU_FORMATS = ("json", "text", "latex")  # $SACREBLEU_FORMAT's choices, as sacrebleu reads it
SACREBLEU_METRICS = frozenset({"bleu", "chrf", "ter"})  # only these: sacrebleu's output, byte for byte
MAX_WIDTH = 20  # -w: decimals beyond a double's 17 significant digits are noise (and -w 10**9 a 1 GB line)
# -cin, -pbsn, -parn: time and memory grow with them (100x and 10x sacrebleu's defaults)
MAX_RESAMPLES = 100_000


@dataclass(frozen=True)
class Modes:
    """A scoring command's modes. ``paired``: ``"bs"``, ``"ar"`` or ``None``; ``metrics``: the metrics'
    command-line names, in the order given; ``progress``: whether progress bars may be shown."""

    metrics: tuple[str, ...]
    format: str
    width: int
    score_only: bool
    encoding: str = "utf-8"
    progress: bool = True
    sentence_level: bool = False
    confidence: bool = False
    confidence_n: int = 1000
    paired: str | None = None
    paired_n: int = 1000
    all_pairs: bool = False
    comparisons: bool = False
    seed: Any = None
    scores_files: tuple[str, ...] = ()  # --scores-file: metrics of scores computed elsewhere

    @property
    def extended(self) -> bool:
        """Whether the output takes this project's fuller forms, not sacrebleu's: pairs beyond the
        baseline's, comparisons, or a metric sacrebleu does not have."""
        return (
            self.all_pairs or self.comparisons or bool(self.scores_files) or not set(self.metrics) <= SACREBLEU_METRICS
        )


def _paired(args: argparse.Namespace) -> tuple[str | None, int]:
    if args.paired_bs:
        return "bs", args.paired_bs_n
    if args.paired_ar:
        return "ar", args.paired_ar_n
    return None, args.paired_bs_n


def _format(args: argparse.Namespace) -> str:
    """``-f``, else ``$SACREBLEU_FORMAT``, else JSON; sacrebleu prints ``-sl`` and ``-d`` as text."""
    if args.format is not None:
        chosen = args.format
    else:
        from_environment = os.environ.get("SACREBLEU_FORMAT", "").lower()
        chosen = from_environment if from_environment in SACREBLEU_FORMATS else "json"
        if args.sentence_level and chosen == "json":
            return "text"
    if getattr(args, "detail", False) and chosen == "json" and not args.sentence_level:
        return "text"
    return chosen


def _encoding(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise UsageError(f"unknown encoding {name!r} (--encoding)") from None


def _tests(args: argparse.Namespace) -> dict[str, Any]:
    """The significance options both commands share, as ``Modes`` fields."""
    paired, paired_n = _paired(args)
    return {
        "confidence": args.confidence,
        "confidence_n": args.confidence_n,
        "paired": paired,
        "paired_n": paired_n,
        "all_pairs": args.all_pairs,
        "comparisons": args.comparisons,
        "seed": args.seed,
    }


def scoring_modes(args: argparse.Namespace) -> Modes:
    """The modes of ``mtscore REF -i HYP ...``, checked for their own values."""
    modes = Modes(
        metrics=tuple(dict.fromkeys(args.metrics)),
        format=_format(args),
        width=args.width,
        score_only=args.score_only,
        encoding=_encoding(args.encoding),
        progress=not (args.no_progress or args.quiet),
        sentence_level=args.sentence_level,
        scores_files=tuple(getattr(args, "scores_file", None) or ()),
        **_tests(args),
    )
    _check_values(modes, args)
    return modes


def merge_modes(args: argparse.Namespace, metric: str | None = None) -> Modes:
    """The modes of ``mtscore merge``: corpus scores of shards of ``metric`` (known once a shard is read)."""
    modes = Modes(
        metrics=() if metric is None else (metric,),
        format=args.format,
        width=args.width,
        score_only=args.score_only,
        progress=not args.no_progress,
        **_tests(args),
    )
    _check_values(modes, args)
    return modes


def _check_values(modes: Modes, args: argparse.Namespace) -> None:
    if not 0 <= modes.width <= MAX_WIDTH:
        raise UsageError(f"--width must be 0 or more and at most {MAX_WIDTH} (a score has about 17 significant digits)")
    for option in ("confidence_n", "paired_bs_n", "paired_ar_n"):
        if not 1 <= getattr(args, option) <= MAX_RESAMPLES:
            raise UsageError(
                f"--{option.replace('_', '-')} must be 1 or more and at most {MAX_RESAMPLES:,} (time and memory "
                "grow with it; sacrebleu's defaults are 1,000 resamples and 10,000 trials)"
            )
    from ..significance.resampling import resolve_seed

    try:
        resolve_seed(modes.seed)
    except Exception as error:  # InputError: a seed that is not a number or "none"
        raise UsageError(str(error)) from None


def check_modes(modes: Modes, n_systems: int, metrics: Sequence[Any]) -> None:
    """Combinations of modes that cannot work, as usage errors before any file is read; ``metrics``:
    the metric objects, for what their results can list."""
    if modes.paired and n_systems < 2:
        raise UsageError("paired tests need two or more systems after -i (the first is the baseline)")
    if modes.paired and modes.confidence:
        raise UsageError(
            "--confidence goes with single-system scores; paired bootstrap already gives each system's interval"
        )
    if modes.all_pairs and not modes.paired:
        raise UsageError("--all-pairs goes with --paired-bs or --paired-ar")
    if modes.comparisons and not modes.paired:
        raise UsageError("--comparisons goes with --paired-bs or --paired-ar")
    if modes.sentence_level and (modes.paired or modes.confidence):
        raise UsageError("significance tests and confidence intervals are for corpus scores, not -sl")
    if modes.sentence_level and len(metrics) > 1:
        raise UsageError("-sl scores segments with one metric at a time: give one name after -m")
    if modes.format == "tsv" and not modes.score_only:
        # TSV lists one metric's statistics: its results' fields (BLEU), or with -sl its named columns
        if len(metrics) > 1:
            raise UsageError("-f tsv lists the statistics of one metric: give one name after -m")
        if not metrics[0].tsv_fields and not (modes.sentence_level and metrics[0].statistic_names()):
            raise UsageError(
                f"-f tsv of corpus scores lists BLEU's statistics; for {metrics[0].name}, use -f text or json, "
                "or -sl -f tsv for each segment's statistics"
            )
