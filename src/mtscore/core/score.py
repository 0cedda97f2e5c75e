"""The score base every result shares (sacrebleu's text line and JSON object), a bare named
score, and what ``-sl`` lists for a system (``SegmentResults``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

from .signature import Signature

ResultT = TypeVar("ResultT", bound="ScoreResult")


class ScoreResult:
    """A metric's result, of a corpus or of one segment: ``name``, ``score``, ``signature`` and, for
    BLEU, ``verbose`` details (precisions and lengths), written as sacrebleu's text line and JSON
    object; the base of every metric's result class."""

    # Set by each result (a dataclass) as its own fields.
    name: str
    score: float
    signature: Signature
    # What ``to_dict`` lists after the name and score: the result's own attributes, in order, each
    # under its name unless ``dict_keys`` gives another key.
    dict_fields: ClassVar[tuple[str, ...]] = ()
    dict_keys: ClassVar[Mapping[str, str]] = {}
    # Whether ``to_dict`` starts with the metric's name: False for a result whose keys are exactly
    # sacrebleu's (BLEU, TER), as the command line's JSON lines print them.
    dict_has_name: ClassVar[bool] = True

    @property
    def verbose(self) -> str:
        """Details after the score (BLEU's precisions and lengths); none by default."""
        return ""

    def with_signature(self: ResultT, signature: Signature) -> ResultT:
        """The same result with another signature (results are frozen: this is a copy)."""
        result = copy.copy(self)
        object.__setattr__(result, "signature", signature)
        return result

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str:
        """``NAME[|signature] = 48.53[ details]``, or the number alone."""
        number = f"{self.score:.{width}f}"
        if score_only:
            return number
        name = f"{self.name}|{signature}" if signature else self.name
        return f"{name} = {number} {self.verbose}" if self.verbose else f"{name} = {number}"

    def to_json(self, width: int = 2) -> str:
        """name, score, signature, verbose_score (if any), then each signature field."""
        data = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": str(self.signature)}
        if self.verbose:
            data["verbose_score"] = self.verbose
        return json.dumps(data | self.signature.info, indent=1, ensure_ascii=False)

    def to_dict(self) -> dict:
        """The numbers at full precision: the metric's name (unless ``dict_has_name`` is False), the
        score, then the result's ``dict_fields``."""
        fields = {self.dict_keys.get(field, field): getattr(self, field) for field in self.dict_fields}
        return {**({"name": self.name} if self.dict_has_name else {}), "score": self.score, **fields}

    def __str__(self) -> str:
        return self.format()


def __getattr__(name: str) -> Any:
    """``SacrebleuFormat``, the old name of ``ScoreResult`` (docs/plugins.md named it), kept for one
    release with a warning."""
    if name == "SacrebleuFormat":
        from .deprecation import warn_renamed

        warn_renamed("mtscore.core.score.SacrebleuFormat", "mtscore.core.score.ScoreResult")
        return ScoreResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class NamedScore(ScoreResult):
    """A score under a metric's name, without details: a segment's score of a metric whose
    segment results carry no statistics."""

    def __init__(self, name: str, score: float, signature: Signature):
        self.name, self.score, self.signature = name, score, signature


class SegmentResults(NamedTuple):
    """One system's results as ``-sl`` lists them: each segment's, then the corpus's (of the same
    kind, so their rows have the same fields). ``segment_signature`` is set by a metric that scores
    segments with options of their own (``Metric.segment_metric``)."""

    segments: Sequence[ScoreResult]
    corpus: ScoreResult
    segment_signature: Signature | None = None
    # Each segment's statistics under their column names (``Metric.statistic_names``), for TSV rows.
    statistics: Any = None
    columns: tuple[str, ...] = ()
