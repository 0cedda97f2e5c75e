"""WER, MER, WIL and WIP (and, in ``metrics.cer``, CER), exact to jiwer 4.0, for a whole corpus at once.

Each segment's reference and hypothesis are turned into tokens by a jiwer transformation
(``transforms``) and aligned with rapidfuzz's Levenshtein choices (``align``), giving the additive
statistics [hits H, substitutions S, deletions D, insertions I]. As jiwer over lists, a corpus
score uses the sums: WER = (S + D + I) / (H + S + D), the reference length; with no reference
words at all, jiwer's WER is the number of insertions I. ``score`` is WER in percent (as TER in
sacrebleu); the result's ``wer``, ``mer``, ``wil`` and ``wip`` are jiwer's fractions.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_references, few_plain_segments
from ...core.metric import Metric
from ...core.references import References
from ...core.signature import Signature, tool_signature
from ...errors import InputError
from .align import (
    DELETION,
    HIT,
    INSERTION,
    MAX_LONG_CELLS,
    MAX_LONG_TOKENS,
    SUBSTITUTION,
    Pairs,
    TooLong,
    edit_counts,
)
from .counts import COUNT_FIELDS, EditCounts, jiwer_measures
from .options import OPTIONS
from .small import edit_row
from .transforms import WORD_TRANSFORMS

# Calls of at most this many segments are aligned one pair at a time by rapidfuzz (``small``): as fast
# per segment as the vectorised engine from a few hundred segments on, and much faster below, so the
# engine takes over only where its blocks are needed (streaming, corpora of any size).
SMALL_SEGMENTS = 4096
_SMALL_CELLS = 1 << 22  # token pairs of a segment aligned that way (rapidfuzz's full matrix)

ScoreT = TypeVar("ScoreT", bound=EditCounts)


@dataclass(frozen=True)
class WERScore(EditCounts):
    """A WER result: ``score`` = 100 * ``wer``; ``wer``, ``mer``, ``wil``, ``wip`` as jiwer's
    ``process_words`` gives them (fractions), and the counts."""

    wer: float
    mer: float
    wil: float
    wip: float
    signature: Signature = field(compare=False)
    name: str = "WER"

    dict_fields = ("wer", "mer", "wil", "wip", *COUNT_FIELDS)  # jiwer's measures, then the counts


class EditReferences(References):
    """One reference stream as token ids (``ids``, concatenated; ``lengths`` per segment)."""

    def __init__(self, present: np.ndarray, ids: np.ndarray, lengths: np.ndarray, vocabulary: dict[str, int]):
        super().__init__(present)
        self.ids, self.lengths, self.vocabulary = ids, lengths, vocabulary


class EditRate(Metric[EditReferences, ScoreT]):
    """The shared flow of WER and CER: one reference per segment, tokens, rapidfuzz's alignment."""

    higher_is_better = False
    max_references = 1
    transform = "default"  # the signature's ``tf`` field
    token_kind = "words"  # what a token is, as ``explain`` names it

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> EditReferences:
        """Check and tokenize the one reference stream (jiwer compares with one reference)."""
        present = check_references(references, n_hypotheses)
        if len(references) != 1:
            raise InputError(
                f"{self.name} compares each hypothesis with one reference, as jiwer does; "
                f"got {len(references)} reference streams (score against each separately)"
            )
        vocabulary: dict[str, int] = {}
        ids, lengths = self._ids(references[0], vocabulary, add=True)  # type: ignore[arg-type]
        return EditReferences(present, ids, lengths, vocabulary)

    @abstractmethod
    def _ids(self, lines: Sequence[str], vocabulary: dict[str, int], add: bool) -> tuple[np.ndarray, np.ndarray]:
        """The lines' tokens as ids, concatenated, and their counts per line; words new to the
        references are added (``add``) or share the id -1, which matches no reference token."""

    def _statistics(self, prepared: EditReferences, hypotheses: Sequence[str]) -> np.ndarray:
        """(segments, 4) int64: [hits, substitutions, deletions, insertions] of each segment."""
        ids, lengths = self._ids(hypotheses, prepared.vocabulary, add=False)
        try:
            return edit_counts(Pairs(prepared.ids, prepared.lengths, ids, lengths))
        except TooLong as error:
            raise InputError(
                f"segment {error.index + 1} is too long for {self.name}: after their common start and end, "
                f"its reference and hypothesis differ over {error.n_ref:,} x {error.n_hyp:,} tokens, beyond what "
                f"is aligned ({MAX_LONG_CELLS:,} token pairs, {MAX_LONG_TOKENS:,} tokens a side; beyond them "
                "rapidfuzz, jiwer's engine, takes minutes to days or gigabytes); split the segment"
            ) from None

    def _small_rows(self, hypotheses: object, references: object, owner: type) -> tuple[list[list[int]], int] | None:
        """Each segment's [H, S, D, I] counted in plain Python on rapidfuzz's path (``small``), when the
        call is a few segments of text with their one reference stream given with it and every pair short
        enough for rapidfuzz's full matrix (whose path the vectorised engine follows); else ``None``."""
        if references is None or not self.plain_path_allowed(owner):
            return None
        segments = few_plain_segments(hypotheses, references, SMALL_SEGMENTS)
        if segments is None or len(references) != 1:  # type: ignore[arg-type]
            return None
        pairs = [
            (self._plain_tokens(lines[0]), self._plain_tokens(hypothesis))
            for hypothesis, lines in zip(hypotheses, segments, strict=True)  # type: ignore[call-overload]
        ]
        if not all(len(ref) * len(hyp) < _SMALL_CELLS for ref, hyp in pairs):
            return None  # a long pair: the vectorised path aligns it, or refuses it clearly
        rows = [edit_row(ref, hyp) for ref, hyp in pairs]
        self._references_seen(1)
        return rows, 1

    def _plain_tokens(self, line: str) -> Sequence[str]:
        """The tokens of a line as the plain-Python alignment compares them (``tokens`` by default)."""
        return self.tokens(line)

    def statistic_names(self) -> tuple[str, ...]:
        """jiwer's counts: hits, substitutions, deletions, insertions."""
        return ("hits", "substitutions", "deletions", "insertions")

    def statistics_width(self) -> int:
        return len(self.statistic_names())

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """The error rate (percent) of each row of summed [H, S, D, I]; with no reference tokens,
        jiwer's answer: the number of insertions (times 100)."""
        sums = np.asarray(sums, dtype=np.float64)
        n_ref = sums[..., HIT] + sums[..., SUBSTITUTION] + sums[..., DELETION]
        errors = sums[..., SUBSTITUTION] + sums[..., DELETION] + sums[..., INSERTION]
        ratio = np.divide(errors, n_ref, out=sums[..., INSERTION].copy(), where=n_ref > 0)
        return 100 * ratio

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature({"nrefs": str(nrefs), "tf": self.transform})

    def _sums(self, statistics: np.ndarray) -> list[int]:
        return [int(x) for x in np.asarray(statistics).sum(axis=0)]

    def explain(self, hypotheses: list[str], references: list[list[str | None]]) -> Any:
        """Each segment's alignment: which tokens are hits, substituted, deleted and inserted."""
        from .explanation import explain

        return explain(self, hypotheses, references)

    @abstractmethod
    def tokens(self, line: str) -> list[str]:
        """The tokens of one line, as the transformation gives them."""

    @abstractmethod
    def _result_of(self, sums: list[int], nrefs: int | str) -> ScoreT:
        """The result of summed [H, S, D, I] against ``nrefs`` references per segment."""

    def _plain_owner(self) -> type:
        """The class whose plain-Python path this metric takes (WER or CER, a subclass's too)."""
        return next(cls for cls in type(self).__mro__ if EditRate in cls.__bases__)

    def corpus_score(self, hypotheses: Sequence[str], references: ReferenceStreams | None = None) -> ScoreT:
        """The corpus score (a call of a few segments aligned in plain Python, ``small``: the same counts)."""
        rows = self._small_rows(hypotheses, references, self._plain_owner())
        if rows is None:
            return super().corpus_score(hypotheses, references)
        return self._returned(self._result_of([sum(column) for column in zip(*rows[0], strict=True)], rows[1]))

    def sentence_scores(self, hypotheses: Sequence[str], references: ReferenceStreams | None = None) -> np.ndarray:
        """Every segment's own score, in one vectorised pass (a few segments aligned in plain Python)."""
        rows = self._small_rows(hypotheses, references, self._plain_owner())
        if rows is None:
            return super().sentence_scores(hypotheses, references)
        return self.scores_of_sums(np.array(rows[0], dtype=np.int64))


class WER(EditRate[WERScore]):
    """Word error rate (and MER, WIL, WIP) exact to jiwer 4.0's ``process_words``; give
    ``references`` (one stream) once to score many systems against them. ``standardize``:
    jiwer's ``wer_standardize`` transformation instead of ``wer_default``.

    >>> metric = WER([["the cat sat on the mat"]])
    >>> result = metric.corpus_score(["the cat sat on a mat"])
    >>> round(result.score, 2), result.substitutions
    (16.67, 1)
    """

    corpus_summary = (
        "Corpus WER of ``hypotheses`` against one reference stream (``[references]``), as jiwer's "
        "``process_words(references, hypotheses)``."
    )

    name = "WER"
    options = OPTIONS

    def __init__(self, references: ReferenceStreams | None = None, *, standardize: bool = False):
        self.transform = "standardize" if standardize else "default"
        self._split = WORD_TRANSFORMS[self.transform]
        super().__init__(references)

    def tokens(self, line: str) -> list[str]:
        return self._split(line)

    def _ids(self, lines: Sequence[str], vocabulary: dict[str, int], add: bool) -> tuple[np.ndarray, np.ndarray]:
        split = self._split
        words = [split(line) for line in lines]
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        lookup = vocabulary.setdefault if add else vocabulary.get
        if add:
            ids = [lookup(word, len(vocabulary)) for line in words for word in line]
        else:
            ids = [lookup(word, -1) for line in words for word in line]
        return np.array(ids, dtype=np.int64), lengths

    def _score(self, statistics: np.ndarray, references: EditReferences | None) -> WERScore:
        return self._result_of(self._sums(statistics), 1 if references is None else references.nrefs)

    def _result_of(self, sums: list[int], nrefs: int | str) -> WERScore:
        h, s, d, i = sums
        m = jiwer_measures(h, s, d, i)
        return WERScore(100 * m["wer"], h, s, d, i, m["wer"], m["mer"], m["wil"], m["wip"], self.signature(nrefs))


# The functional layer, made from WER's constructor (``core.functional``).
corpus_wer = corpus_function(WER, "corpus_wer")
sentence_wer = sentence_function(WER, "sentence_wer")
sentence_wers = sentences_function(WER, "sentence_wers")
