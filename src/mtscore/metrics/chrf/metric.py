"""chrF (Popović 2015) and chrF++ (Popović 2017), exact to sacrebleu 2.6.0, counted for a whole corpus at once.

chrF compares character n-grams (orders 1..char_order, whitespace removed unless ``whitespace``) of a
hypothesis with those of its reference; chrF++ adds word n-grams (orders 1..word_order, one edge
punctuation mark split off each word). Each segment keeps, per order, [hypothesis n-grams, reference
n-grams, clipped matches] against the reference with the best sentence chrF (the first of any tie); a
corpus score is the F-beta (``f_scores``) of these statistics summed over segments.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_references, few_plain_segments
from ...core.metric import Metric
from ...core.references import References
from ...core.score import ScoreResult
from ...core.signature import Signature, tool_signature
from ...errors import InputError
from ...threads import map_threads
from .formula import f_scores
from .ngrams import SymbolNgrams
from .options import OPTIONS
from .small import SMALL_SEGMENTS, best_statistics, f_score
from .symbols import Characters, Words

__all__ = ["CHRF", "CHRFScore", "corpus_chrf", "sentence_chrf", "sentence_chrfs"]


@dataclass(frozen=True)
class CHRFScore(ScoreResult):
    """A chrF or chrF++ result (0-100) with its options and reproducibility signature."""

    score: float
    name: str
    char_order: int
    word_order: int
    beta: float
    signature: Signature = field(compare=False)

    dict_fields = ("char_order", "word_order", "beta")  # the options, after the score


class PreparedReferences(References):
    """Reference streams lowercased (if asked), split into symbols and counted once, for any number of systems."""

    def __init__(self, streams: list[list[str]], present: np.ndarray, kinds: list[tuple[Characters | Words, int]]):
        super().__init__(present)
        # Characters and chrF++'s words side by side on threads: one's Python steps overlap the other's sorts.
        kept = [(symbols, order) for symbols, order in kinds if order > 0]
        self.ngrams = map_threads(lambda kind: SymbolNgrams(streams, *kind), kept)

    def statistics(self, lines: list[str]) -> np.ndarray:
        """Per stream and segment, the flat statistics row (char orders, then word orders)."""
        parts = map_threads(lambda ngrams: ngrams.statistics(lines), self.ngrams)
        stacked = np.concatenate(parts, axis=2)
        return stacked.reshape(stacked.shape[0], stacked.shape[1], -1)


def _check_options(char_order: int, word_order: int, beta: float) -> None:
    """The orders (integers up to ``MAX_ORDER``, checked by ``Metric`` from their declarations) are not
    both 0; ``beta`` is a finite number >= 0."""
    if char_order + word_order == 0:
        raise InputError("char_order and word_order are both 0: there are no n-grams to compare")
    if not isinstance(beta, Real) or isinstance(beta, bool) or not math.isfinite(beta) or beta < 0:
        raise InputError(f"beta must be a finite number >= 0 (recall is beta times as important), got {beta!r}")


class CHRF(Metric[PreparedReferences, CHRFScore]):
    """chrF/chrF++ with fixed options; give ``references`` once to score many systems against them.

    Options as sacrebleu's: ``char_order``/``word_order`` (n-gram orders; ``word_order=2`` is chrF++),
    ``beta`` (recall weight), ``lowercase``, ``whitespace`` (keep it in character n-grams) and
    ``eps_smoothing`` (average per-order F-scores, 1e-16 for missing ones, instead of effective order).

    >>> round(CHRF([["the cat sat on the mat"]]).corpus_score(["the cat sat on a mat"]).score, 2)
    65.98
    """

    corpus_summary = "Corpus chrF (chrF++ with ``word_order=2``) of ``hypotheses`` against reference streams."

    options = OPTIONS

    def __init__(
        self,
        references: ReferenceStreams | None = None,
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta: float = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ):
        _check_options(char_order, word_order, beta)
        self.char_order, self.word_order, self.beta = int(char_order), int(word_order), beta
        self.lowercase, self.whitespace, self.eps_smoothing = lowercase, whitespace, eps_smoothing
        self.name = f"chrF{beta}" + "+" * self.word_order
        # Per order, hypothesis, reference and matched n-grams: the matches are at most either.
        starts = range(0, 3 * (self.char_order + self.word_order), 3)
        self.statistic_bounds = tuple(pair for start in starts for pair in ((start + 2, start), (start + 2, start + 1)))
        super().__init__(references)

    def _lines(self, lines: Iterable[str]) -> list[str]:
        return [line.lower() for line in lines] if self.lowercase else list(lines)

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> PreparedReferences:
        """Check, lowercase (if asked) and count reference streams; ``None`` marks a missing reference."""
        present = check_references(references, n_hypotheses)
        streams = [self._lines("" if line is None else line for line in stream) for stream in references]
        kinds: list[tuple[Characters | Words, int]] = [
            (Characters(self.whitespace), self.char_order),
            (Words(), self.word_order),
        ]
        return PreparedReferences(streams, present, kinds)

    def _statistics(self, prepared: PreparedReferences, hypotheses: Sequence[str]) -> np.ndarray:
        """Each segment's statistics against its reference with the best sentence chrF (first of ties)."""
        per_stream = prepared.statistics(self._lines(hypotheses))
        streams, segments, width = per_stream.shape
        scores = self.scores_of_sums(per_stream.reshape(-1, width)).reshape(streams, segments)
        best = np.argmax(np.where(prepared.present, scores, -np.inf), axis=0)
        return per_stream[best, np.arange(segments)]

    def statistic_names(self) -> tuple[str, ...]:
        """Per character order, then per word order: hypothesis n-grams, reference n-grams, matches."""
        orders = [f"char{n}" for n in range(1, self.char_order + 1)] + [
            f"word{n}" for n in range(1, self.word_order + 1)
        ]
        return tuple(f"{order}_{count}" for order in orders for count in ("hyp", "ref", "match"))

    def statistics_width(self) -> int:
        return 3 * (self.char_order + self.word_order)

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The chrF of each row of summed statistics (float32 sums: sacrebleu's resampling arithmetic)."""
        return f_scores(np.asarray(sums), self.beta, self.eps_smoothing)

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature(
            {
                "nrefs": str(nrefs),
                "case": "lc" if self.lowercase else "mixed",
                "eff": "no" if self.eps_smoothing else "yes",
                "nc": str(self.char_order),
                "nw": str(self.word_order),
                "space": "yes" if self.whitespace else "no",
            }
        )

    def corpus_score(self, hypotheses: Sequence[str], references: ReferenceStreams | None = None) -> CHRFScore:
        """The corpus score: the F-score of statistics summed across segments (a call of a few
        segments counted in plain Python, ``small``, with the same statistics and score)."""
        rows = self._small_rows(hypotheses, references)
        if rows is None:
            return super().corpus_score(hypotheses, references)
        statistics, nrefs = rows
        sums = [sum(column) for column in zip(*statistics, strict=True)]
        return self._returned(
            CHRFScore(
                f_score(sums, self.beta),
                self.name,
                self.char_order,
                self.word_order,
                self.beta,
                self._cached_signature(nrefs),
            )
        )

    def sentence_scores(self, hypotheses: Sequence[str], references: ReferenceStreams | None = None) -> np.ndarray:
        """Every segment's own chrF, in one vectorised pass (a few segments counted in plain Python)."""
        rows = self._small_rows(hypotheses, references)
        if rows is None:
            return super().sentence_scores(hypotheses, references)
        return np.array([f_score(row, self.beta) for row in rows[0]], dtype=np.float64)

    def _small_rows(self, hypotheses: object, references: object) -> tuple[list[list[int]], int | str] | None:
        """Each segment's statistics counted in plain Python and the references per segment, when
        ``small`` covers the call (a few segments, chrF with effective order, references given with
        it); else ``None``."""
        if references is None or self.word_order or self.eps_smoothing or not self.plain_path_allowed(CHRF):
            return None
        segments = few_plain_segments(hypotheses, references, SMALL_SEGMENTS)
        if segments is None:
            return None
        assert isinstance(hypotheses, list)  # as few_plain_segments checked
        if self.lowercase:
            hypotheses = [line.lower() for line in hypotheses]
            segments = [[line.lower() for line in lines] for lines in segments]
        statistics = [
            best_statistics(hypothesis, lines, self.char_order, self.whitespace, self.beta)
            for hypothesis, lines in zip(hypotheses, segments, strict=True)
        ]
        return statistics, self._plain_nrefs(segments)

    def _score(self, statistics: np.ndarray, references: PreparedReferences | None) -> CHRFScore:
        score = float(self.scores_of_sums(statistics.sum(axis=0))[0])
        return CHRFScore(score, self.name, self.char_order, self.word_order, self.beta, self.signature_of(references))


# The functional layer, made from CHRF's constructor (``core.functional``).
corpus_chrf = corpus_function(CHRF, "corpus_chrf")
sentence_chrf = sentence_function(CHRF, "sentence_chrf")
sentence_chrfs = sentences_function(CHRF, "sentence_chrfs")
