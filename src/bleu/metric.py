"""The BLEU pipeline: tokenize -> encode -> count -> ``Stats`` -> score, references prepared once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import tokenizers
from .count import ReferenceNgrams, closest_lengths, ngram_totals
from .encode import build_vocabulary, encode
from .errors import BleuInputError, LengthMismatchError
from .report import BLEUScore
from .score import Scoring, compute
from .signature import Signature
from .stats import Stats


def _is_sequence(value) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _first_bad(items: Sequence, allowed: tuple[type, ...]) -> int | None:
    """Index of the first item that is not an instance of ``allowed`` (fast when all are)."""
    if set(map(type, items)) <= set(allowed):
        return None
    return next((i for i, item in enumerate(items) if not isinstance(item, allowed)), None)


def check_hypotheses(hypotheses) -> None:
    """Hypotheses must be a non-empty list of str."""
    if isinstance(hypotheses, str):
        raise BleuInputError("hypotheses must be a list of str, got a single str; wrap it as [hypothesis]")
    if not _is_sequence(hypotheses):
        raise BleuInputError(f"hypotheses must be a list of str, got {type(hypotheses).__name__}")
    if len(hypotheses) == 0:
        raise BleuInputError("no hypotheses to score")
    index = _first_bad(hypotheses, (str,))
    if index is not None:
        raise BleuInputError(f"hypothesis {index} is {type(hypotheses[index]).__name__}, expected str")


def check_references(references, n_hypotheses: int | None = None) -> None:
    """References must be a list of streams (lists of str or None), each as long as the hypotheses."""
    if isinstance(references, str) or not _is_sequence(references):
        raise BleuInputError(
            "references must be a list of reference streams (each a list of str, one per hypothesis), "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise BleuInputError("no references given")
    if all(isinstance(stream, str) for stream in references):
        raise BleuInputError(
            "references must be a list of reference streams, got a list of str; "
            "for one reference per segment pass [references]"
        )
    for number, stream in enumerate(references, 1):
        if not _is_sequence(stream):
            raise BleuInputError(f"reference stream {number} is {type(stream).__name__}, expected a list of str")
        index = _first_bad(stream, (str, type(None)))
        if index is not None:
            raise BleuInputError(
                f"reference stream {number}, segment {index} is {type(stream[index]).__name__}, expected str or None"
            )
    lengths = [len(stream) for stream in references]
    if n_hypotheses is None:
        n_hypotheses = lengths[0]
    for number, length in enumerate(lengths, 1):
        if length != n_hypotheses:
            message = (
                f"{n_hypotheses} hypotheses but reference stream {number} has {length} segments; "
                "every reference stream needs one line per hypothesis"
            )
            if len(references) == n_hypotheses and len(set(lengths)) == 1:
                message += (
                    f". The references look transposed: {len(references)} lists of {length}, one per segment. "
                    "Pass one list per reference stream instead, e.g. [list(s) for s in zip(*references)]"
                )
            raise LengthMismatchError(message)
    if all(None in stream for stream in references):
        missing = [all(stream[i] is None for stream in references) for i in range(n_hypotheses)]
        if any(missing):
            first = missing.index(True)
            raise BleuInputError(f"segment {first} has no reference: every reference stream has None there")


class PreparedReferences:
    """Tokenized, encoded and counted references, reusable for any number of systems."""

    def __init__(self, segments: list[list[list[str] | None]], max_order: int):
        self.n_segments = len(segments[0])
        present = [[tokens is not None for tokens in stream] for stream in segments]
        self.present = np.array(present, dtype=bool)
        filled = [[tokens or [] for tokens in stream] for stream in segments]
        self.vocabulary = build_vocabulary([tokens for stream in filled for tokens in stream])
        encoded = [encode(stream, self.vocabulary) for stream in filled]
        self.lengths = np.stack([lengths for _, lengths in encoded])
        self.ngrams = ReferenceNgrams(encoded, len(self.vocabulary), max_order)
        counts = set(self.present.sum(axis=0).tolist())
        self.nrefs: int | str = counts.pop() if len(counts) == 1 else "var"

    def stats(self, hypotheses: list[list[str]]) -> Stats:
        """Statistics of tokenized hypotheses aligned with these references."""
        ids, hyp_len = encode(hypotheses, self.vocabulary)
        return Stats(
            matches=self.ngrams.matches(ids, hyp_len),
            totals=ngram_totals(hyp_len, self.ngrams.max_order),
            hyp_len=hyp_len,
            ref_len=closest_lengths(hyp_len, self.lengths, self.present),
        )


class BLEU:
    """BLEU with fixed options; give ``references`` once to score many systems against them.

    >>> metric = BLEU([["the cat sat on the mat"]])
    >>> round(metric.corpus_score(["the cat sat on a mat"]).score, 2)
    53.73
    """

    def __init__(
        self,
        references: Sequence[Sequence[str | None]] | None = None,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth: str = "exp",
        smooth_value: float | None = None,
        max_order: int = 4,
        weights: Sequence[float] | None = None,
        effective_order: bool = False,
    ):
        self.scoring = Scoring(
            smooth, smooth_value, effective_order, max_order, None if weights is None else tuple(weights)
        )
        self.tokenizer = tokenizers.get(tokenize)
        self.lowercase = lowercase
        self._references = None if references is None else self.prepare(references)

    def tokenize(self, lines: list[str]) -> list[list[str]]:
        """Lowercase (if asked), strip trailing whitespace, tokenize and split each line."""
        if self.lowercase:
            lines = [line.lower() for line in lines]
        return [line.split() for line in self.tokenizer.batch([line.rstrip() for line in lines])]

    def prepare(self, references: Sequence[Sequence[str | None]]) -> PreparedReferences:
        """Tokenize and count reference streams (a list of streams, ``None`` for a missing line)."""
        check_references(references)
        segments = []
        for stream in references:
            tokens = iter(self.tokenize([line for line in stream if line is not None]))
            segments.append([None if line is None else next(tokens) for line in stream])
        return PreparedReferences(segments, self.scoring.max_order)

    def _resolve(self, hypotheses, references) -> PreparedReferences:
        check_hypotheses(hypotheses)
        if references is not None:
            check_references(references, len(hypotheses))
            return self.prepare(references)
        if self._references is None:
            raise BleuInputError("no references: pass them here or when creating the metric")
        if self._references.n_segments != len(hypotheses):
            raise LengthMismatchError(
                f"{len(hypotheses)} hypotheses but the prepared references have {self._references.n_segments} segments"
            )
        return self._references

    def stats(self, hypotheses: Sequence[str], references=None) -> Stats:
        """Per-segment sufficient statistics."""
        prepared = self._resolve(hypotheses, references)
        return prepared.stats(self.tokenize(list(hypotheses)))

    def signature(self, nrefs: int | str) -> Signature:
        return Signature.for_bleu(nrefs, self.lowercase, self.tokenizer.name, self.scoring)

    def score_stats(self, stats: Stats, nrefs: int | str = 1) -> BLEUScore:
        """The corpus score of already computed statistics."""
        total = stats.total()
        rows = compute(total, self.scoring)
        return BLEUScore(
            score=float(rows.scores[0]),
            counts=total.matches[0].tolist(),
            totals=total.totals[0].tolist(),
            precisions=rows.precisions[0].tolist(),
            bp=float(rows.bp[0]),
            sys_len=int(total.hyp_len[0]),
            ref_len=int(total.ref_len[0]),
            signature=self.signature(nrefs),
        )

    def corpus_score(self, hypotheses: Sequence[str], references=None) -> BLEUScore:
        """Corpus BLEU: the formula over statistics summed across segments."""
        prepared = self._resolve(hypotheses, references)
        return self.score_stats(prepared.stats(self.tokenize(list(hypotheses))), prepared.nrefs)
