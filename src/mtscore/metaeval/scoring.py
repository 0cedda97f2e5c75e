"""Metric scores to meta-evaluate: mtscore's metrics scored on every selected system, and scores
computed elsewhere (COMET, BLEURT, an LLM judge) read from mt-metrics-eval's score files.

Scores are oriented so that higher is better: a metric whose lower scores are better (TER) is
negated, as mt-metrics-eval's data does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, counted
from ..external.files import read_tsv_scores
from ..files.read import read_lines
from ..metrics import METRICS, canonical, metric_class
from .data import EvalSet, Scores, parse_score_lines

# Metric names the meta-evaluation takes beside the registry's: a variant with its own options.
VARIANTS = {"chrf++": ("chrf", {"word_order": 2})}
_SCORE_FILE = re.compile(r"^(?P<name>.+?)(?:-(?P<refs>[^-]+))?\.(?P<level>sys|seg)\.score$")


@dataclass
class MetricScores:
    """One metric's scores, higher is better.

    Attributes:
        name: How results name the metric (mtscore's column name, or the score file's metric name).
        sys: System -> its corpus score (empty when not available at system level).
        seg: System -> its segment scores (empty when not available at segment level).
        signature: The metric's reproducibility signature, for mtscore's metrics.
        source: Where the scores come from: ``mtscore`` or the score files.
    """

    name: str
    sys: dict[str, float] = field(default_factory=dict)
    seg: dict[str, np.ndarray] = field(default_factory=dict)
    signature: str = ""
    source: str = "mtscore"

    def level(self, level: str) -> Mapping[str, Any]:
        """The scores at ``level`` (``sys`` or ``seg``)."""
        return self.sys if level == "sys" else self.seg


def metric_spec(name: str, options: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The registry name and options of ``name`` (a metric name, or a variant such as ``chrf++``)."""
    base, extra = VARIANTS.get(name.lower(), (name, {}))
    if canonical(base) not in METRICS:
        raise InputError(f"unknown metric {name!r}; metrics: {', '.join([*METRICS, *VARIANTS])}")
    return base, {**(options or {}), **extra}


def score_metric(
    name: str, options: Mapping[str, Any] | None, evs: EvalSet, reference: str, systems: Sequence[str]
) -> MetricScores:
    """Score ``systems`` of ``evs`` against ``reference`` with mtscore's metric ``name``.

    Args:
        name: A metric of the registry (``bleu``, ``chrf``, ``ter`` ...) or ``chrf++``.
        options: The metric's constructor options.
        evs: The data.
        reference: The reference to score against.
        systems: The systems to score.

    Returns:
        The corpus score of each system and its segments' scores (sacrebleu's ``sentence_score``),
        negated for a metric whose lower scores are better.
    """
    base, keywords = metric_spec(name, options)
    cls = metric_class(base)
    metric = cls([evs.references[reference]], **keywords)
    sign = 1.0 if cls.higher_is_better else -1.0
    result = MetricScores(metric.name, signature=str(metric.signature()))
    segment_metric = metric.segment_metric()
    for system in systems:
        statistics = metric.segment_statistics(evs.outputs[system])
        result.sys[system] = sign * float(metric.score_statistics(statistics).score)
        result.seg[system] = sign * np.asarray(segment_metric.scores_of_sums(statistics), dtype=np.float64)
    return result


def read_scores_files(paths: Sequence[str | Path], evs: EvalSet, reference: str) -> list[MetricScores]:
    """Metrics from score files computed elsewhere: mt-metrics-eval's ``<metric>-<ref>.<sys|seg>.score``
    (``<system> <score>`` per line; ``.seg.score``: one line per segment of each system, in order), or
    TSV files (any other name) of ``system TAB segment TAB score`` (segment level, segments from 1) or
    ``system TAB score`` (system level), named by the file's base name less its extension and less a
    ``.seg`` or ``.sys`` before it (``COMET.seg.tsv`` and ``COMET.sys.tsv``: ``COMET``). A metric's system-
    and segment-level files make one metric.

    Args:
        paths: The score files.
        evs: The data whose systems and segments the scores must fit.
        reference: The standard reference: a metric computed against another one is refused.

    Returns:
        One ``MetricScores`` per metric name, in the order first seen.

    Raises:
        InputError: a malformed file, a metric given twice at one level, scores against another
            reference, or scores for systems without output.
    """
    metrics: dict[str, MetricScores] = {}
    for path in map(Path, paths):
        if not path.is_file():
            raise InputError(f"{path}: no such score file")
        match = _SCORE_FILE.match(path.name)
        if match:
            name, level = _score_file_metric(path, match, evs, reference)
            values = parse_score_lines(path, allow_none=False)
        else:
            name = _tsv_metric_name(path)
            lines = read_lines(path)
            if not lines:
                raise InputError(f"{path} is empty: no scores")
            level, values = read_tsv_scores(path, lines, allow_none=False)
        scores = metrics.setdefault(name, MetricScores(name, source=str(path)))
        if scores.level(level):
            raise InputError(f"{path}: {level}-level scores of {name!r} given twice")
        _check_systems(path, values, evs, level, scores)
    return list(metrics.values())


def _score_file_metric(path: Path, match: re.Match[str], evs: EvalSet, reference: str) -> tuple[str, str]:
    """The metric name and level of an mt-metrics-eval score file, its reference checked."""
    name, refs, level = match["name"], match["refs"], match["level"]
    if refs not in (None, "src", reference) and refs not in evs.references:
        name, refs = f"{name}-{refs}", None  # a hyphen in the metric's own name
    if refs not in (None, "src", reference):
        raise InputError(
            f"{path} holds scores against reference {refs!r}, but the standard reference is {reference!r}: "
            "a metric must use the reference that is left out of the systems"
        )
    return name, level


def _tsv_metric_name(path: Path) -> str:
    """A TSV score file's metric: its base name less compression, extension, and ``.seg``/``.sys``."""
    name = path.name
    for suffix in (".gz", ".bz2", ".xz"):
        name = name.removesuffix(suffix)
    name = Path(name).stem or name
    for level in (".seg", ".sys"):
        name = name.removesuffix(level)
    if not name:
        raise InputError(f"{path}: the file's name gives the metric its name; this one is empty")
    return name


def _check_systems(path: Path, values: Scores, evs: EvalSet, level: str, scores: MetricScores) -> None:
    expected = 1 if level == "sys" else len(evs.sources)
    for system, numbers in values.items():
        if system not in evs.outputs:
            raise InputError(f"{path} has scores for {system!r}, which has no output in system-outputs/{evs.lp}/")
        if len(numbers) != expected:
            raise InputError(
                f"{path} has {counted(len(numbers), 'score')} for {system!r}; expected {expected} at {level} level"
            )
        if level == "sys":
            scores.sys[system] = float(numbers[0])  # type: ignore[arg-type]
        else:
            scores.seg[system] = np.asarray(numbers, dtype=np.float64)
