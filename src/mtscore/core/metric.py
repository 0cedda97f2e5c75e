"""``Metric``: the flow every metric shares, written once.

A metric turns each segment into a row of additive sufficient statistics (``segment_statistics``);
a corpus score is a function of the column sums (``scores_of_sums``), so bootstrap resamples,
randomization trials, shards and streamed blocks are just other sums. A subclass declares its
options, prepares references (``prepare``), computes the rows (``_statistics``), and turns sums
into scores and results; references given at creation are prepared once for every system.
"""

from __future__ import annotations

import functools
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from ..errors import InputError, LengthMismatchError, counted
from .aggregation import ADDITIVE, CORPUS_WEIGHTED, Aggregation
from .inputs import check_hypotheses, check_sentence, is_sequence, references_for
from .options import Option, RenamedOption, check_integers, check_switches, replace_renamed
from .references import PreparedT
from .score import NamedScore, ScoreResult, SegmentResults
from .signature import Signature
from .stats import Statistics, check_same_settings
from .validation import RowCheck, check_scored_statistics

ScoreT = TypeVar("ScoreT", bound=ScoreResult)
FunctionT = TypeVar("FunctionT", bound=Callable[..., Any])


def keeps_plain_path(method: FunctionT) -> FunctionT:
    """Mark an override of ``prepare`` or ``_score`` whose change is also made by ``_returned`` and
    ``_references_seen``, so that a metric's plain-Python path (``Metric.plain_path_allowed``) stays open."""
    method._keeps_plain_path = True  # type: ignore[attr-defined]
    return method


def _checking_declared_options(init: Callable[..., None]) -> Callable[..., None]:
    """``init`` (a metric's constructor) taking first the renamed keywords its class declares under their
    new names (with a warning), then checking the switches and whole-number options its class declares."""

    @functools.wraps(init)
    def checked(self: Metric, *args: Any, **kwargs: Any) -> None:
        kwargs = replace_renamed(type(self).renamed_options, kwargs, type(self).__name__)
        options = type(self).options
        check_switches(options, kwargs, type(self).__name__)
        check_integers(options, kwargs)
        init(self, *args, **kwargs)

    return checked


class Metric(ABC, Generic[PreparedT, ScoreT]):
    """A metric with fixed options; give ``references`` once to score many systems against them.

    ``PreparedT``: the metric's prepared references; ``ScoreT``: its corpus result."""

    name: str  # the column title: "BLEU", "chrF2", "chrF2++", "TER"
    # How the command line's help names a metric of another package (a built-in's is in its options module).
    title: ClassVar[str] = ""
    higher_is_better: ClassVar[bool] = True
    # The most reference streams a segment may be compared with (None: any number).
    max_references: ClassVar[int | None] = None
    # The functional layer (``core.functional``): keywords whose default differs for single segments,
    # and the first line of each function's docstring where the generic one would not say enough.
    sentence_defaults: ClassVar[dict[str, Any]] = {}
    corpus_summary: ClassVar[str] = ""
    sentence_summary: ClassVar[str] = ""
    sentences_summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()  # the constructor's options, as the command line shows them
    # Keywords the constructor took before an option had its present name, taken for one release with a
    # warning (``case_sensitive`` for ``lowercase``); the functional layer takes them too.
    renamed_options: ClassVar[tuple[RenamedOption, ...]] = ()
    # The result attributes a TSV row lists (a list spreads over columns ``name_1`` ...); none: no TSV.
    tsv_fields: ClassVar[tuple[str, ...]] = ()
    # How resamples, streamed blocks and shards are scored (``core.aggregation``): ``Additive()``, rows
    # that add up; ``CorpusWeighted()`` for rows that depend on the whole corpus (NIST's information
    # weights), a subclass of it holding the metric's own resampling and shard state.
    aggregation: Aggregation = ADDITIVE
    # Whether the statistics are integers (an integer dtype); False: float64 rows (some columns may
    # still be whole numbers: ``whole_columns``).
    integer_statistics: ClassVar[bool] = True
    # What valid rows satisfy, checked on statistics from outside (``core.validation``): pairs of
    # columns (smaller, larger) as matches are at most the n-grams they are found among, the columns
    # of float rows that hold whole numbers, functions that raise ``InputError`` on rows breaking a
    # relation of the metric's own, and what messages call each column (``statistic_names`` if none).
    # A metric whose columns depend on its options sets these on the metric when it is made.
    statistic_bounds: tuple[tuple[int, int], ...] = ()
    whole_columns: tuple[int, ...] = ()
    row_checks: tuple[RowCheck, ...] = ()
    column_labels: tuple[str, ...] = ()
    # Signature fields that change how statistics are scored but not the statistics (left out of
    # ``statistics_settings``: statistics that differ only there may be added).
    scoring_fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every metric's constructor refuses a switch (a ``bool`` option) given anything but True or
        False, and a whole-number option (one declaring ``bounds``) given anything but an integer
        within them, before the metric reads it: checked here once for all of them."""
        super().__init_subclass__(**kwargs)
        _adopt_legacy_declarations(cls)
        if "__init__" in cls.__dict__:
            cls.__init__ = _checking_declared_options(cls.__dict__["__init__"])  # type: ignore[method-assign]

    def __init__(self, references: Any = None):
        """Prepare ``references`` (reference streams) once, if given; subclasses set their options first."""
        if type(self).can_stream is not Metric.can_stream and not self.can_stream():
            self.aggregation = self.aggregation.without_streaming()  # a subclass's own ``can_stream`` (deprecated)
        self._references: PreparedT | None = None if references is None else self.prepare(references)

    # What a metric defines.

    @abstractmethod
    def prepare(self, references: Any, n_hypotheses: int | None = None) -> PreparedT:
        """Check and prepare reference streams (one list per reference, a line or ``None`` per segment)."""

    @abstractmethod
    def _statistics(self, prepared: PreparedT, hypotheses: Any) -> np.ndarray:
        """One row of statistics per segment of ``hypotheses`` (as ``_resolve`` gives them)."""

    @abstractmethod
    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The score of each row of summed statistics (float32 sums: sacrebleu's resampling arithmetic)."""

    @abstractmethod
    def _score(self, statistics: np.ndarray, references: PreparedT | None) -> ScoreT:
        """The corpus result of per-segment statistics against ``references`` (``None``: not known);
        ``score_statistics`` has checked their shape and that there is a segment."""

    @abstractmethod
    def _signature(self, nrefs: int | str) -> Signature:
        """The reproducibility signature for ``nrefs`` references per segment."""

    # Hooks with a default.

    @classmethod
    def sentence_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The constructor's keywords for scoring single segments, from those a ``sentence_X``
        function was given (``sentence_defaults`` filled in): as they are, by default."""
        return options

    @classmethod
    def title_for_docs(cls) -> str:
        """How docstrings name the metric: its ``title`` (a built-in's, from its options module)."""
        if cls.title:
            return cls.title
        from importlib import import_module

        package = cls.__module__.rpartition(".")[0]
        try:
            return str(import_module(f"{package}.options").TITLE) if package else cls.__name__
        except (ImportError, AttributeError):
            return cls.__name__

    def segment_scores(self, hypotheses: Any, references: Any = None) -> Any:
        """Every segment's own score as one array (``sentence_Xs``): ``sentence_scores`` by default."""
        return self.sentence_scores(hypotheses, references)

    def can_stream(self) -> bool:
        """Deprecated: ``aggregation.streams``, whether large inputs may be scored block by block."""
        warnings.warn(_DEPRECATED_CAN_STREAM, DeprecationWarning, stacklevel=2)
        return self.aggregation.streams

    # Streaming (``core.stream``) scores a block of lines with a metric made on its references. A
    # metric whose engine gains from counting many segments at once gathers blocks' parts (compact,
    # e.g. token ids) until ``stream_batch_full``, then counts them together.

    def stream_part(self, hypotheses: Sequence[str]) -> Any:
        """A streamed block's part for ``count_stream_parts``: by default its ``Statistics``."""
        return self.statistics(hypotheses)

    def stream_batch_full(self, parts: list[Any]) -> bool:
        """Whether the gathered ``parts`` are to be counted now (by default each block at once)."""
        return True

    def count_stream_parts(self, parts: list[Any]) -> list[Statistics]:
        """The ``Statistics`` of each gathered block, in order (``parts`` from ``stream_part`` of
        this metric's class); by default the parts are their statistics already."""
        return parts

    def segment_metric(self) -> Metric:
        """The metric that scores single segments (``-sl``, ``explain``): this one, unless the
        metric scores segments with options of their own."""
        return self

    def statistics_width(self) -> int | None:
        """The number of columns of ``segment_statistics`` with these options, checked before scoring
        statistics (``score_statistics``); ``None`` (the default): not declared, as for statistics
        whose width varies (BLEU's carry their order)."""
        return None

    def statistic_names(self) -> tuple[str, ...]:
        """The name of each column of ``segment_statistics`` with these options (``-sl -f tsv``'s
        headers); empty when the metric lists its results' fields instead (``tsv_fields``)."""
        return ()

    def segment_results(self, statistics: np.ndarray) -> SegmentResults:
        """Each segment's score (sacrebleu's ``sentence_score``) and the corpus score, from
        per-segment statistics against the references given at creation: bare scores under the
        metric's name, with the corpus's signature, and the statistics under their names."""
        corpus = self.score_statistics(statistics)
        scores = self.segment_metric().scores_of_sums(statistics)
        return SegmentResults(
            [NamedScore(self.name, float(score), corpus.signature) for score in scores],
            NamedScore(self.name, corpus.score, corpus.signature),
            statistics=statistics,
            columns=self.statistic_names(),
        )

    def explain(self, hypotheses: list[str], references: list[list[str | None]]) -> Any:
        """What ``mtscore explain`` prints for a few segments: an object whose ``str`` is the text
        (BLEU: the n-gram tables; WER and CER: the alignments)."""
        raise InputError(f"mtscore explain does not cover {self.name} yet")

    # A metric may score a call of a few segments in plain Python, without ``prepare`` and ``_score``
    # (BLEU, chrF): a subclass that changes what these do must allow it (``plain_path_allowed``).

    def _returned(self, result: ScoreT) -> ScoreT:
        """The result as this class returns it (as it is, by default); a subclass that changes its
        results does it here too, so that results of a plain-Python path change alike."""
        return result

    def _references_seen(self, nrefs: int | str) -> None:
        """Told the references per segment of references given with a call and counted by a
        plain-Python path, without ``prepare``; nothing by default."""

    def _plain_nrefs(self, segments: Sequence[Sequence[str]]) -> int | str:
        """The references per segment of a call a plain-Python path counts (``"var"`` if it varies),
        told to ``_references_seen``."""
        counts = {len(lines) for lines in segments}
        nrefs: int | str = counts.pop() if len(counts) == 1 else "var"
        self._references_seen(nrefs)
        return nrefs

    def _cached_signature(self, nrefs: int | str, *more: Any) -> Signature:
        """``signature(nrefs, *more)``, made once per number of references for a plain-Python path."""
        cache = self.__dict__.setdefault("_signatures", {})
        key = (nrefs, *more)
        if key not in cache:
            cache[key] = self.signature(nrefs, *more)
        return cache[key]

    def plain_path_allowed(self, owner: type) -> bool:
        """Whether a plain-Python path written for ``owner`` (the metric's class) may score for this
        metric: its class keeps ``owner``'s ``prepare`` and ``_score``, or overrides them only as
        ``keeps_plain_path`` marks (a path that skipped another override would skip what it does)."""
        cls = type(self)
        return all(
            getattr(cls, name) is getattr(owner, name) or getattr(getattr(cls, name), "_keeps_plain_path", False)
            for name in ("prepare", "_score")
        )

    # The shared flow.

    def signature(self, nrefs: int | str | None = None) -> Signature:
        """The reproducibility signature; ``nrefs`` defaults to that of the references given at
        creation (1 without them)."""
        return self._signature(self._nrefs() if nrefs is None else nrefs)

    def signature_of(self, references: PreparedT | None) -> Signature:
        """The signature of a result scored against prepared ``references`` (``None``: not known, 1 reference)."""
        return self.signature(1 if references is None else references.nrefs)

    def _nrefs(self) -> int | str:
        """References per segment of the references given at creation (``"var"`` if it varies; 1 without)."""
        return 1 if self._references is None else self._references.nrefs

    def _resolve(self, hypotheses: Any, references: Any) -> tuple[PreparedT, Any]:
        """The prepared references of a call and the hypotheses in the form ``_statistics`` takes."""
        check_hypotheses(hypotheses)
        return references_for(len(hypotheses), references, self._references, self.prepare), hypotheses

    def segment_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray:
        """One row of additive statistics per segment, against ``references`` or those given at creation."""
        return self._statistics(*self._resolve(hypotheses, references))

    def statistics(self, hypotheses: Any, references: Any = None) -> Statistics:
        """``segment_statistics`` as ``Statistics``: ``+`` merges shards, slices select segments;
        they record ``statistics_settings``, so statistics of other settings are not added to them."""
        return Statistics(self.segment_statistics(hypotheses, references), self.statistics_settings())

    def statistics_settings(self, signature: Signature | None = None) -> dict[str, str]:
        """What made this metric's statistics: its class's name and the fields of its signature
        (``signature``, by default this metric's) but the number of references, the version and the
        ``scoring_fields``, which change no statistic."""
        skipped = {"nrefs", "version", *self.scoring_fields}
        info = (signature or self.signature()).info
        return {"metric": type(self).__name__, **{name: value for name, value in info.items() if name not in skipped}}

    def check_settings(self, statistics: Any, settings: dict[str, str] | None = None) -> None:
        """Raise ``InputError`` if ``statistics`` (``Statistics``; a bare matrix has no settings)
        were counted with other settings than ``settings`` (by default this metric's)."""
        known = getattr(statistics, "settings", None)
        if known is not None:
            check_same_settings(known, settings or self.statistics_settings(), "score")

    def systems_statistics(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """``segment_statistics`` of each system against the references given at creation."""
        check_systems(systems)
        return [self.segment_statistics(hypotheses) for hypotheses in systems]

    def score_statistics(self, statistics: np.ndarray | Statistics, nrefs: int | str | None = None) -> ScoreT:
        """The corpus score of per-segment statistics (from ``segment_statistics`` or ``statistics``):
        a matrix as wide as this metric's statistics, of at least one segment (else ``InputError``).
        ``nrefs``: the references per segment for the signature, when this metric was created
        without them (statistics computed elsewhere, merged from shards or loaded from a file)."""
        self.check_settings(statistics)
        matrix = statistics.matrix if isinstance(statistics, Statistics) else np.asarray(statistics)
        check_scored_statistics(self, matrix)
        result = self._score(matrix, self._references)
        if nrefs is None:
            return result
        return result.with_signature(result.signature.with_fields(nrefs=str(nrefs)))

    def corpus_score(self, hypotheses: Any, references: Any = None) -> ScoreT:
        """The corpus score: the formula over statistics summed across segments."""
        prepared, resolved = self._resolve(hypotheses, references)
        return self._score(self._statistics(prepared, resolved), prepared)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> ScoreT:
        """One segment's score against its references (a list of str; ``None``: missing), as
        sacrebleu's ``sentence_score``."""
        check_sentence(hypothesis, references)
        return self.corpus_score([hypothesis], [[reference] for reference in references])

    def sentence_scores(self, hypotheses: Any, references: Any = None) -> Any:
        """Every segment's own score, in one vectorised pass."""
        return self.scores_of_sums(self.segment_statistics(hypotheses, references))


_DEPRECATED_ADDITIVE = "Metric.additive is deprecated: read metric.aggregation.additive"
_DEPRECATED_CAN_STREAM = "Metric.can_stream() is deprecated: read metric.aggregation.streams"


class _DeprecatedAdditive:
    """``Metric.additive``, kept one release: ``aggregation.additive``, read on a class or a metric, with a warning."""

    def __get__(self, metric: Metric | None, owner: type[Metric]) -> bool:
        warnings.warn(_DEPRECATED_ADDITIVE, DeprecationWarning, stacklevel=2)
        return (owner if metric is None else metric).aggregation.additive


Metric.additive = _DeprecatedAdditive()  # type: ignore[attr-defined]

# Hooks of the base that moved to the metric's strategy (``Metric.aggregation``); those the
# documentation named stay one release as methods that warn and call the strategy's.
STRATEGY_HOOKS = (
    "shard_state",
    "empty_shard_state",
    "state_segments",
    "score_shard_state",
    "shard_arrays",
    "check_shard_arrays",
    "joined_statistics",
    "resampled_scores",
    "shared_resampled_scores",
    "empty_sentence_context",
    "sentence_context",
    "in_context",
)
_DOCUMENTED_STRATEGY_HOOKS = (
    "shard_state",
    "score_shard_state",
    "shard_arrays",
    "joined_statistics",
    "resampled_scores",
    "shared_resampled_scores",
    "sentence_context",
    "in_context",
)


class _DeprecatedStrategyHook:
    """``Metric.X(...)`` for a hook ``X`` that moved to the strategy, kept one release: it warns,
    then calls ``metric.aggregation.X(metric, ...)``."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, metric: Metric | None, owner: type[Metric]) -> Any:
        if metric is None:
            return self
        name = self.name

        def call(*args: Any, **kwargs: Any) -> Any:
            warnings.warn(
                f"Metric.{name}(...) is deprecated: call metric.aggregation.{name}(metric, ...)",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(metric.aggregation, name)(metric, *args, **kwargs)

        return call


for _hook in _DOCUMENTED_STRATEGY_HOOKS:
    setattr(Metric, _hook, _DeprecatedStrategyHook(_hook))


def _adopt_legacy_declarations(cls: type[Metric]) -> None:
    """A subclass written for the old flags keeps its behaviour, with a warning: ``additive = False``
    declares ``CorpusWeighted()`` (``True``: ``Additive()``), and its own ``can_stream`` is asked when
    a metric is made (``Metric.__init__``). One that defines a hook the strategy gives now
    (``STRATEGY_HOOKS``) is refused: the strategy would not call it."""
    legacy = cls.__dict__.get("additive")
    if isinstance(legacy, bool):
        warnings.warn(
            f"{cls.__name__}.additive is deprecated: declare aggregation = "
            f"{'Additive()' if legacy else 'CorpusWeighted()'} (mtscore.core.aggregation)",
            DeprecationWarning,
            stacklevel=4,  # the class statement, past __init_subclass__ and ABCMeta.__new__
        )
        delattr(cls, "additive")
        cls.aggregation = ADDITIVE if legacy else CORPUS_WEIGHTED
    moved = sorted(set(cls.__dict__) & set(STRATEGY_HOOKS))
    if moved:
        raise TypeError(
            f"{cls.__name__} defines {', '.join(moved)}, which the metric's strategy gives now: declare "
            "aggregation = a subclass of CorpusWeighted (or Additive) holding them (mtscore.core.aggregation)"
        )
    if "can_stream" in cls.__dict__:
        warnings.warn(
            f"{cls.__name__}.can_stream is deprecated: declare aggregation = Additive(streams=False) "
            "(mtscore.core.aggregation), or Additive().without_streaming() for some options",
            DeprecationWarning,
            stacklevel=4,  # the class statement, past __init_subclass__ and ABCMeta.__new__
        )


def check_systems(systems: Sequence[Sequence[str]]) -> None:
    """Several systems: a non-empty list of hypothesis lists, all as long as the first."""
    if not is_sequence(systems) or len(systems) == 0:
        raise InputError("systems must be a non-empty list of systems, each a list of hypotheses")
    for number, hypotheses in enumerate(systems[1:], 2):
        if len(hypotheses) != len(systems[0]):
            raise LengthMismatchError(
                f"system 1 has {counted(len(systems[0]), 'segment')} but system {number} has {len(hypotheses)}"
            )
