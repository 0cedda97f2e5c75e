"""What sacrebleu's metric classes and results add over mtscore's: ``corpus_score(...,
n_bootstrap=)``, ``get_signature``, and results whose ``repr`` is their line and whose
``format(is_json=True)`` is sacrebleu's JSON; and the names of ``sacrebleu.metrics.base``
(``Score``: every result's base, ``Signature``, ``Metric``: every metric's)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ...core.metric import keeps_plain_path
from ...core.score import ScoreResult as Score
from ...core.signature import Signature
from ...errors import InputError
from ...report.confidence import Confident, with_confidence

__all__ = ["ConfidentScore", "Metric", "SacrebleuMethods", "SacrebleuScore", "Score", "Signature"]


def _json(name: str, score: float, verbose: str, signature: str, width: int, mean: float, ci: float) -> str:
    """sacrebleu's JSON object of a result: name, score, signature, the bootstrap interval (when
    there is one), the details, then each field of the given signature."""
    data: dict[str, Any] = {"name": name, "score": float(f"{score:.{width}f}"), "signature": signature}
    if mean > 0:
        data["confidence_mean"] = float(f"{mean:.{width}f}")
        data["confidence_var"] = float(f"{ci:.{width}f}")
        data["confidence"] = f"μ = {mean:.{width}f} ± {ci:.{width}f}"
    if verbose:
        data["verbose_score"] = verbose
    for field in filter(None, signature.split("|")):
        key, value = field.split(":")
        data[key] = value
    return json.dumps(data, indent=1, ensure_ascii=False)


class SacrebleuScore:
    """Mixed in before an mtscore result (a dataclass): sacrebleu's ``format`` (with ``is_json``),
    ``repr`` as that line, and its ``_mean``/``_ci`` (-1: not bootstrapped) and ``_verbose``."""

    name: str
    score: float
    verbose: str
    _mean: ClassVar[float] = -1.0
    _ci: ClassVar[float] = -1.0

    @property
    def _verbose(self) -> str:
        return self.verbose

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """``NAME[|signature] = 48.53[ details]``, the number alone, or (``is_json``) the JSON object."""
        if is_json and not score_only:
            return _json(self.name, self.score, self.verbose, signature, width, self._mean, self._ci)
        return super().format(width, score_only, signature)  # type: ignore[misc]

    def __repr__(self) -> str:
        return self.format()


class ConfidentScore(Confident):
    """A bootstrapped result as sacrebleu gives it: the result's fields (``counts``, ...), its
    ``_mean``/``_ci``, and ``format`` with ``is_json``; ``repr`` is its line."""

    def __getattr__(self, name: str) -> Any:
        if name == "score_object":  # not yet set (copying): no delegation
            raise AttributeError(name)
        return getattr(self.score_object, name)

    @property
    def _mean(self) -> float:
        return self.mean

    @property
    def _ci(self) -> float:
        return self.ci

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """The line with ``μ = mean ± ci`` after the score, the number with it, or the JSON object."""
        if is_json and not score_only:
            return _json(self.name, self.score, self.score_object.verbose, signature, width, self.mean, self.ci)
        return super().format(width, score_only, signature)

    def __repr__(self) -> str:
        return self.format()


class SacrebleuMethods:
    """Mixed in before an mtscore metric: sacrebleu's ``corpus_score(..., n_bootstrap=)`` and
    ``get_signature``, and its results as ``result_type`` (the drop-in's result class)."""

    result_type: ClassVar[type]
    # Set by a bootstrapped ``corpus_score`` and then in ``get_signature`` (``bs``, ``seed``), as sacrebleu's.
    n_bootstrap: int | None = None
    seed: str | None = None
    # References per segment of the references prepared last (at creation, or given with a call), as
    # sacrebleu's signature reports them; None until references are seen.
    num_refs: int | str | None = None

    @keeps_plain_path
    def prepare(self, references: Any, *args: Any, **kwargs: Any) -> Any:
        """The metric's ``prepare``, noting how many references per segment were prepared."""
        prepared = super().prepare(references, *args, **kwargs)  # type: ignore[misc]
        self._references_seen(prepared.nrefs)
        return prepared

    def _references_seen(self, nrefs: int | str) -> None:
        self.num_refs = nrefs

    @keeps_plain_path
    def _score(self, statistics: np.ndarray, references: Any) -> Any:
        return self._returned(super()._score(statistics, references))  # type: ignore[misc]

    def _returned(self, result: Any) -> Any:
        """The mtscore result as the drop-in's ``result_type``."""
        return self.result_type(**{field.name: getattr(result, field.name) for field in dataclasses.fields(result)})

    def corpus_score(self, hypotheses: Sequence[str], references: Any = None, n_bootstrap: int = 1) -> Any:
        """The corpus score; with ``n_bootstrap`` > 1, also its bootstrap mean and 95% interval."""
        score = super().corpus_score(hypotheses, references)  # type: ignore[misc]
        if n_bootstrap <= 1:
            return score
        statistics = self.segment_statistics(hypotheses, references)  # type: ignore[attr-defined]
        found = with_confidence(self, score, statistics, n_bootstrap, None)  # type: ignore[arg-type]
        self.n_bootstrap, self.seed = n_bootstrap, found.signature.info["seed"]
        return ConfidentScore(found.score_object, found.mean, found.ci)

    def get_signature(self) -> Signature:
        """The reproducibility signature (sacrebleu's name for ``signature()``), with ``bs`` and
        ``seed`` once a corpus was scored with bootstrap resampling.

        As sacrebleu's, its ``nrefs`` is that of the references seen last: those given at creation,
        or with the latest call that gave references (a call without them changes nothing).

        Raises:
            InputError: no references were seen yet, so their number is unknown (sacrebleu
                raises ``ValueError``, which this error is).
        """
        if self.num_refs is None:
            raise InputError(
                "the number of references is unknown: give references when creating the metric, or score "
                "with it first (corpus_score or sentence_score)"
            )
        signature: Signature = self.signature(self.num_refs)  # type: ignore[attr-defined]
        if self.n_bootstrap is None or self.seed is None:
            return signature
        return signature.with_fields(bs=str(self.n_bootstrap), seed=self.seed)


# sacrebleu's base class of BLEU, CHRF and TER: here the part every drop-in metric mixes in.
Metric = SacrebleuMethods
