"""METEOR (Banerjee & Lavie 2005; Lavie & Agarwal 2007) exactly as NLTK 3.10's ``meteor_score``.

Each hypothesis is aligned with each of its references (``align``: exact words, Porter stems,
WordNet synonyms, all lowercased); with m matched words, c chunks, t hypothesis and r reference
words, P = m/t, R = m/r, Fmean = P*R / (alpha*P + (1-alpha)*R) and the sentence score is
Fmean * (1 - gamma * (c/m)**beta), 0 without matches; a segment scores its best reference (the first
of ties). NLTK has no corpus METEOR: the corpus score here is the mean of the sentence scores (as
Hugging Face ``evaluate`` reports it), so each segment's statistics are [its NLTK score, 1] plus the
integer counts m, c, t, r of its best reference. Scores are shown as percentages (100 x NLTK's 0-1).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ... import tokenizers
from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import ReferenceStreams, check_references
from ...core.metric import Metric
from ...core.references import References
from ...core.score import ScoreResult
from ...core.signature import Signature, tool_signature
from ...engine import ragged
from ...engine.keys import ranges
from ...errors import InputError
from .align import Tokens, align
from .options import OPTIONS
from .porter import stem
from .wordnet import WordNet, find_wordnet

__all__ = ["METEOR", "METEORScore", "corpus_meteor", "sentence_meteor", "sentence_meteors"]

COLUMNS = ("score", "segments", "matches", "chunks", "hyp_len", "ref_len")
_PIECE = 4096  # lines turned into word ids at once


@dataclass(frozen=True)
class METEORScore(ScoreResult):
    """A METEOR result: ``score`` (percent: the mean NLTK sentence score x 100) and the counts
    summed over segments (matched words, chunks, hypothesis and best-reference words)."""

    score: float
    matches: int
    chunks: int
    hyp_len: int
    ref_len: int
    signature: Signature = field(compare=False)
    name: str = "METEOR"

    dict_fields = ("matches", "chunks", "hyp_len", "ref_len")  # the summed counts


class Lexicon:
    """Ids of words and of stems, each word's stem and each stem's synonyms: computed once per
    word type, on first need (a word only ever matched exactly is never stemmed), and kept for
    every later call (stems and synonyms are what is slow). It grows as it is used, without a lock:
    give each thread its own ``METEOR`` object (processes, as Ray and Dask use, each have theirs)."""

    def __init__(self, wordnet: WordNet | None):
        self.wordnet = wordnet
        self.words: dict[str, int] = {}
        self.stems: dict[str, int] = {}
        self._word_names: list[str] = []
        self._stem_names: list[str] = []
        self._stem_of = np.zeros(0, dtype=np.int64)  # word id -> stem id, -1: not stemmed yet
        self._related: dict[int, list[int]] = {}

    def ids(self, sentences: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
        """The word ids of all sentences, flat, and each sentence's length (a loop over new words only)."""
        words, flat = self.words, itertools.chain.from_iterable
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        new = [word for word in dict.fromkeys(flat(sentences)) if word not in words]
        words.update(zip(new, itertools.count(len(words))))
        self._word_names += new
        ids = np.fromiter(map(words.__getitem__, flat(sentences)), dtype=np.int64, count=int(lengths.sum()))
        return ids, lengths

    def _stem_id(self, name: str) -> int:
        if name not in self.stems:
            self.stems[name] = len(self._stem_names)
            self._stem_names.append(name)
        return self.stems[name]

    def stem_ids(self, word_ids: np.ndarray) -> np.ndarray:
        """The stem id of each word id; the words never stemmed before are stemmed now."""
        if len(self._stem_of) < len(self._word_names):
            more = np.full(len(self._word_names) - len(self._stem_of), -1, dtype=np.int64)
            self._stem_of = np.concatenate([self._stem_of, more])
        wanted = np.zeros(len(self._stem_of), dtype=bool)
        wanted[word_ids] = True
        new = np.flatnonzero(wanted & (self._stem_of < 0))
        names = self._word_names
        self._stem_of[new] = [self._stem_id(stem(names[word])) for word in new.tolist()]
        return self._stem_of[word_ids]

    def related(self, stem_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The stem ids of the WordNet synonyms of each stem (NLTK looks up stems), the stem itself
        left out: how many each has, and all of them concatenated."""
        cache = self._related
        lists = [cache[i] if i in cache else self._synonyms_of(i) for i in stem_ids.tolist()]
        counts = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        return counts, np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=int(counts.sum()))

    def _synonyms_of(self, stem_id: int) -> list[int]:
        assert self.wordnet is not None
        name, stems = self._stem_names[stem_id], self.stems
        synonyms = self.wordnet.synonyms(name)
        ids = {stems[word] if word in stems else self._stem_id(word) for word in synonyms if word != name}
        self._related[stem_id] = sorted(ids)
        return self._related[stem_id]


class METEORReferences(References):
    """Reference streams as word ids (lowercased, split), for any number of systems."""

    def __init__(self, ids: list[tuple[np.ndarray, np.ndarray]], present: np.ndarray):
        super().__init__(present)
        self.ids = [words for words, _ in ids]
        self.lengths = np.array([lengths for _, lengths in ids], dtype=np.int64)
        self.starts = ragged.starts(self.lengths)


def sentence_scores(statistics: np.ndarray, alpha: float, beta: float, gamma: float) -> np.ndarray:
    """NLTK's sentence METEOR (0-1) of rows [matches, chunks, hyp_len, ref_len], in its order of operations."""
    matches, chunks, hyp_len, ref_len = (statistics[:, k].astype(np.float64) for k in range(4))
    matched = matches > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        precision, recall = matches / hyp_len, matches / ref_len
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
        penalty = gamma * (chunks / matches) ** beta
        return np.where(matched, (1 - penalty) * fmean, 0.0)


def _check_options(alpha: float, beta: float, gamma: float) -> None:
    for name, value, top in (("alpha", alpha, 1.0), ("beta", beta, math.inf), ("gamma", gamma, 1.0)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top or math.isnan(value):
            limits = "a number >= 0" if top == math.inf else "a number from 0 to 1"
            raise InputError(f"METEOR's {name} must be {limits}, got {value!r}")


def _check_one_segment_per_row(rows: np.ndarray) -> None:
    """Each row is one segment, whose sentence score is between 0 and 1."""
    if len(rows) and not (rows[:, 1] == 1).all():
        raise InputError("METEOR statistics must count 1 segment per row")
    if (rows[:, 0] > 1).any():
        raise InputError("METEOR statistics with a sentence score above 1")


class METEOR(Metric[METEORReferences, METEORScore]):
    """METEOR as NLTK 3.10's ``meteor_score`` on whitespace-split words (``tokenize``: a tokenizer
    first); give ``references`` once to score many systems against them. WordNet 3.0 is found as
    ``find_wordnet`` says (``wordnet``: its folder); ``no_synonyms`` leaves the synonym stage out.

    >>> metric = METEOR([["the cat sat on the mat"]])
    >>> round(metric.corpus_score(["the cat sat on a mat"]).score, 4)
    74.3333
    """

    corpus_summary = "Corpus METEOR (the mean of the segment scores) of ``hypotheses`` against reference streams."
    sentence_summary = "METEOR of one segment against its references: NLTK's ``meteor_score`` x 100."

    name = "METEOR"
    options = OPTIONS
    integer_statistics = False

    def __init__(
        self,
        references: ReferenceStreams | None = None,
        *,
        tokenize: str = "none",
        wordnet: str | None = None,
        no_synonyms: bool = False,
        alpha: float = 0.9,
        beta: float = 3.0,
        gamma: float = 0.5,
    ):
        _check_options(alpha, beta, gamma)
        self.tokenizer = tokenizers.get(tokenize)
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)
        self.synonyms = not no_synonyms
        self.lexicon = Lexicon(find_wordnet(wordnet) if self.synonyms else None)
        super().__init__(references)

    def tokens(self, line: str) -> list[str]:
        """The words of one line, as METEOR matches them: tokenized, lowercased, split on whitespace."""
        return self.tokenizer.batch([line])[0].lower().split()

    def _ids(self, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The word ids of the lines, tokenized, lowercased (NLTK's default ``preprocess``) and split
        on whitespace, flat, and each line's length. A few thousand lines at a time: their words as
        strings (a kilobyte a line) are held a piece at a time, never all of them."""
        lines = list(lines)  # any sequence (a deque cannot be sliced)
        pieces = [
            self.lexicon.ids([line.lower().split() for line in self.tokenizer.batch(lines[at : at + _PIECE])])
            for at in range(0, len(lines), _PIECE)
        ]
        if not pieces:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate([ids for ids, _ in pieces]), np.concatenate([lengths for _, lengths in pieces])

    def prepare(self, references: ReferenceStreams, n_hypotheses: int | None = None) -> METEORReferences:
        """Check references and turn them into word ids (``None`` marks a missing reference)."""
        present = check_references(references, n_hypotheses)
        streams = [self._ids(["" if line is None else line for line in stream]) for stream in references]
        return METEORReferences(streams, present)

    def _statistics(self, prepared: METEORReferences, hypotheses: Sequence[str]) -> np.ndarray:
        """(segments, 6): [NLTK score, 1, matches, chunks, hyp_len, ref_len] against the best reference."""
        hyp_ids, hyp_lengths = self._ids(hypotheses)
        streams, segments = np.nonzero(prepared.present)
        pairs = np.arange(len(segments))
        hyp_starts, lengths = ragged.starts(hyp_lengths)[segments], hyp_lengths[segments]
        hyp_index, hyp_place = ranges(hyp_starts, lengths), ranges(np.zeros_like(lengths), lengths)
        hyp = Tokens(np.repeat(pairs, lengths), hyp_place, hyp_ids[hyp_index])
        ref_lengths = prepared.lengths[streams, segments]
        ref_index = ranges(prepared.starts[streams, segments], ref_lengths)
        ref_place = ranges(np.zeros_like(ref_lengths), ref_lengths)
        ref_words = np.concatenate([np.zeros(0, dtype=np.int64), *prepared.ids])
        stream_starts = ragged.starts([len(ids) for ids in prepared.ids])
        ref_index = ref_index + np.repeat(stream_starts[streams], ref_lengths)
        ref = Tokens(np.repeat(pairs, ref_lengths), ref_place, ref_words[ref_index])
        related = self.lexicon.related if self.synonyms else None
        matches, chunks = align(hyp, ref, self.lexicon.stem_ids, related, len(pairs))
        counts = np.stack([matches, chunks, hyp_lengths[segments], ref_lengths], axis=1)
        scores = np.full(prepared.present.shape, -np.inf)
        scores[streams, segments] = sentence_scores(counts, self.alpha, self.beta, self.gamma)
        best = np.argmax(scores, axis=0)  # the first reference of ties, as max() in NLTK
        chosen = np.full(prepared.present.shape, -1, dtype=np.int64)
        chosen[streams, segments] = pairs
        pick = chosen[best, np.arange(prepared.n_segments)]
        statistics = np.empty((prepared.n_segments, len(COLUMNS)))
        statistics[:, 0] = scores[best, np.arange(prepared.n_segments)]
        statistics[:, 1] = 1
        statistics[:, 2:] = counts[pick]
        return statistics

    def statistic_names(self) -> tuple[str, ...]:
        """NLTK's sentence score (0-1) and a count of 1, summed for the mean; then the chosen reference's
        matches, chunks and lengths."""
        return ("meteor", "segments", "matches", "chunks", "hyp_len", "ref_len")

    def statistics_width(self) -> int:
        return len(COLUMNS)

    whole_columns = (1, 2, 3, 4, 5)  # everything but the sentence score: count, matches, chunks, lengths
    statistic_bounds = ((3, 2), (2, 4), (2, 5))  # chunks are at most the matches, at most either length
    row_checks = (_check_one_segment_per_row,)

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """METEOR (percent) of each row of summed statistics: 100 x the mean sentence score."""
        sums = np.asarray(sums)
        if sums.dtype != np.float32:
            sums = sums.astype(np.float64)
        total, segments = sums[..., 0], sums[..., 1]
        mean = np.divide(total, segments, out=np.zeros_like(total), where=segments > 0)
        return (mean * sums.dtype.type(100)).astype(sums.dtype)

    def _signature(self, nrefs: int | str) -> Signature:
        return tool_signature(
            {
                "nrefs": str(nrefs),
                "case": "lc",
                "tok": self.tokenizer.name,
                "stem": "porter",
                "syn": "wordnet" if self.synonyms else "no",
                "alpha": f"{self.alpha:g}",
                "beta": f"{self.beta:g}",
                "gamma": f"{self.gamma:g}",
            },
            short={"stem": "st", "syn": "sy", "alpha": "a", "beta": "b", "gamma": "g"},
        )

    def _score(self, statistics: np.ndarray, references: METEORReferences | None) -> METEORScore:
        """The corpus score of per-segment statistics: the mean sentence score, and the summed counts."""
        statistics = np.asarray(statistics, dtype=np.float64)
        sums = statistics.sum(axis=0)
        matches, chunks, hyp_len, ref_len = (int(value) for value in sums[2:])
        score = float(self.scores_of_sums(sums))
        return METEORScore(score, matches, chunks, hyp_len, ref_len, self.signature_of(references))


# The functional layer, made from METEOR's constructor (``core.functional``).
corpus_meteor = corpus_function(METEOR, "corpus_meteor")
sentence_meteor = sentence_function(METEOR, "sentence_meteor")
sentence_meteors = sentences_function(METEOR, "sentence_meteors")
