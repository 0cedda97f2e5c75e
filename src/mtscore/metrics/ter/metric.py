"""TER, the translation edit rate (Snover et al., 2006), exactly as sacrebleu 2.6.0 computes it.

TER is the number of edits (word insertions, deletions, substitutions, and shifts of word
blocks) that turn the hypothesis into a reference, divided by the reference length: per segment
the fewest edits over its references and the *average* reference length; a corpus TER divides
the summed edits by the summed lengths. Text is first normalised as tercom does
(``mtscore.tokenizers.tercom``); the edits are counted with tercom's beam edit distance and greedy
shifts (``metrics.ter.align``, which explains the algorithm and its limits).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_references
from ...core.metric import Metric
from ...core.references import References
from ...core.score import ScoreResult
from ...core.signature import Signature, tool_signature
from ...core.stats import Statistics, float32_arithmetic
from ...errors import InputError
from ...tokenizers.tercom import TercomTokenizer
from .align import MAX_CELLS, count_edits, joined
from .options import OPTIONS, RENAMED


@dataclass(frozen=True)
class TERScore(ScoreResult):
    """A TER result: ``score`` (percent), ``num_edits`` (summed over segments) and ``ref_length``
    (the summed average reference lengths)."""

    score: float
    num_edits: int
    ref_length: float
    signature: Signature = field(compare=False)
    name: str = "TER"

    @property
    def ref_len(self) -> float:
        """The average reference length in words (``ref_length``, sacrebleu's name, is the same number)."""
        return self.ref_length

    # ``to_dict``: sacrebleu's attributes, without the name.
    dict_fields = ("num_edits", "ref_length")
    dict_has_name = False


class TERReferences(References):
    """Tokenized reference streams as token ids, reusable for any number of systems.

    ``ids[s][i]`` is stream ``s``'s reference for segment ``i`` (``None`` when missing)."""

    def __init__(self, tokens: Iterable[Iterable[list[str] | None]], present: np.ndarray):
        """``tokens``: each stream's words per segment, as lists or taken one at a time (a line's
        words are then held only until they are ids)."""
        super().__init__(present)
        self.vocabulary: dict[str, int] = {}
        self.ids = [[None if words is None else self._encode(words) for words in stream] for stream in tokens]
        self.lengths = np.array(
            [[0 if ids is None else len(ids) for ids in stream] for stream in self.ids], dtype=np.int64
        )

    def _encode(self, words: list[str]) -> np.ndarray:
        """Reference words as ids, new words added to the vocabulary."""
        add = self.vocabulary.setdefault
        return np.array([add(word, len(self.vocabulary)) for word in words], dtype=np.int32)

    def statistics(self, hypotheses: Iterable[list[str]]) -> np.ndarray:
        """Per segment: the fewest edits over its references and their average length."""
        return count_pairs([self.pairs(hypotheses)])[0]

    def pairs(self, hypotheses: Iterable[list[str]]) -> TERPairs:
        """The (hypothesis, reference) pairs of tokenized ``hypotheses`` as ids, to count later."""
        unknown = -1  # hypothesis words that no reference has: they only ever mismatch
        hyp_ids = [np.array([self.vocabulary.get(w, unknown) for w in words], dtype=np.int32) for words in hypotheses]
        _check_sizes(np.array([len(ids) for ids in hyp_ids]), np.where(self.present, self.lengths, 0))
        streams, segments = np.nonzero(self.present)  # only present references (never None) are compared
        references = cast("list[np.ndarray]", [self.ids[s][i] for s, i in zip(streams, segments, strict=True)])
        average = self.lengths.sum(axis=0) / self.present.sum(axis=0)
        return TERPairs(*joined([hyp_ids[i] for i in segments]), *joined(references), streams, segments, average)


# Streamed blocks are counted once this many segments, or words of both sides of the pairs, are
# gathered (a batch may pass a bound by less than one block). A batch's ids are held once, at 4 bytes
# a word; the engine's working memory grows with the words too (see ``stream_batch_full``).
STREAM_BATCH_SEGMENTS = 320_000
STREAM_BATCH_WORDS = 12_000_000


@dataclass
class TERPairs:
    """The pairs a block of segments compares, as ids joined in one array per side with each pair's
    length (a pair's ids are its own: different pairs' may come from different vocabularies), and
    what places their edit counts: stream and segment."""

    hypotheses: np.ndarray
    hypothesis_lengths: np.ndarray
    references: np.ndarray
    reference_lengths: np.ndarray
    streams: np.ndarray
    segments: np.ndarray
    average_lengths: np.ndarray  # per segment: its references' average length

    @property
    def words(self) -> int:
        """The words of every pair, both sides."""
        return len(self.hypotheses) + len(self.references)


def count_pairs(blocks: list[TERPairs]) -> list[np.ndarray]:
    """Each block's statistics (per segment: the fewest edits over its references, and their
    average length), every block's pairs counted at once: the engine's steps are shared by pairs of
    the same shape, so many pairs cost less each. The blocks are spent: their ids are taken (one
    block's shifted in place, several joined and released one by one), so they are held once."""
    starts = np.cumsum([0] + [len(block.average_lengths) for block in blocks])
    segments = np.concatenate([block.segments + start for block, start in zip(blocks, starts, strict=False)])
    # only each segment's fewest edits are kept: with several references, the engine may stop some early
    groups = segments if len(segments) > starts[-1] else None
    hypotheses = (_take(blocks, "hypotheses"), np.concatenate([block.hypothesis_lengths for block in blocks]))
    references = (_take(blocks, "references"), np.concatenate([block.reference_lengths for block in blocks]))
    edits = count_edits(hypotheses, references, groups, shift_in_place=True)
    out, at = [], 0
    for block in blocks:
        n_segments = len(block.average_lengths)
        fewest = np.full((int(block.streams.max(initial=-1)) + 1, n_segments), np.iinfo(np.int64).max)
        fewest[block.streams, block.segments] = edits[at : at + len(block.segments)]
        at += len(block.segments)
        statistics = np.empty((n_segments, 2))
        statistics[:, 0] = fewest.min(axis=0, initial=np.iinfo(np.int64).max)
        statistics[:, 1] = block.average_lengths
        out.append(statistics)
    return out


def _take(blocks: list[TERPairs], side: str) -> np.ndarray:
    """One side's ids of every block in one array of its own: a single block's own array, or
    the blocks' joined, each block's released as soon as it is copied."""
    parts = [getattr(block, side) for block in blocks]
    for block in blocks:
        setattr(block, side, _SPENT)
    if len(parts) == 1:
        return parts[0]
    out = np.empty(sum(len(part) for part in parts), dtype=np.int32)
    at = 0
    for number, part in enumerate(parts):
        out[at : at + len(part)] = part
        at += len(part)
        parts[number] = _SPENT
    return out


_SPENT = np.zeros(0, dtype=np.int32)  # a counted block's ids


def _check_sizes(hyp_lengths: np.ndarray, ref_lengths: np.ndarray) -> None:
    """Refuse, naming it, a segment whose edit-distance matrix would not fit in ``MAX_CELLS``
    (tercom's matrices are (hypothesis + 1) x (reference + 1) words)."""
    cells = (hyp_lengths + 1) * (ref_lengths.max(axis=0, initial=0) + 1)
    if cells.size and cells.max() > MAX_CELLS:
        segment = int(np.argmax(cells))
        raise InputError(
            f"segment {segment + 1}: TER of a {hyp_lengths[segment]}-word hypothesis against a "
            f"{ref_lengths[:, segment].max()}-word reference needs a {cells[segment]:,}-cell edit-distance matrix, "
            f"more than the {MAX_CELLS:,} TER allows (about {math.isqrt(MAX_CELLS):,} x {math.isqrt(MAX_CELLS):,} "
            "words); split long documents into sentences"
        )


class TER(Metric[TERReferences, TERScore]):
    """TER with fixed options (sacrebleu's names and defaults); give ``references`` once to score
    many systems against them.

    >>> metric = TER([["the cat sat on the mat"]])
    >>> metric.corpus_score(["the mat sat on the cat"]).score
    33.33333333333333
    """

    name = "TER"
    higher_is_better = False
    options = OPTIONS
    renamed_options = RENAMED
    integer_statistics = False

    def __init__(
        self,
        references: ReferenceStreams | None = None,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        lowercase: bool = True,
    ):
        self.lowercase = bool(lowercase)
        self.tokenizer = TercomTokenizer(normalized, no_punct, asian_support, case_sensitive=not lowercase)
        super().__init__(references)

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> TERReferences:
        """Check and tokenize reference streams (``None`` marks a missing reference)."""
        present = check_references(references, n_hypotheses)
        tokenize = self.tokenizer
        return TERReferences(
            ((None if line is None else tokenize(line) for line in stream) for stream in references), present
        )

    def _signature(self, nrefs: int | str) -> Signature:
        """sacrebleu's TER signature fields, naming this tool's version."""
        options = self.tokenizer
        yes_no = {True: "yes", False: "no"}
        return tool_signature(
            {
                "nrefs": str(nrefs),
                "case": "mixed" if options.case_sensitive else "lc",
                "tok": "tercom",
                "norm": yes_no[options.normalized],
                "punct": yes_no[not options.no_punct],
                "asian": yes_no[options.asian_support],
            },
            short={"tok": "t"},
        )

    def statistic_names(self) -> tuple[str, ...]:
        """The fewest edits over the references, and the average reference length."""
        return ("edits", "ref_length")

    def statistics_width(self) -> int:
        return len(self.statistic_names())

    whole_columns = (0,)  # the edits (the reference length is an average over the references)

    def tokens(self, line: str) -> list[str]:
        """The words of one line, as TER aligns them (tercom's tokenisation, with this metric's options)."""
        return self.tokenizer(line)

    def _statistics(self, prepared: TERReferences, hypotheses: Sequence[str]) -> np.ndarray:
        """(segments, 2) float64: sacrebleu's [fewest edits over the references, average reference length]."""
        return prepared.statistics(map(self.tokenizer, hypotheses))

    def stream_part(self, hypotheses: Sequence[str]) -> TERPairs:
        """A streamed block's pairs as word ids (4 bytes a word), counted with the next blocks'."""
        prepared, hypotheses = self._resolve(hypotheses, None)
        return prepared.pairs(map(self.tokenizer, hypotheses))

    def stream_batch_full(self, parts: list[TERPairs]) -> bool:
        """Streamed blocks are counted once ``STREAM_BATCH_SEGMENTS`` segments or ``STREAM_BATCH_WORDS``
        words are gathered: TER's steps cost less per pair when many pairs share them, and the bound
        keeps a batch's memory small (docs/performance.md gives the times and peaks of other sizes)."""
        segments = sum(len(part.average_lengths) for part in parts)
        return segments >= STREAM_BATCH_SEGMENTS or sum(part.words for part in parts) >= STREAM_BATCH_WORDS

    def count_stream_parts(self, parts: list[TERPairs]) -> list[Statistics]:
        """The gathered blocks' statistics, their pairs counted at once."""
        return [Statistics(statistics) for statistics in count_pairs(parts)]

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """TER (percent) of each row of summed statistics, with sacrebleu's special cases: no
        reference words gives 100 if there are edits, else 0. float32 sums are scored with
        float32 arithmetic and give float32 scores, as in sacrebleu's resampling; else float64."""
        sums = np.asarray(sums)
        if sums.dtype != np.float32:
            sums = sums.astype(np.float64)
        edits, length = sums[..., 0], sums[..., 1]
        ratio = np.divide(edits, length, out=np.zeros_like(edits), where=length > 0)
        if sums.dtype == np.float32:
            arithmetic = np.dtype(float32_arithmetic())
            ratio = ratio.astype(arithmetic) * arithmetic.type(100)
        else:
            ratio = 100 * ratio
        return np.where(length > 0, ratio, np.where(edits > 0, 100.0, 0.0)).astype(ratio.dtype)

    def _score(self, statistics: np.ndarray, references: TERReferences | None) -> TERScore:
        """The corpus score of per-segment statistics (summed in order, as sacrebleu does)."""
        statistics = np.asarray(statistics, dtype=np.float64)
        sums = np.cumsum(statistics, axis=0)[-1]
        return TERScore(
            score=float(self.scores_of_sums(sums)),
            num_edits=int(sums[0]),
            ref_length=float(sums[1]),
            signature=self.signature_of(references),
        )


# The functional layer, made from TER's constructor (``core.functional``).
corpus_ter = corpus_function(TER, "corpus_ter")
sentence_ter = sentence_function(TER, "sentence_ter")
sentence_ters = sentences_function(TER, "sentence_ters")
