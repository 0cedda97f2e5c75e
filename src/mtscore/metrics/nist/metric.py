"""NIST (Doddington 2002), exact to Moses mteval-v13a.pl, with NLTK 3.10's ``corpus_nist`` rules as a variant.

An n-gram w1..wn carries information log2(count(w1..wn-1) / count(w1..wn)), counted over every
reference segment of the corpus (each reference counts; a unigram's numerator is the number of
reference words). A segment's row holds, per order, its clipped matches, its hypothesis n-grams and
the information of its matches, then its length and reference length; the corpus score is
sum_n info_n / max(hyp_ngrams_n, 1) times the brevity penalty exp(beta log(min(1, hyp/ref))^2),
beta giving 0.5 at a ratio of 2/3. The rows add up to the corpus numbers, but only for the
reference corpus they were counted against: a resample has other weights, scored by its strategy
(``aggregation.NISTAggregation``) from the matches per n-gram the rows carry. ``CorpusWeightedNIST``
scores a batch with a whole corpus's weights (how Ray and Dask give NIST's sentence scores).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, ClassVar

import numpy as np

from ... import tokenizers
from ...core.deprecation import warn_renamed
from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_references
from ...core.metric import Metric
from ...core.references import References
from ...core.score import ScoreResult, SegmentResults
from ...core.signature import Signature, tool_signature
from ...core.stats import DetailedRows, Statistics
from ...engine.keys import TokenKeys, distinct_lines
from ...errors import InputError
from ...tokenizers.lines import Split, split_lines
from . import state
from .aggregation import NIST_AGGREGATION, WEIGHTED_NIST_AGGREGATION
from .options import OPTIONS, RENAMED, VARIANTS
from .references import PreparedReferences, columns
from .state import NISTState

__all__ = ["NIST", "NISTScore", "corpus_nist", "sentence_nist", "sentence_nists"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_MTEVAL_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)
_NLTK_BETA = math.log(0.5) / math.log(1.5) ** 2


@dataclass(frozen=True)
class NISTScore(ScoreResult):
    """A NIST result (unbounded, higher is better) with its corpus sums and signature."""

    score: float
    name: str
    bp: float
    info: list[float]  # per order, the information of the matched n-grams
    matches: list[int]
    totals: list[int]  # per order, the hypothesis n-grams
    hyp_len: int
    ref_len: float  # mteval: the average reference length; NLTK: the summed chosen lengths
    signature: Signature = field(compare=False)

    @property
    def verbose(self) -> str:
        precisions = "/".join(f"{i / max(t, 1):.3f}" for i, t in zip(self.info, self.totals, strict=True))
        lengths = f"hyp_len = {self.hyp_len} ref_len = {self.ref_len:g}"
        return f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} {lengths})"

    @property
    def ratio(self) -> float:
        order = 1 if self.name == "NIST" else len(self.totals)
        return order * self.hyp_len / self.ref_len if self.ref_len else 0.0

    @property
    def sys_len(self) -> int:
        """Deprecated name of ``hyp_len`` (warns)."""
        warn_renamed("NISTScore.sys_len", "NISTScore.hyp_len")
        return self.hyp_len

    dict_fields = ("bp", "info", "matches", "totals", "hyp_len", "ref_len")  # the corpus sums
    dict_keys: ClassVar[Mapping[str, str]] = {
        "hyp_len": "sys_len"
    }  # the key of earlier outputs, kept so that they stay byte-identical


def _check_variant(variant: str) -> None:
    """The variant is known (``max_order`` is checked by ``Metric`` from its declaration)."""
    if variant not in VARIANTS:
        raise InputError(f"unknown NIST variant {variant!r}; choose one of: {', '.join(VARIANTS)}")


class NIST(Metric[PreparedReferences, NISTScore]):
    """NIST with fixed options; give ``references`` once to score many systems against them.

    ``variant``: ``"mteval"`` (Moses mteval-v13a.pl) or ``"nltk"`` (NLTK's ``corpus_nist`` rules on
    our tokens: clipping and reference length per reference, the best reference per order).
    ``lowercase``: lowercase A-Z, as mteval does by default (``False``: keep case, mteval's ``-c``).

    >>> round(NIST([["the cat sat on the mat"]]).corpus_score(["the cat sat on a mat"]).score, 4)
    2.3315
    """

    sentence_summary = (
        "NIST of one hypothesis as a corpus of one segment: information from its own references (NLTK's "
        "``sentence_nist``; not mteval's segment scores, which ``sentence_nists`` gives)."
    )
    sentences_summary = (
        "Every segment's NIST as mteval's ``-d 2`` gives it: the segment's own counts and lengths with the "
        "information weights of the whole reference corpus."
    )

    options = OPTIONS
    renamed_options = RENAMED
    # The column of the hypotheses' length keeps its name of earlier outputs (``sys_len``).
    tsv_fields = ("score", "bp", "sys_len:hyp_len", "ref_len", "matches", "totals", "info")
    aggregation = NIST_AGGREGATION  # the rows carry the corpus's information weights
    integer_statistics = False

    def __init__(
        self,
        references: ReferenceStreams | None = None,
        *,
        variant: str = "mteval",
        tokenize: str = "13a",
        max_order: int = 5,
        lowercase: bool = True,
    ):
        _check_variant(variant)
        self.variant, self.lowercase, self.max_order = variant, bool(lowercase), int(max_order)
        self.tokenizer = tokenizers.get(tokenize)
        self.name = "NIST" if variant == "mteval" else "NIST-nltk"
        super().__init__(references)

    @property
    def case_sensitive(self) -> bool:
        """Deprecated: ``not lowercase``."""
        warn_renamed("NIST.case_sensitive", "not NIST.lowercase")
        return not self.lowercase

    def split(self, lines: list[str]) -> tuple[Split, np.ndarray | None]:
        """The lines' tokens (A-Z lowercased with ``lowercase``), a repeated line tokenized once:
        with ``rows``, line i is held line ``rows[i]``."""
        if self.lowercase:
            lines = [line.translate(_ASCII_LOWER) for line in lines]
        distinct, rows = distinct_lines(lines)
        return split_lines(distinct, self.tokenizer), rows

    def tokens(self, line: str) -> list[str]:
        """The tokens of one line, as NIST counts them (A-Z lowercased with ``lowercase``, then tokenized)."""
        return self.split([line])[0].tokens()[0]

    def keys(self, lines: list[str]) -> TokenKeys:
        """The lines' tokens as keys (``split``'s)."""
        return TokenKeys.of(*self.split(lines))

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> PreparedReferences:
        """Check, tokenize and count reference streams; ``None`` marks a missing reference."""
        present = check_references(references, n_hypotheses)
        lines = [line or "" for line in chain.from_iterable(references)]
        return self.prepare_keys(self.keys(lines), present)

    def prepare_keys(self, tokens: TokenKeys, present: np.ndarray) -> PreparedReferences:
        """Reference streams already tokenized (``keys`` of every stream's lines, stream after stream,
        a missing one empty; ``present``: streams x segments) counted as ``prepare`` counts them."""
        return PreparedReferences(tokens, present, self.max_order, self.variant, self.keys(["0"]))

    def _statistics(self, prepared: PreparedReferences, hypotheses: Sequence[str]) -> np.ndarray:
        return self.key_statistics(prepared, self.keys(list(hypotheses)))

    def key_statistics(self, prepared: PreparedReferences, tokens: TokenKeys) -> DetailedRows:
        """``segment_statistics`` of hypotheses already tokenized (``keys``), with what resampling needs."""
        ids, lengths = prepared.vocabulary.encode(tokens)
        rows, detail = prepared.rows(ids, lengths.astype(np.int64))
        return DetailedRows(rows, detail)

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The NIST score of each row of summed statistics."""
        sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
        n = self.max_order
        info, totals = sums[:, 2 * n : 3 * n], sums[:, n : 2 * n]
        precision = (info / np.maximum(totals, 1)).sum(axis=1)
        hyp_len, ref_len = sums[:, -2], sums[:, -1]
        if self.variant == "nltk":
            hyp_len = hyp_len * n
        return precision * self._brevity(hyp_len, ref_len)

    def _brevity(self, hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
        """exp(beta log(ratio)^2) below a ratio of 1, 1 from it, 0 at 0 (and 1 without reference words)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(ref_len > 0, hyp_len / np.where(ref_len > 0, ref_len, 1), np.inf)
            logs = np.log(np.where(ratio > 0, ratio, 1.0))
        mteval = self.variant == "mteval"
        penalty = np.exp(-_MTEVAL_BETA * logs * logs) if mteval else np.exp(_NLTK_BETA * logs**2)
        return np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, penalty))

    def statistics(self, hypotheses: Sequence[str], references: ReferenceStreams | None = None) -> NISTStatistics:
        """``segment_statistics`` as ``NISTStatistics``, which remember their reference corpus."""
        prepared, resolved = self._resolve(hypotheses, references)
        return NISTStatistics(self._statistics(prepared, resolved), prepared.digest, self.statistics_settings())

    def score_statistics(self, statistics: np.ndarray | Statistics, nrefs: int | str | None = None) -> NISTScore:
        """The corpus score of per-segment statistics; ``NISTStatistics`` counted against other
        references than this metric's are refused (their information weights differ)."""
        known = getattr(statistics, "references", None)
        if known is not None and self._references is not None and known != self._references.digest:
            raise InputError(
                "these NIST statistics were counted against other references than this metric's: "
                "their information weights differ"
            )
        return super().score_statistics(statistics, nrefs)

    def statistics_width(self) -> int:
        return columns(self.max_order)

    def weighted_by(self, context: NISTState) -> CorpusWeightedNIST:
        """This metric's NIST with the information weights of ``context`` (every shard's
        ``sentence_context`` merged): what its strategy's ``in_context`` gives."""
        return CorpusWeightedNIST(self, context)

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature(
            {
                "nrefs": str(nrefs),
                "case": "lc" if self.lowercase else "mixed",
                "tok": self.tokenizer.name,
                "ngram": str(self.max_order),
                "impl": self.variant,
            }
        )

    def segment_results(self, statistics: np.ndarray) -> SegmentResults:
        """Each segment's NIST with its sums (mteval's segment scores: the corpus's weights), then the corpus's."""
        corpus = self.score_statistics(statistics)
        rows = np.asarray(statistics, dtype=np.float64)
        return SegmentResults([self._result(row, corpus.signature) for row in rows], corpus)

    def _score(self, statistics: np.ndarray, references: PreparedReferences | None) -> NISTScore:
        return self._result(np.asarray(statistics).sum(axis=0, dtype=np.float64), self.signature_of(references))

    def _result(self, sums: np.ndarray, signature: Signature) -> NISTScore:
        """The result of one row of summed statistics."""
        n = self.max_order
        hyp = sums[-2] * (n if self.variant == "nltk" else 1)
        return NISTScore(
            float(self.scores_of_sums(sums)[0]),
            self.name,
            float(self._brevity(np.array([hyp]), np.array([sums[-1]]))[0]),
            sums[2 * n : 3 * n].tolist(),
            [int(x) for x in np.rint(sums[:n])],
            [int(x) for x in np.rint(sums[n : 2 * n])],
            round(sums[-2]),
            float(sums[-1]),
            signature,
        )


class NISTStatistics(Statistics):
    """NIST's per-segment rows with the digest of the reference corpus they were counted against
    (``references``; ``None``: unknown). Rows merge (``+``) only within one reference corpus:
    rows counted against other references carry other information weights."""

    def __init__(self, matrix: Any, references: str | None = None, settings: Mapping[str, str] | None = None):
        super().__init__(matrix, settings)
        self.references = references

    @classmethod
    def from_matrix(cls, matrix: Any, settings: Mapping[str, str] | None = None) -> NISTStatistics:
        """Statistics of an unknown reference corpus holding ``matrix``."""
        return cls(matrix, None, settings)

    def _like(self, matrix: np.ndarray) -> NISTStatistics:
        return NISTStatistics(matrix, self.references, self.settings)

    def __add__(self, other: Any) -> NISTStatistics:
        known = isinstance(other, NISTStatistics) and None not in (self.references, other.references)
        if known and self.references != other.references:
            raise ValueError(
                "cannot merge NIST statistics counted against different reference corpora: each carries "
                "its corpus's information weights; score every shard against the full reference corpus"
            )
        return super().__add__(other)

    def to_json(self) -> str:
        """``Statistics.to_json`` with the reference digest (``from_json`` reads it back)."""
        return json.dumps({**json.loads(super().to_json()), "references": self.references})

    @classmethod
    def from_json(cls, text: str) -> NISTStatistics:
        """Statistics from ``to_json``'s text, with their reference digest if it holds one."""
        statistics = super().from_json(text)
        references = json.loads(text).get("references")
        if references is not None and not isinstance(references, str):
            raise InputError(f"NIST statistics JSON with references {references!r}, expected a digest string")
        return cls(statistics.matrix, references, statistics.settings)


class CorpusWeightedNIST(NIST):
    """``metric``'s NIST whose information weights come from ``context`` (the reference n-gram
    counts of every shard of a corpus merged: ``NIST.sentence_context``): a shard's segments get
    the rows, sentence scores and sums that the in-memory API gives them within that corpus."""

    def __init__(self, metric: NIST, context: NISTState):
        super().__init__(
            variant=metric.variant,
            lowercase=metric.lowercase,
            tokenize=metric.tokenizer.name,
            max_order=metric.max_order,
        )
        if context.options != state.options_of(self):
            raise InputError(f"NIST weights counted with other options than this metric's ({context.options})")
        self.context = context

    aggregation = WEIGHTED_NIST_AGGREGATION  # the weights are the corpus's already

    def segment_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray:
        """Each segment's row: its matches and lengths against ``references``, the corpus's weights
        (no rows for a shard without segments)."""
        if references is None:
            raise InputError("no references: pass the segments' own (the weights alone are the corpus's)")
        return state.segment_rows(self, self.context, hypotheses, references)

    def statistics(self, hypotheses: Sequence[str], references: Any = None) -> NISTStatistics:
        return NISTStatistics(self.segment_statistics(hypotheses, references))

    def corpus_score(self, hypotheses: Any, references: Any = None) -> NISTScore:
        """The score of these segments alone, weighed with the corpus's information."""
        rows = self.segment_statistics(hypotheses, references)
        return self.score_statistics(rows, References(check_references(references, len(hypotheses))).nrefs)


# The functional layer, made from NIST's constructor (``core.functional``).
corpus_nist = corpus_function(NIST, "corpus_nist")
sentence_nist = sentence_function(NIST, "sentence_nist")
sentence_nists = sentences_function(NIST, "sentence_nists")
