"""The BLEU pipeline: tokenize -> encode -> count -> ``Stats`` -> score, references prepared once."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ... import tokenizers
from ...core.deprecation import warn_renamed
from ...core.inputs import (
    check_hypotheses,
    check_references,
    few_plain_segments,
    references_for,
)
from ...core.metric import Metric, check_systems
from ...core.score import SegmentResults
from ...core.signature import Signature, tool_signature
from ...core.stats import Statistics
from ...core.validation import check_some_segments
from ...engine.backend import NUMPY, NumpyOps, TorchOps
from ...engine.ids import PAD_NOT_GIVEN, PadId, check_pad_id, id_rows, is_token_ids, refuse_text_array
from ...engine.keys import TokenKeys, distinct_lines
from ...errors import InputError
from ...tokenizers.lines import split_lines
from .compat import Compat, configure, score_rows
from .compat import score_sums as compat_sums
from .formula import corpus_rows, score_sums, segment_rows
from .options import OPTIONS
from .references import PreparedReferences, holds_ids, id_streams, ops_for
from .result import BLEUScore, SentenceScores
from .scoring import Scoring, sentence_effective_order
from .small import SMALL_SEGMENTS, covers, score_row, segment_row, tokens_13a, tokens_13a_lowercased
from .stats import Stats, check_totals

if TYPE_CHECKING:
    from .explanation import Explanation


def _check_totals_of_rows(rows: np.ndarray) -> None:
    """A hypothesis of L tokens has max(L - n + 1, 0) n-grams of order n."""
    check_totals(Stats.from_matrix(rows))


class BLEU(Metric[PreparedReferences, BLEUScore]):
    """BLEU with fixed options; give ``references`` once to score many systems against them.

    Text is tokenized (``tokenize``, ``lowercase``); token ids (2-D integer arrays or tensors,
    every ``pad_id`` dropped, or lists of int sequences) are counted as they are. 2-D arrays need
    ``pad_id`` said: the padding id, or ``None`` for rows without padding.

    >>> metric = BLEU([["the cat sat on the mat"]])
    >>> round(metric.corpus_score(["the cat sat on a mat"]).score, 2)
    53.73
    """

    name = "BLEU"
    options = OPTIONS
    # sacrebleu's sentence-level default: effective order, unless NLTK's smoothing (``sentence_options``).
    sentence_defaults: ClassVar[dict[str, Any]] = {"effective_order": None}
    sentence_summary = (
        "BLEU of one segment against its references, with sacrebleu's sentence defaults (effective order on, "
        "except for NLTK's methods); a compatibility mode scores the segment as its tool scores a corpus of one."
    )
    tsv_fields = ("score", "bp", "sys_len", "ref_len", "counts", "totals", "precisions")
    scoring_fields = ("eff", "smooth", "weights")
    row_checks = (_check_totals_of_rows,)

    def __init__(
        self,
        references: Any = None,
        *,
        tokenize: str | None = None,
        lowercase: bool = False,
        smooth: str | None = None,
        smooth_value: float | None = None,
        max_order: int = 4,
        weights: Sequence[float] | None = None,
        effective_order: bool = False,
        pad_id: PadId = PAD_NOT_GIVEN,
        compat: str | None = None,
    ):
        self.compat: Compat | None = None
        if compat is not None:
            self.compat = configure(
                compat, tokenize, lowercase, smooth, smooth_value, max_order, weights, effective_order
            )
            self.scoring, self.tokenizer = self.compat.scoring, self.compat.tokenizer
            self.lowercase = self.compat.lowercase
        else:
            self.scoring = Scoring(
                smooth or "exp", smooth_value, effective_order, max_order, None if weights is None else tuple(weights)
            )
            self.tokenizer = tokenizers.get(tokenize or "13a")
            self.lowercase = lowercase
        check_pad_id(pad_id)
        self.pad_id = pad_id
        order = self.scoring.max_order
        # sacrebleu's layout: hypothesis length, closest reference length, matches and totals per order;
        # each order's matches are at most its n-grams.
        self.column_labels = (
            "hyp_len",
            "ref_len",
            *(f"{kind}{n}" for kind in ("matches", "totals") for n in range(1, order + 1)),
        )
        self.statistic_bounds = tuple((2 + n, 2 + order + n) for n in range(order))
        if self.scoring.nltk_method is not None:  # NLTK's corpus smoothing is scored in memory
            self.aggregation = self.aggregation.without_streaming()
        super().__init__(references)

    def tokenize(self, lines: list[str]) -> list[list[str]]:
        """Each line's tokens: lowercased (if asked) and tokenized."""
        return split_lines(lines, self.tokenizer, self.lowercase).tokens()

    def tokens(self, line: str) -> list[str]:
        """The tokens of one line, as BLEU counts them (``tokenize`` of that line)."""
        return self.tokenize([line])[0]

    def keys(self, lines: list[str], references: bool = False) -> TokenKeys:
        """The lines' tokens as keys, the form ``PreparedReferences.statistics`` takes (a line that
        repeats is tokenized once); ``references``: tokenized as a compatibility mode's tool
        tokenizes references, where that differs."""
        distinct, rows = distinct_lines(lines)
        tokenizer, lowercase = self.tokenizer, self.lowercase
        if references and self.compat is not None and self.compat.reference_tokenizer is not tokenizer:
            tokenizer, lowercase = self.compat.reference_tokenizer, False
        return TokenKeys.of_lines(distinct, tokenizer, lowercase, rows)

    def prepare(
        self, references: Any, n_hypotheses: int | None = None, ops: NumpyOps | TorchOps | None = None
    ) -> PreparedReferences:
        """Tokenize (text) or read (token ids) and count reference streams; ``None`` marks a missing line."""
        order = self.scoring.stats_order
        if not holds_ids(references):
            present = check_references(references, n_hypotheses)
            lines = list(chain.from_iterable(references))
            if not present.all():
                lines = [line or "" for line in lines]
            tokens = self.keys(lines, references=True)
            return self._with_length_rule(PreparedReferences.from_keys(tokens, present, order))
        self._check_ids_options()
        ops = ops or ops_for(references)
        prepared = PreparedReferences.from_ids(id_streams(references, n_hypotheses, self.pad_id, ops), order, ops)
        return self._with_length_rule(prepared)

    def _with_length_rule(self, prepared: PreparedReferences) -> PreparedReferences:
        """The references choosing each segment's reference length by the compatibility mode's rule."""
        if self.compat is not None:
            prepared.length_rule = self.compat.mode.length_rule
        return prepared

    def _check_ids_options(self) -> None:
        lowered = self.lowercase or (self.compat is not None and self.compat.case_lc)
        if lowered or self.tokenizer.name not in ("13a", "none"):
            raise InputError("token ids are already tokenized: leave tokenize and lowercase unset")

    def _resolve(self, hypotheses: Any, references: Any) -> tuple[PreparedReferences, TokenKeys | tuple[Any, Any]]:
        """The prepared references and the hypotheses in the form their ``statistics`` takes."""
        ids = is_token_ids(hypotheses)
        if ids:
            self._check_ids_options()
            refuse_text_array(hypotheses, "hypotheses")
            if len(hypotheses) == 0:
                raise InputError("no hypotheses to score")
            if getattr(hypotheses, "ndim", 2) != 2:
                raise InputError(
                    f"hypotheses must be a 2-D array of token ids (segments x positions), got {hypotheses.ndim}-D"
                )
        else:
            check_hypotheses(hypotheses)
        ops = ops_for(hypotheses, references) if ids else None
        prepared = references_for(
            len(hypotheses), references, self._references, lambda refs, n: self.prepare(refs, n, ops)
        )
        if ids != (prepared.kind == "ids"):
            raise InputError("hypotheses and references must both be text or both be token ids")
        if not ids:
            return prepared, self.keys(list(hypotheses))
        flat, lengths, present = id_rows(hypotheses, self.pad_id, prepared.ops, "hypotheses")
        if not present.all():
            raise InputError(f"hypothesis {int(np.argmin(present))} is None, expected token ids")
        return prepared, (flat, lengths)

    def _statistics(self, prepared: PreparedReferences, hypotheses: TokenKeys | tuple[Any, Any]) -> np.ndarray:
        return prepared.statistics(hypotheses).to_matrix()

    def statistics(self, hypotheses: Any, references: Any = None) -> Stats:
        """Per-segment sufficient statistics (``Stats``, the named form of ``segment_statistics``),
        which record ``statistics_settings``.

        Args:
            hypotheses: The system's outputs (text, or token ids).
            references: Reference streams; by default those given at creation.

        Returns:
            One row per segment: hypothesis length, reference length, matches and totals per order.
        """
        prepared, resolved = self._resolve(hypotheses, references)
        stats = prepared.statistics(resolved)
        stats.settings = self.statistics_settings(self.signature(1, prepared.kind))
        return stats

    def stats(self, hypotheses: Any, references: Any = None) -> Stats:
        """Deprecated name of ``statistics`` (warns)."""
        warn_renamed("BLEU.stats", "BLEU.statistics")
        return self.statistics(hypotheses, references)

    def signature(self, nrefs: int | str | None = None, kind: str | None = None) -> Signature:
        """The reproducibility signature; ``nrefs`` and ``kind`` (``"text"``, or ``"ids"`` for token
        ids: ``tok:ids``) default to those of the references given at creation."""
        if kind is None:
            kind = "text" if self._references is None else self._references.kind
        return self._signature(self._nrefs() if nrefs is None else nrefs, kind)

    def _signature(self, nrefs: int | str, kind: str = "text") -> Signature:
        scoring, compat = self.scoring, self.compat
        if compat is not None:
            return self._compat_signature(compat, nrefs, kind)
        info = {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if scoring.effective_order else "no",
            "tok": "ids" if kind == "ids" else self.tokenizer.name,
            "smooth": scoring.smooth_label(),
        }
        if scoring.max_order != 4:
            info["ngram"] = str(scoring.max_order)
        if scoring.weights is not None:
            info["weights"] = ",".join(f"{w:g}" for w in scoring.weights)
        return tool_signature(info)

    def _compat_signature(self, compat: Compat, nrefs: int | str, kind: str) -> Signature:
        """A compatibility mode's signature: the mode, then what it fixes or what was chosen."""
        info = {
            "nrefs": str(nrefs),
            "compat": compat.mode.name,
            "case": "lc" if compat.case_lc else "mixed",
            "tok": "ids" if kind == "ids" else self.tokenizer.name,
            "smooth": compat.smooth,
        }
        if self.scoring.max_order != 4:
            info["ngram"] = str(self.scoring.max_order)
        if compat.weights is not None:
            info["weights"] = ",".join(f"{w:g}" for w in compat.weights)
        return tool_signature(info)

    def check_settings(self, statistics: Any, settings: dict[str, str] | None = None) -> None:
        """``Metric.check_settings``, statistics of token ids compared with this metric's for ids."""
        if settings is None and (getattr(statistics, "settings", None) or {}).get("tok") == "ids":
            settings = self.statistics_settings(self.signature(1, "ids"))
        super().check_settings(statistics, settings)

    def score_statistics(
        self, statistics: np.ndarray | Statistics, nrefs: int | str | None = None, kind: str | None = None
    ) -> BLEUScore:
        """The corpus score of already computed statistics (``Stats``, ``Statistics`` or a matrix).
        Statistics counted with other settings (another tokenizer, case, order...) are refused, and
        so are statistics of no segments.

        Args:
            statistics: Per-segment statistics, from ``statistics`` or ``segment_statistics``.
            nrefs: The references per segment for the signature; by default those given at creation (else 1).
            kind: ``"ids"`` for statistics of token ids, ``"text"`` for text; by default what the
                statistics' settings say, else the kind of the references given at creation.

        Returns:
            The corpus result.
        """
        settings = getattr(statistics, "settings", None)
        if isinstance(statistics, Stats):
            stats = statistics
        else:
            matrix = statistics.matrix if isinstance(statistics, Statistics) else np.asarray(statistics)
            stats = Stats.from_matrix(matrix, settings)
        if kind is None and (settings or {}).get("tok") != "ids":
            kind = _nrefs_and_kind(self._references)[1]
        return self._returned(self._score_stats(stats, self._nrefs() if nrefs is None else nrefs, kind))

    def score_stats(self, stats: Stats, nrefs: int | str = 1, kind: str | None = None) -> BLEUScore:
        """Deprecated name of ``score_statistics`` (warns; ``nrefs`` defaults to 1 here)."""
        warn_renamed("BLEU.score_stats", "BLEU.score_statistics")
        return self._score_stats(stats, nrefs, kind)

    def _score_stats(self, stats: Stats, nrefs: int | str, kind: str | None) -> BLEUScore:
        """The corpus score of ``stats`` (of at least one segment); ``kind`` ``None``: what the
        statistics' settings say (else text)."""
        check_some_segments(self.name, len(stats))
        if kind is None:
            kind = "ids" if (stats.settings or {}).get("tok") == "ids" else "text"
        self.check_settings(stats, self.statistics_settings(self.signature(nrefs, kind)))
        if self.compat is not None:
            rows = score_rows(self.compat, stats, corpus=True)
        else:
            rows = corpus_rows(stats, self.scoring)
        order = self.scoring.max_order
        return BLEUScore(
            score=float(rows.scores[0]),
            counts=stats.matches[:, :order].sum(axis=0).tolist(),
            totals=stats.totals[:, :order].sum(axis=0).tolist(),
            precisions=rows.precisions[0].tolist(),
            bp=float(rows.bp[0]),
            sys_len=int(stats.hyp_len.sum()),
            ref_len=int(stats.ref_len.sum()),
            signature=self.signature(nrefs, kind),
        )

    def corpus_score(self, hypotheses: Any, references: Any = None) -> BLEUScore:
        """The corpus score: the formula over statistics summed across segments (a call of a few
        segments of text counted in plain Python, ``small``, with the same statistics and score)."""
        rows = self._small_rows(hypotheses, references)
        if rows is None:
            return super().corpus_score(hypotheses, references)
        statistics, nrefs = rows
        order = self.scoring.max_order
        hyp_len = sum(row[0] for row in statistics)
        ref_len = sum(row[1] for row in statistics)
        counts = [sum(row[2][n] for row in statistics) for n in range(order)]
        totals = [sum(row[3][n] for row in statistics) for n in range(order)]
        score, precisions, bp = score_row(hyp_len, ref_len, counts, totals, self.scoring)
        return self._returned(
            BLEUScore(score, counts, totals, precisions, bp, hyp_len, ref_len, self._cached_signature(nrefs, "text"))
        )

    def _small_rows(
        self, hypotheses: Any, references: Any
    ) -> tuple[list[tuple[int, int, list[int], list[int]]], int | str] | None:
        """Each segment's statistics counted in plain Python and the references per segment, when
        ``small`` covers the call (a few segments of text, references given with it); else ``None``."""
        if references is None or not covers(self.scoring, self.tokenizer, self.compat):
            return None
        if not self.plain_path_allowed(BLEU):
            return None
        segments = few_plain_segments(hypotheses, references, SMALL_SEGMENTS)
        if segments is None:
            return None
        tokens = tokens_13a_lowercased if self.lowercase else tokens_13a
        order = self.scoring.max_order
        statistics = [
            segment_row(tokens(hypothesis), [tokens(line) for line in lines], order)
            for hypothesis, lines in zip(hypotheses, segments, strict=True)
        ]
        return statistics, self._plain_nrefs(segments)

    def _score(self, statistics: np.ndarray, references: PreparedReferences | None) -> BLEUScore:
        return self._score_stats(Stats.from_matrix(statistics), *_nrefs_and_kind(references))

    @classmethod
    def sentence_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Effective order for single segments: as given, else sacrebleu's default for the smoothing
        (compatibility modes have none)."""
        effective_order = options.get("effective_order")
        if options.get("compat") is not None:
            return {**options, "effective_order": bool(effective_order)}
        return {**options, "effective_order": sentence_effective_order(options.get("smooth") or "exp", effective_order)}

    def segment_scores(self, hypotheses: Any, references: Any = None) -> Any:
        """Every segment's BLEU as one array (``sentence_scores``' ``scores``)."""
        return self.sentence_scores(hypotheses, references).scores

    def segment_metric(self) -> BLEU:
        """sacrebleu's sentence-level BLEU: effective order on, except for NLTK's methods (whose
        ``sentence_bleu`` has none); a compatibility mode scores a segment as its tool scores a corpus of one."""
        if self.compat is not None:
            return self
        scoring = self.scoring
        segment = copy.copy(self)
        segment.scoring = Scoring(
            scoring.smooth,
            scoring.smooth_value,
            sentence_effective_order(scoring.smooth, None),
            scoring.max_order,
            scoring.weights,
        )
        return segment

    def explain(self, hypotheses: list[str], references: list[list[str | None]]) -> Explanation:
        """The paper's n-gram tables of each segment (sentence-level options), and the corpus's."""
        from .explanation import explain

        if self.compat is not None:
            mode = self.compat.mode
            raise InputError(f"explain shows sacrebleu's formula; --compat {mode.name} scores with {mode.tool}'s")
        return explain(hypotheses, references, self, self.segment_metric())

    def segment_results(self, statistics: np.ndarray) -> SegmentResults:
        """Each segment's full BLEU (precisions, BP, lengths) under ``segment_metric``, with its
        signature, then the corpus's."""
        stats, info = Stats.from_matrix(statistics), _nrefs_and_kind(self._references)
        segments = self.segment_metric().score_segments(stats, *info)
        return SegmentResults(list(segments), self._score_stats(stats, *info), segments.signature)

    def systems_statistics(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """``segment_statistics`` of each system, tokenized and counted together (a line that
        several systems share is tokenized once; the references are sorted once)."""
        check_systems(systems)
        for hypotheses in systems:
            check_hypotheses(hypotheses)
        prepared = references_for(len(systems[0]), None, self._references, self.prepare)
        if prepared.kind != "text":
            raise InputError("references of token ids: score each system with segment_statistics")
        tokens = self.keys(list(chain.from_iterable(systems)))
        return [stats.to_matrix() for stats in prepared.statistics_of(tokens, len(systems))]

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics matrices (float32 sums: sacrebleu's resampling arithmetic)."""
        if self.compat is not None:
            return compat_sums(self.compat, sums)
        return score_sums(sums, self.scoring)

    def score_segments(self, stats: Stats, nrefs: int | str = 1, kind: str = "text") -> SentenceScores:
        """Every segment's own score, from already computed statistics."""
        if self.compat is not None:
            rows = score_rows(self.compat, stats, corpus=False)
        else:
            rows = segment_rows(stats, self.scoring)
        return SentenceScores(
            rows.scores, rows.precisions, rows.bp, stats, self.signature(nrefs, kind), self.scoring.max_order
        )

    def sentence_scores(self, hypotheses: Any, references: Any = None) -> SentenceScores:
        """Every segment's own BLEU, in one vectorised pass (a torch tensor of scores for tensor input;
        a call of a few segments of text is counted in plain Python, ``small``, then scored alike)."""
        rows = self._small_rows(hypotheses, references)
        if rows is not None:
            statistics, nrefs = rows
            matrix = np.array(
                [[hyp_len, ref_len, *matches, *totals] for hyp_len, ref_len, matches, totals in statistics]
            )
            return self.score_segments(Stats.from_matrix(matrix.astype(np.int64, copy=False)), nrefs, "text")
        prepared, encoded = self._resolve(hypotheses, references)
        result = self.score_segments(prepared.statistics(encoded), prepared.nrefs, prepared.kind)
        if prepared.ops is not NUMPY:
            scores = prepared.ops.torch.as_tensor(result.scores, device=prepared.ops.device)
            result = dataclasses.replace(result, scores=scores)
        return result


def _nrefs_and_kind(references: PreparedReferences | None) -> tuple[int | str, str]:
    """The references per segment and their kind (``text`` or ``ids``), for signatures."""
    return (references.nrefs, references.kind) if references is not None else (1, "text")
