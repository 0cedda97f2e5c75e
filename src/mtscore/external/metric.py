"""``ExternalScores``: a metric whose segment scores come from a file (COMET, BLEURT, an LLM judge,
MQM), with the mean as its corpus score, so every tool of mtscore that takes a metric takes it.

A segment's statistics are ``[score, 1]``, or ``[0, 0]`` for a segment nobody rated (``None``), so a
sum of rows is (the sum of the rated scores, their number) and the corpus score of any resample is
the mean of its rated segments, as a bootstrap or randomization test needs. The score of a resample
without a rated segment is NaN (there is nothing to average).

A metric of text is given lines only; the file names systems. ``name_systems`` tells the metric which
system each output is (the command line passes each ``-i`` file's path, base name and base name less
its extension, so ``system-outputs/en-de/ONLINE-A.txt`` finds mt-metrics-eval's ``ONLINE-A``); asked
for the statistics of lines, it finds the system given those very lines, or lines equal to them.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.aggregation import Additive, AggregatedMetric
from ..core.inputs import check_hypotheses, check_references
from ..core.metric import Metric
from ..core.references import References
from ..core.score import ScoreResult
from ..core.signature import Signature, tool_signature
from ..errors import InputError, LengthMismatchError, counted
from .files import read_segment_scores

COLUMNS = ("score", "rated")
SystemNames = str | tuple[str, ...]  # a system's name, or names to try in order


@dataclass(frozen=True)
class ExternalScore(ScoreResult):
    """A system's corpus score from a score file: the mean of its rated segments' scores.

    Attributes:
        score: The mean.
        rated: The segments with a score (those left out were not rated: ``None``).
        segments: All segments.
        signature: The file and its contents' digest, for reproducibility.
        name: The metric's name (the file's, unless given).
    """

    score: float
    rated: int
    segments: int
    signature: Signature = field(compare=False)
    name: str = "scores"

    dict_fields = ("rated", "segments")  # the segments the mean averages


def metric_name(path: str | os.PathLike[str]) -> str:
    """A score file's metric name: its base name less ``.seg.score`` or its last extension
    (``COMET-refA.seg.score``: ``COMET-refA``; ``comet.tsv``: ``comet``)."""
    name = Path(path).name
    if name.endswith(".seg.score"):
        return name[: -len(".seg.score")]
    return Path(name).stem or name


def file_names(path: str) -> tuple[str, ...]:
    """The names a system output file may have in a score file: its path as given, its base name, and
    its base name less the last extension (mt-metrics-eval's ``<system>.txt``), each once."""
    base = os.path.basename(path) or path
    return tuple(dict.fromkeys([path, base, Path(base).stem or base]))


@dataclass(frozen=True)
class ScoreRows(Additive):
    """Rows that add up, but hold scores of any sign, not counts: a score and 1, or 0 and 0 (not rated)."""

    def empty_shard_state(self, metric: AggregatedMetric) -> np.ndarray:
        """No segments: zero sums and a count of 0."""
        return np.zeros(len(COLUMNS) + 1, dtype=np.float64)

    def check_statistics(self, metric: AggregatedMetric, rows: Any) -> None:
        """Rows of two finite numbers: a score and 1, or 0 and 0 (not rated)."""
        rows = np.asarray(rows)
        if rows.ndim != 2 or rows.shape[1] != len(COLUMNS) or rows.dtype.kind not in "iuf":
            raise InputError(
                f"{metric.name} statistics have {len(COLUMNS)} numbers per segment, got shape {rows.shape}"
            )
        if not np.isfinite(rows).all():
            raise InputError(f"{metric.name} statistics must be finite numbers, got inf or NaN")
        rated = rows[:, 1]
        if not np.isin(rated, (0, 1)).all() or (rows[rated == 0, 0] != 0).any():
            raise InputError(f"{metric.name} statistics are a score and 1, or 0 and 0 for a segment not rated")


class ExternalScores(Metric[References, ExternalScore]):
    """Segment scores read from a file (``read_segment_scores``), averaged over each system's rated
    segments; name the systems (``name_systems``) before scoring their outputs.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "judge.seg.score")
    >>> _ = open(path, "w").write("A 0.5\\nA 0.75\\nA None\\n")
    >>> metric = ExternalScores(path)
    >>> metric.name_systems({"A": ["x", "y", "z"]})
    >>> metric.corpus_score(["x", "y", "z"]).score
    0.625
    """

    # Scores are looked up per system in memory, not counted block by block.
    aggregation = ScoreRows(streams=False)

    corpus_summary = "The mean of the segment scores a file gives the system of ``hypotheses``."
    integer_statistics = False

    def __init__(self, scores_file: str | os.PathLike[str], references: Any = None, *, name: str | None = None):
        """Read ``scores_file``.

        Args:
            scores_file: mt-metrics-eval's ``.seg.score`` file or a TSV file of system, segment, score.
            references: Reference streams, only to check segment counts (the scores need none).
            name: The metric's name in results (default: the file's name less its extension).

        Raises:
            InputError: a bad score file (``read_segment_scores``) or an empty name.
        """
        self.path = os.fspath(scores_file)
        self.scores = read_segment_scores(self.path)
        self.name = metric_name(self.path) if name is None else name
        if not self.name.strip():
            raise InputError(f"the name of the scores of {self.path} is empty")
        with open(self.path, "rb") as file:
            self.digest = hashlib.sha256(file.read()).hexdigest()[:12]
        self._named: list[tuple[str, Sequence[str], np.ndarray]] = []
        super().__init__(references)

    @property
    def on_unit_scale(self) -> bool:
        """Whether every score lies in [-1, 1] (COMET, BLEURT, a probability): one decimal would hide them."""
        return all(-1.0 <= value <= 1.0 for values in self.scores.values() for value in values if value is not None)

    def name_systems(
        self, systems: Mapping[SystemNames, Sequence[str]], kept: Sequence[bool] | None = None, kept_by: str = ""
    ) -> None:
        """Say which system each output is: its name in the file (or names to try, first found wins)
        -> its lines, whose number must be the number of scores the file gives it.

        Args:
            systems: Each system's names to try -> its lines.
            kept: For outputs cut to some segments of a test set (``--subset``, ``--origlang``): which
                segments of the whole test set they keep. A file that scores every segment of the whole
                test set then gives the kept segments' scores.
            kept_by: What kept them, for messages (``--origlang de``).

        Raises:
            InputError: a system the file has no scores for, or a different number of segments.
        """
        for names, lines in systems.items():
            candidates = (names,) if isinstance(names, str) else tuple(names)
            found = next((name for name in candidates if name in self.scores), None)
            if found is None:
                raise InputError(
                    f"{self.path} has no scores for the system {candidates[0]!r}"
                    + (f" (nor {', '.join(map(repr, candidates[1:]))})" if len(candidates) > 1 else "")
                    + f"; it scores {_listed(self.scores)}"
                )
            values = self.scores[found]
            if kept is not None and len(values) == len(kept) != len(lines):
                values = [value for value, keep in zip(values, kept, strict=True) if keep]
            if len(values) != len(lines):
                cut = (
                    ""
                    if kept is None
                    else (
                        f" ({kept_by or 'a filter'} keeps {len(lines)} of the test set's {len(kept)} segments: give a "
                        "score per segment of the whole test set, or per kept segment)"
                    )
                )
                raise InputError(
                    f"{self.path} has {counted(len(values), 'segment score')} for {found!r}, but its output has "
                    f"{counted(len(lines), 'line')}{cut}"
                )
            self._named.append((found, lines, _rows(values)))

    def system_statistics(self, system: str) -> np.ndarray:
        """The statistics of the system called ``system`` in the file, without its output."""
        if system not in self.scores:
            raise InputError(f"{self.path} has no scores for the system {system!r}; it scores {_listed(self.scores)}")
        return _rows(self.scores[system])

    def prepare(self, references: Any, n_hypotheses: int | None = None) -> References:
        """Check the reference streams (only their segment count matters here)."""
        return References(check_references(references, n_hypotheses))

    def _resolve(self, hypotheses: Any, references: Any) -> tuple[References, Any]:
        """No references are needed; those given (now or at creation) must have as many segments."""
        check_hypotheses(hypotheses)
        prepared = self.prepare(references, len(hypotheses)) if references is not None else self._references
        if prepared is not None and prepared.n_segments != len(hypotheses):
            raise LengthMismatchError(
                f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')} but the references have "
                f"{counted(prepared.n_segments, 'segment')}"
            )
        return prepared or References(np.ones((1, len(hypotheses)), dtype=bool)), hypotheses

    def _statistics(self, prepared: References, hypotheses: Sequence[str]) -> np.ndarray:
        """The named system's rows: the one given these very lines, else one given equal lines."""
        for _, lines, rows in self._named:
            if lines is hypotheses:
                return rows
        matches = [(name, rows) for name, lines, rows in self._named if _equal(lines, hypotheses)]
        if not matches:
            named = _listed({name: None for name, _, _ in self._named}) if self._named else "none yet"
            raise InputError(
                f"{self.name}: these hypotheses are not the output of a system named with its scores from "
                f"{self.path} (named: {named}); name the systems first (name_systems)"
            )
        if any(not np.array_equal(rows, matches[0][1]) for _, rows in matches[1:]):
            raise InputError(
                f"{self.name}: {', '.join(name for name, _ in matches)} have the same output but different scores "
                f"in {self.path}: give them as separate lists, or score them one by one"
            )
        return matches[0][1]

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The mean of each row of summed statistics: the sum of scores over the rated segments (NaN
        where none is rated)."""
        sums = np.asarray(sums, dtype=np.float64)
        total, rated = sums[..., 0], sums[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(rated > 0, total / np.where(rated > 0, rated, 1), np.nan)

    def statistic_names(self) -> tuple[str, ...]:
        """The segment's score (0 when not rated) and whether it was rated (1 or 0)."""
        return COLUMNS

    def statistics_width(self) -> int:
        return len(COLUMNS)

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature({"nrefs": str(nrefs), "file": os.path.basename(self.path), "sha256": self.digest})

    def _score(self, statistics: np.ndarray, references: References | None) -> ExternalScore:
        statistics = np.asarray(statistics, dtype=np.float64)
        sums = statistics.sum(axis=0)
        if sums[1] == 0:
            raise InputError(f"{self.name}: none of these {counted(len(statistics), 'segment')} has a score")
        mean = float(self.scores_of_sums(sums))
        return ExternalScore(mean, int(sums[1]), len(statistics), self.signature_of(references), self.name)


def _rows(values: Sequence[float | None]) -> np.ndarray:
    rows = np.zeros((len(values), len(COLUMNS)), dtype=np.float64)
    for index, value in enumerate(values):
        if value is not None:
            rows[index] = (value, 1.0)
    return rows


def _equal(lines: Sequence[str], other: Sequence[str]) -> bool:
    return len(lines) == len(other) and all(a == b for a, b in zip(lines, other, strict=True))


def _listed(names: Iterable[str]) -> str:
    shown = list(names)
    return ", ".join(shown[:10]) + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")


def name_systems(
    metrics: Iterable[Metric],
    names: Sequence[SystemNames],
    systems: Sequence[Sequence[str]],
    kept: Sequence[bool] | None = None,
    kept_by: str = "",
) -> None:
    """Tell every ``ExternalScores`` among ``metrics`` which system each of ``systems`` is (``kept``,
    ``kept_by``: see ``ExternalScores.name_systems``)."""
    for metric in metrics:
        if isinstance(metric, ExternalScores):
            metric.name_systems(dict(zip(names, systems, strict=True)), kept, kept_by)
