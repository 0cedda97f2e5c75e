"""Google-BLEU (Wu et al., 2016), exact to NLTK 3.10's ``corpus_gleu`` and ``sentence_gleu``.

For each reference a segment counts n_match, the n-grams of orders min_len..max_len that hypothesis
and reference share (clipped to the smaller count), and n_all = max(hypothesis n-grams, reference
n-grams), so that n_match / n_all = min(precision, recall). A reference with n_all = 0 is skipped;
the segment keeps [n_match, n_all] of its reference with the highest ratio (the first of ties), or
[0, 0] if none is left. The corpus score is 100 * sum(n_match) / sum(n_all), 0 when sum(n_all) = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from ... import tokenizers
from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_hypotheses, check_references, references_for
from ...core.metric import Metric, check_systems
from ...core.score import ScoreResult, SegmentResults
from ...core.signature import Signature, tool_signature
from ...engine.keys import TokenKeys, distinct_lines
from ...errors import InputError
from ...tokenizers.lines import split_lines
from .options import OPTIONS
from .references import LAST_PREPARED, PreparedReferences

__all__ = ["GoogleBLEU", "GoogleBLEUScore", "corpus_google_bleu", "sentence_google_bleu", "sentence_google_bleus"]


@dataclass(frozen=True)
class GoogleBLEUScore(ScoreResult):
    """A Google-BLEU result: ``score`` (0-100) = 100 * ``n_match`` / ``n_all``; ``ratio`` is NLTK's
    value (0-1) exactly."""

    score: float
    n_match: int
    n_all: int
    min_len: int
    max_len: int
    signature: Signature = field(compare=False)
    name: str = "Google-BLEU"

    @property
    def ratio(self) -> float:
        """n_match / n_all (0.0 when n_all is 0): what NLTK's ``corpus_gleu`` returns, to the bit."""
        return self.n_match / self.n_all if self.n_all else 0.0

    @property
    def verbose(self) -> str:
        """The counts after the score in the text line: ``n_match/n_all = 44/56``."""
        return f"n_match/n_all = {self.n_match}/{self.n_all}"

    dict_fields = ("n_match", "n_all", "min_len", "max_len")  # the counts behind the score, the n-gram orders


def _check_orders(min_len: int, max_len: int) -> None:
    """Orders must be integers with 1 <= min_len <= max_len (NLTK scores 0 for max_len < min_len and
    counts empty n-grams for min_len 0: both are input errors here). That each is an integer >= 1 is
    checked by ``Metric`` from their declarations."""
    if max_len < min_len:
        raise InputError(f"max_len ({max_len}) is below min_len ({min_len}): there are no n-grams to compare")


class GoogleBLEU(Metric[PreparedReferences, GoogleBLEUScore]):
    """Google-BLEU with fixed options; give ``references`` once to score many systems against them.

    Text is tokenized (``tokenize``, default ``13a`` as Hugging Face evaluate; ``none`` splits on
    whitespace only), lowercased first with ``lowercase``; n-grams of orders ``min_len``..``max_len``.

    >>> metric = GoogleBLEU([["the cat sat on the mat"]])
    >>> metric.corpus_score(["the cat ate the mat"]).ratio
    0.3333333333333333
    """

    corpus_summary = "Corpus Google-BLEU of ``hypotheses`` against reference streams (NLTK's ``corpus_gleu`` x 100)."
    sentence_summary = "Google-BLEU of one segment against its references: NLTK's ``sentence_gleu`` x 100."

    name = "Google-BLEU"
    options = OPTIONS
    tsv_fields = ("score", "n_match", "n_all")

    def __init__(
        self,
        references: ReferenceStreams | None = None,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        min_len: int = 1,
        max_len: int = 4,
    ):
        _check_orders(min_len, max_len)
        self.min_len, self.max_len = int(min_len), int(max_len)
        self.tokenizer = tokenizers.get(tokenize)
        self.lowercase = lowercase
        super().__init__(references)

    def keys(self, lines: list[str]) -> TokenKeys:
        """The lines' tokens as keys (a line that repeats is tokenized once)."""
        distinct, rows = distinct_lines(lines)
        return TokenKeys.of(split_lines(distinct, self.tokenizer, self.lowercase), rows)

    def tokens(self, line: str) -> list[str]:
        """The tokens of one line, as Google-BLEU counts them (lowercased if asked, then tokenized)."""
        return split_lines([line], self.tokenizer, self.lowercase).tokens()[0]

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> PreparedReferences:
        """Check, tokenize and count reference streams; ``None`` marks a missing reference. The streams
        prepared last are kept: given again (the same lines, the same options), as when systems are
        scored one call at a time (``corpus_google_bleu(hyps, refs)`` each), they are not prepared again."""
        present = check_references(references, n_hypotheses)
        # The tokenizer object, not its name: a name registered again is another tokenizer.
        options = (self.tokenizer, self.lowercase, self.min_len, self.max_len)
        kept = LAST_PREPARED.get(options, references)
        if kept is not None:
            return kept
        lines = [line or "" for line in chain.from_iterable(references)]
        prepared = PreparedReferences(self.keys(lines), present, self.min_len, self.max_len)
        LAST_PREPARED.put(options, references, prepared)
        return prepared

    def _statistics(self, prepared: PreparedReferences, hypotheses: Sequence[str]) -> np.ndarray:
        """(segments, 2) int64: [n_match, n_all] against each segment's best reference (a line that
        another system had at the same segment is not counted again)."""
        return prepared.line_statistics(hypotheses, self.keys)

    def systems_statistics(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """``segment_statistics`` of each system, tokenized and counted together (the references
        are sorted once)."""
        check_systems(systems)
        for hypotheses in systems:
            check_hypotheses(hypotheses)
        prepared = references_for(len(systems[0]), None, self._references, self.prepare)
        return prepared.statistics_of(self.keys(list(chain.from_iterable(systems))), len(systems))

    column_labels = ("n_match", "n_all")

    def statistics_width(self) -> int:
        """The matched n-grams and the larger of the hypothesis's and the reference's n-grams."""
        return len(self.column_labels)

    statistic_bounds = ((0, 1),)  # the matched n-grams are at most the n-grams counted

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """100 * n_match / n_all of each row of summed statistics (0 where n_all is 0), float64."""
        sums = np.asarray(sums, dtype=np.float64)
        n_match, n_all = sums[..., 0], sums[..., 1]
        ratio = np.divide(n_match, n_all, out=np.zeros_like(n_match), where=n_all > 0)
        return np.atleast_1d(100 * ratio)

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature(
            {
                "nrefs": str(nrefs),
                "case": "lc" if self.lowercase else "mixed",
                "tok": self.tokenizer.name,
                "ngram": f"{self.min_len}-{self.max_len}",
            }
        )

    def _result(self, sums: np.ndarray, signature: Signature) -> GoogleBLEUScore:
        """The result of one row of (summed) statistics."""
        n_match, n_all = int(sums[0]), int(sums[1])
        score = float(self.scores_of_sums(np.array([n_match, n_all]))[0])
        return GoogleBLEUScore(score, n_match, n_all, self.min_len, self.max_len, signature)

    def _score(self, statistics: np.ndarray, references: PreparedReferences | None) -> GoogleBLEUScore:
        return self._result(statistics.sum(axis=0), self.signature_of(references))

    def segment_results(self, statistics: np.ndarray) -> SegmentResults:
        """Each segment's result with its n_match and n_all (so ``-sl`` lists them), then the corpus's."""
        corpus = self.score_statistics(statistics)
        segments = [self._result(row, corpus.signature) for row in np.asarray(statistics)]
        return SegmentResults(segments, corpus)


# The functional layer, made from GoogleBLEU's constructor (``core.functional``).
corpus_google_bleu = corpus_function(GoogleBLEU, "corpus_google_bleu")
sentence_google_bleu = sentence_function(GoogleBLEU, "sentence_google_bleu")
sentence_google_bleus = sentences_function(GoogleBLEU, "sentence_google_bleus")
