"""NIST's mergeable state: a shard of a corpus reduced to n-gram tables that add up exactly.

The corpus score needs, per order, the clipped hypothesis matches weighed by information weights
that come from the counts of every reference of the corpus. Clipping is per segment, so a shard
keeps: the counts of its reference n-grams and its reference words (the weights' inputs), and
its matches. For mteval the matches are a table of clipped counts per n-gram summed over the
shard's segments, with the hypothesis n-grams per order and the reference words per number of
references present (the average reference length). NLTK picks a reference per segment and order
by its information sum, so its matches stay per segment: each reference's clipped overlap, in
the order of first occurrence in the hypothesis (NLTK's float order, for near-ties).

N-grams are rows of token numbers into the state's sorted list of token bytes, so states of
different shards merge exactly (tokens united, rows renumbered, counts added: associative and
commutative) and the merged state is scored with the weights of the whole corpus. The
information sums are correctly rounded (``math.fsum``), so the score does not depend on the order
in which shards were merged.

Segment scores need the same weights: ``reference_state`` keeps a shard's reference tables alone,
merged over every shard as states are, and ``segment_rows`` gives a shard's segments the rows the
in-memory API gives them within the whole corpus, weighed with that merge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import numpy as np

from ...core.inputs import check_hypotheses, check_references
from ...engine import ragged
from ...engine.keys import TokenKeys
from ...errors import InputError
from ...tokenizers.lines import Split, split_lines
from .options import NISTSettings
from .references import columns, information
from .ties import choose_nltk, nltk_weights

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")  # mteval's tr/A-Z/a-z/


@dataclass(frozen=True)
class Table:
    """Distinct n-grams of one order (rows of token numbers, sorted) with a count each."""

    rows: np.ndarray  # k x n, int64
    counts: np.ndarray  # k, int64


@dataclass(frozen=True)
class Overlaps:
    """NLTK: the clipped overlap of each reference with each segment's hypothesis, for one order:
    an entry per (segment, hypothesis n-gram that some reference holds), segments ascending, in
    the order of the n-gram's first occurrence in the hypothesis."""

    segments: np.ndarray  # k
    rows: np.ndarray  # k x n
    clipped: np.ndarray  # k x streams: min(hypothesis count, the stream's count)


@dataclass(frozen=True)
class StateOptions:
    """What made a state, which must agree for states to merge or to be scored."""

    variant: str
    max_order: int
    lowercase: bool
    tokenizer: str

    def __str__(self) -> str:
        return (
            f"variant {self.variant}, max_order {self.max_order}, lowercase {self.lowercase}, tokenize {self.tokenizer}"
        )


@dataclass(frozen=True, eq=False)
class SharedCounts:
    """What both variants keep: the reference n-gram counts and words (the information weights'
    inputs) and the hypotheses' n-grams."""

    tokens: np.ndarray  # the reference tokens' bytes (object array), sorted, distinct
    references: tuple[Table, ...]  # per order: the reference n-grams' counts over every reference
    ref_words: int
    segments: int
    totals: np.ndarray  # per order: hypothesis n-grams
    hyp_len: int


@dataclass(frozen=True, eq=False)
class CorpusMatches:
    """mteval's matches, summed over the segments: it clips each n-gram to its largest reference
    count and takes the average reference length."""

    matched: tuple[Table, ...]  # per order: clipped matches summed over segments
    words_by_present: np.ndarray  # [d]: reference words of the segments with d references


@dataclass(frozen=True, eq=False)
class SegmentMatches:
    """Each segment's matches with each reference, what NLTK's choice of a reference per segment
    and order needs (and what a segment's own row is made of)."""

    overlaps: tuple[Overlaps, ...]  # per order
    denominators: np.ndarray  # segments x N: hypothesis n-grams
    lengths: np.ndarray  # streams x segments: reference lengths (-1: missing)

    @property
    def streams(self) -> int:
        """The number of reference streams."""
        return int(self.lengths.shape[0])


@dataclass(frozen=True, eq=False)
class NISTState:
    """A shard's mergeable state (``+`` merges two): the counts both variants keep, and the
    matches of the variant that ``options`` names (mteval's ``CorpusMatches``, NLTK's
    ``SegmentMatches``)."""

    options: StateOptions
    shared: SharedCounts
    matches: CorpusMatches | SegmentMatches

    @property
    def segments(self) -> int:
        """The number of segments the state counts."""
        return self.shared.segments

    def __add__(self, other: Any) -> NISTState:
        if not isinstance(other, NISTState):
            return NotImplemented
        return merge(self, other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NISTState):
            return NotImplemented
        return _equal(self, other)

    __hash__ = None  # type: ignore[assignment]


def options_of(metric: NISTSettings) -> StateOptions:
    """What a NIST metric's state depends on: variant, max order, case, tokenizer."""
    return StateOptions(metric.variant, metric.max_order, metric.lowercase, metric.tokenizer.name)


def empty_state(metric: NISTSettings, streams: int = 0) -> NISTState:
    """The state of no segments (the neutral element of ``merge``) with ``streams`` reference streams."""
    shared = _empty_shared(metric.max_order)
    if metric.variant == "mteval":
        return NISTState(options_of(metric), shared, _empty_corpus_matches(metric.max_order, streams))
    return NISTState(options_of(metric), shared, _empty_segment_matches(metric.max_order, streams))


def _empty_tables(max_order: int) -> tuple[Table, ...]:
    return tuple(Table(np.zeros((0, n), dtype=np.int64), np.zeros(0, dtype=np.int64)) for n in range(1, max_order + 1))


def _empty_shared(max_order: int) -> SharedCounts:
    tables = _empty_tables(max_order)
    return SharedCounts(
        tokens=_objects([]),
        references=tables,
        ref_words=0,
        segments=0,
        totals=np.zeros(max_order, dtype=np.int64),
        hyp_len=0,
    )


def _empty_corpus_matches(max_order: int, streams: int) -> CorpusMatches:
    return CorpusMatches(matched=_empty_tables(max_order), words_by_present=np.zeros(streams + 1, dtype=np.int64))


def _empty_segment_matches(max_order: int, streams: int) -> SegmentMatches:
    overlaps = tuple(
        Overlaps(np.zeros(0, dtype=np.int64), np.zeros((0, n), dtype=np.int64), np.zeros((0, streams), dtype=np.int64))
        for n in range(1, max_order + 1)
    )
    return SegmentMatches(
        overlaps=overlaps,
        denominators=np.zeros((0, max_order), dtype=np.int64),
        lengths=np.zeros((streams, 0), dtype=np.int64),
    )


def shard_state(
    metric: NISTSettings, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> NISTState:
    """The state of one shard: hypotheses and their reference streams (``None``: missing, which
    adds no n-gram and leaves the segment's reference length to the references present)."""
    if len(hypotheses) == 0:
        return empty_state(metric, len(references))
    mteval = metric.variant == "mteval"
    shared, corpus, segments = _counted(metric, hypotheses, references, corpus=mteval, per_segment=not mteval)
    matches = corpus if mteval else segments
    assert matches is not None  # the variant's part was asked for
    return NISTState(options_of(metric), shared, matches)


def _counted(
    metric: NISTSettings,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    corpus: bool,
    per_segment: bool,
) -> tuple[SharedCounts, CorpusMatches | None, SegmentMatches | None]:
    """The shared counts of a shard with segments, and the matches asked for: summed over the
    segments (``corpus``, mteval's) and per segment (``per_segment``, NLTK's and a segment's row)."""
    check_hypotheses(hypotheses)
    present = check_references(references, len(hypotheses))
    n_streams, n_segments = present.shape
    big_n = metric.max_order
    ref_words, lengths = _words(metric, [line or "" for stream in references for line in stream])
    tokens = _objects(sorted(set(ref_words)))
    numbers = {token: number for number, token in enumerate(tokens.tolist())}
    ref_ids = np.fromiter(map(numbers.__getitem__, ref_words), dtype=np.int64, count=len(ref_words))
    hyp_words, hyp_lengths = _words(metric, list(hypotheses))
    hyp_ids = np.fromiter((numbers.get(w, -1) for w in hyp_words), dtype=np.int64, count=len(hyp_words))
    lengths = lengths.reshape(n_streams, n_segments)
    vocab = max(len(tokens), 1)
    ref_at, hyp_at = _Positions(ref_ids, lengths.ravel()), _Positions(hyp_ids, hyp_lengths)
    refs, matched, overlaps = [], [], []
    table_rows = np.zeros((0, 0), dtype=np.int64)
    for n in range(1, big_n + 1):
        keys, ref_line = ref_at.keys(n, vocab)
        distinct, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        ref_at.number(inverse.ravel())
        table_rows = _rows(table_rows, distinct, vocab)
        refs.append(Table(table_rows, counts.astype(np.int64)))
        stream, segment = np.divmod(ref_line, n_segments)
        size = max(len(distinct), 1)
        ref_keys, ref_counts = np.unique((stream * n_segments + segment) * size + inverse.ravel(), return_counts=True)
        hyp_keys, hyp_segment = hyp_at.keys(n, vocab)
        found = _search(distinct, hyp_keys)
        hyp_at.number(found)
        known = found >= 0
        packed, first, hyp_counts = np.unique(
            hyp_segment[known] * size + found[known], return_index=True, return_counts=True
        )
        seg, ngram = np.divmod(packed, size)
        per_stream = np.stack(
            [_lookup(ref_keys, ref_counts, (s * n_segments + seg) * size + ngram) for s in range(n_streams)], axis=1
        )
        clipped = np.minimum(hyp_counts[:, None], per_stream)
        if corpus:
            best = clipped.max(axis=1, initial=0)
            sums = np.bincount(ngram, weights=best, minlength=len(table_rows)).astype(np.int64)
            kept = np.flatnonzero(sums)
            matched.append(Table(table_rows[kept], sums[kept]))
        if per_segment:
            order = np.argsort(np.flatnonzero(known)[first], kind="stable")  # by first occurrence
            order = order[clipped[order].any(axis=1)]
            overlaps.append(Overlaps(seg[order], table_rows[ngram[order]], clipped[order]))
    denominators = np.maximum(hyp_lengths[:, None] - np.arange(big_n)[None, :], 0)
    shared = SharedCounts(
        tokens=tokens,
        references=tuple(refs),
        ref_words=int(lengths.sum()),
        segments=n_segments,
        totals=denominators.sum(axis=0),
        hyp_len=int(hyp_lengths.sum()),
    )
    corpus_matches = None
    if corpus:
        words = (lengths * present).sum(axis=0)
        by_present = np.bincount(present.sum(axis=0), weights=words, minlength=n_streams + 1).astype(np.int64)
        corpus_matches = CorpusMatches(matched=tuple(matched), words_by_present=by_present)
    segment_matches = None
    if per_segment:
        segment_matches = SegmentMatches(
            overlaps=tuple(overlaps), denominators=denominators, lengths=np.where(present, lengths, -1)
        )
    return shared, corpus_matches, segment_matches


def reference_state(metric: NISTSettings, references: Sequence[Sequence[str | None]]) -> NISTState:
    """The state of a shard's references alone (no segment): their n-gram counts and words, what
    a segment's score needs from the whole corpus (the information weights); merged with ``+``,
    ``segment_rows`` scores any shard's segments with them."""
    counted = shard_state(metric, [""] * len(references[0]) if len(references) else [], references).shared
    empty = empty_state(metric)
    shared = replace(empty.shared, tokens=counted.tokens, references=counted.references, ref_words=counted.ref_words)
    return replace(empty, shared=shared)


def segment_rows(
    metric: NISTSettings, corpus: NISTState, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> np.ndarray:
    """Each segment's row of statistics (``references.columns``) as the in-memory API gives it
    within the whole corpus: its own matches and lengths, weighed with the information of
    ``corpus``'s reference counts (the ``reference_state`` of every shard, this one's included,
    merged)."""
    _check_scorable(metric, corpus)
    big_n = metric.max_order
    if len(hypotheses) == 0:
        return np.zeros((0, columns(big_n)), dtype=np.float64)
    shard, _, per_segment = _counted(metric, hypotheses, references, corpus=False, per_segment=True)
    assert per_segment is not None  # asked for
    weights = corpus.shared
    renumber = np.searchsorted(weights.tokens, shard.tokens).astype(np.int64)
    held = renumber < len(weights.tokens)
    if not held.all() or not np.array_equal(weights.tokens[renumber], shard.tokens):
        raise InputError("these references are not among those of the corpus whose NIST weights were given")
    keys = _table_keys(weights.references, max(len(weights.tokens), 1))
    counted = [_counts(metric, weights, renumber[over.rows], keys) for over in per_segment.overlaps]
    ranks = _vocabulary_ranks(shard.tokens)  # each order's entries summed as the in-memory API sums them
    sums = [
        np.lexsort([*(ranks[over.rows[:, j]] for j in reversed(range(n))), over.segments])
        for n, over in enumerate(per_segment.overlaps, 1)
    ]
    n_segments = shard.segments
    rows = np.zeros((n_segments, columns(big_n)), dtype=np.float64)
    rows[:, big_n : 2 * big_n] = per_segment.denominators
    rows[:, -2] = per_segment.denominators[:, 0]  # the hypothesis's length
    if metric.variant == "mteval":
        for n, (over, (counts, prefixes), order) in enumerate(zip(per_segment.overlaps, counted, sums, strict=True), 1):
            best = over.clipped[order].max(axis=1, initial=0)  # mteval clips to the largest reference count
            info = information(counts[order].astype(np.float64), prefixes[order].astype(np.float64), "mteval")
            segments = over.segments[order]
            rows[:, n - 1] = np.bincount(segments, weights=best, minlength=n_segments)
            rows[:, 2 * big_n + n - 1] = np.bincount(segments, weights=best * info, minlength=n_segments)
        present = per_segment.lengths >= 0
        words, n_present = np.where(present, per_segment.lengths, 0).sum(axis=0), present.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rows[:, -1] = np.where(n_present > 0, words / np.maximum(n_present, 1), 0.0)
        return rows
    matches, numerators, lengths = _nltk_cells(metric, per_segment, n_segments, counted, sums)
    rows[:, :big_n], rows[:, 2 * big_n : 3 * big_n], rows[:, -1] = matches, numerators, lengths.sum(axis=1)
    return rows


def merge(first: NISTState, second: NISTState) -> NISTState:
    """The state of both shards, first's segments first: exact, associative, and commutative but
    for the order of NLTK's segments (which does not change the score)."""
    if first.options != second.options:
        raise InputError(f"cannot merge NIST states made with different options ({first.options} and {second.options})")
    merger = _Merger(first.shared.tokens, second.shared.tokens)
    a, b = first.shared, second.shared
    shared = SharedCounts(
        tokens=merger.tokens,
        references=tuple(merger.references(x, y) for x, y in zip(a.references, b.references, strict=True)),
        ref_words=a.ref_words + b.ref_words,
        segments=a.segments + b.segments,
        totals=a.totals + b.totals,
        hyp_len=a.hyp_len + b.hyp_len,
    )
    matches: CorpusMatches | SegmentMatches
    if isinstance(first.matches, CorpusMatches):
        assert isinstance(second.matches, CorpusMatches)  # the same variant
        matches = _merge_corpus_matches(merger, first.matches, second.matches)
    else:
        assert isinstance(second.matches, SegmentMatches)  # the same variant
        matches = _merge_segment_matches(merger, first.matches, second.matches, a.segments)
    return NISTState(first.options, shared, matches)


class _Merger:
    """Two states' tokens united (``tokens``), their rows renumbered into them, and their tables
    of each order merged against the merged reference tables of the lower orders."""

    def __init__(self, first: np.ndarray, second: np.ndarray):
        self.tokens = np.unique(np.concatenate([first, second]))
        self.renumber = [np.searchsorted(self.tokens, tokens).astype(np.int64) for tokens in (first, second)]
        self.vocab = max(len(self.tokens), 1)
        self.merged: list[Table] = []  # the merged reference tables, order after order
        self.merged_keys: list[np.ndarray] = []

    def rows(self, state: int, values: np.ndarray) -> np.ndarray:
        """Rows of the first (0) or second (1) state in the united tokens' numbers."""
        return self.renumber[state][values] if values.size else values

    def references(self, a: Table, b: Table) -> Table:
        """The reference tables of the next order (the lower orders merged already) as one."""
        keys, table = self.tables(a, b)
        self.merged.append(table)
        self.merged_keys.append(keys)
        return table

    def tables(self, a: Table, b: Table) -> tuple[np.ndarray, Table]:
        """Two tables of one order as one, keyed against the merged references of the lower orders."""
        joined = np.concatenate([self.rows(0, a.rows), self.rows(1, b.rows)])
        distinct, inverse = np.unique(_row_keys(self.merged_keys, joined, self.vocab), return_inverse=True)
        counts = np.bincount(inverse.ravel(), weights=np.concatenate([a.counts, b.counts]), minlength=len(distinct))
        lower = self.merged[joined.shape[1] - 2].rows if joined.shape[1] > 1 else np.zeros((0, 0), dtype=np.int64)
        return distinct, Table(_rows(lower, distinct, self.vocab), counts.astype(np.int64))


def _merge_corpus_matches(merger: _Merger, first: CorpusMatches, second: CorpusMatches) -> CorpusMatches:
    """mteval's matches of both states: tables added, reference words added by references present."""
    words = np.zeros(max(len(first.words_by_present), len(second.words_by_present)), dtype=np.int64)
    words[: len(first.words_by_present)] += first.words_by_present
    words[: len(second.words_by_present)] += second.words_by_present
    matched = tuple(merger.tables(a, b)[1] for a, b in zip(first.matched, second.matched, strict=True))
    return CorpusMatches(matched=matched, words_by_present=words)


def _merge_segment_matches(
    merger: _Merger, first: SegmentMatches, second: SegmentMatches, first_segments: int
) -> SegmentMatches:
    """NLTK's matches of both states, first's segments first (``first_segments`` of them)."""
    n_streams = max(first.streams, second.streams)

    def overlaps(a: Overlaps, b: Overlaps) -> Overlaps:
        return Overlaps(
            np.concatenate([a.segments, b.segments + first_segments]),
            np.concatenate([merger.rows(0, a.rows), merger.rows(1, b.rows)]),
            np.concatenate([_pad(a.clipped, n_streams, 0), _pad(b.clipped, n_streams, 0)]),
        )

    return SegmentMatches(
        overlaps=tuple(overlaps(a, b) for a, b in zip(first.overlaps, second.overlaps, strict=True)),
        denominators=np.concatenate([first.denominators, second.denominators]),
        lengths=np.concatenate([_pad(first.lengths.T, n_streams, -1), _pad(second.lengths.T, n_streams, -1)]).T,
    )


def summed_row(metric: NISTSettings, state: NISTState) -> np.ndarray:
    """The one row of summed statistics the state stands for, computed with the information
    weights of its references (all of the corpus's, once every shard is merged): what NIST's
    in-memory corpus score sums its per-segment rows to, up to float rounding (the information is
    summed here exactly rounded, per n-gram, so the row is the same however the corpus was split)."""
    _check_scorable(metric, state)
    big_n, shared = metric.max_order, state.shared
    row = np.zeros(columns(big_n), dtype=np.float64)
    row[big_n : 2 * big_n] = shared.totals
    row[-2] = shared.hyp_len
    keys = _table_keys(shared.references, max(len(shared.tokens), 1))
    if isinstance(state.matches, CorpusMatches):
        for n, table in enumerate(state.matches.matched, 1):
            info = _information(metric, shared, table.rows, keys)
            row[n - 1] = table.counts.sum()
            row[2 * big_n + n - 1] = math.fsum((table.counts * info).tolist())
        words_by_present = state.matches.words_by_present
        present = np.arange(len(words_by_present))
        row[-1] = sum(words_by_present[1:] / present[1:]) if len(present) > 1 else 0.0
        return row
    counted = [_counts(metric, shared, over.rows, keys) for over in state.matches.overlaps]
    matches, numerators, lengths = _nltk_cells(metric, state.matches, shared.segments, counted)
    row[:big_n], row[-1] = matches.sum(axis=0), float(lengths.sum())
    row[2 * big_n : 3 * big_n] = [math.fsum(column) for column in numerators.T.tolist()]
    return row


def _check_scorable(metric: NISTSettings, state: NISTState) -> None:
    """A state is scored only by NIST with the options that made it."""
    if state.options != options_of(metric):
        raise InputError(f"a NIST state made with {state.options} cannot be scored by NIST with {options_of(metric)}")


def _nltk_cells(
    metric: NISTSettings,
    segments: SegmentMatches,
    n_segments: int,
    counted: list[tuple[np.ndarray, np.ndarray]],
    sums: Sequence[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NLTK's pick of a reference per segment and order (``choose_nltk``, near-ties settled in
    NLTK's own arithmetic) under the weights of ``counted`` (per order, the reference counts of the
    overlap entries of ``segments`` and of their prefixes): the chosen matches, numerators and
    reference lengths, segments x N. ``sums``: per order, the order in which the entries'
    numerators add up (their own by default)."""
    big_n, n_streams = metric.max_order, segments.streams
    matches = np.zeros((n_streams, n_segments, big_n))
    numerators = np.zeros((n_streams, n_segments, big_n))
    for n, over in enumerate(segments.overlaps, 1):
        order = np.arange(len(over.segments)) if sums is None else sums[n - 1]
        counts, prefixes = (values[order].astype(np.float64) for values in counted[n - 1])
        info = information(counts, prefixes, "nltk")
        cell = over.segments[order] * big_n + n - 1
        for s in range(n_streams):
            clipped = over.clipped[order, s].astype(np.float64)
            shape = (n_segments, big_n)
            matches[s] += np.bincount(cell, weights=clipped, minlength=n_segments * big_n).reshape(shape)
            numerators[s] += np.bincount(cell, weights=clipped * info, minlength=n_segments * big_n).reshape(shape)
    classes = np.broadcast_to(np.arange(n_streams)[:, None, None], numerators.shape)  # settle every near-tie
    best, unsure = choose_nltk(numerators, segments.denominators, segments.lengths, classes)
    for segment, index in zip(*np.nonzero(unsure), strict=True):
        best[segment, index] = _nltk_pick(segments, int(segment), int(index) + 1, counted[index])
    take = np.take_along_axis
    chosen_lengths = take(np.broadcast_to(segments.lengths[:, :, None], numerators.shape), best[None], 0)[0]
    return take(matches, best[None], 0)[0], take(numerators, best[None], 0)[0], chosen_lengths


def _nltk_pick(segments: SegmentMatches, segment: int, order: int, counted: tuple[np.ndarray, np.ndarray]) -> int:
    """The stream NLTK's ``max`` over (precision, numerator, denominator, length) picks for one
    cell: numerators summed in Python in the hypothesis's order with ``math.log`` weights
    (``counted``: the reference counts of the order's overlap entries and of their prefixes)."""
    over = segments.overlaps[order - 1]
    lo, hi = np.searchsorted(over.segments, [segment, segment + 1])
    counts, prefixes = (values[lo:hi].astype(np.float64) for values in counted)
    info = nltk_weights(prefixes, counts)
    clipped = over.clipped[lo:hi].T.tolist()
    denominator = int(segments.denominators[segment, order - 1])
    best, best_tuple = -1, None
    for stream, length in enumerate(segments.lengths[:, segment].tolist()):
        if length < 0:
            continue
        numerator: float = 0
        for weight, count in zip(info, clipped[stream], strict=True):
            if count > 0:
                numerator += weight * count
        precision = 0 if denominator == 0 else numerator / denominator
        candidate = (precision, numerator, denominator, length)
        if best_tuple is None or candidate > best_tuple:
            best, best_tuple = stream, candidate
    return best


def _information(metric: NISTSettings, shared: SharedCounts, rows: np.ndarray, keys: list[np.ndarray]) -> np.ndarray:
    """The information weight of each n-gram (rows of one order) under the reference counts of ``shared``."""
    counts, prefixes = _counts(metric, shared, rows, keys)
    return information(counts.astype(np.float64), prefixes.astype(np.float64), metric.variant)


def _counts(
    metric: NISTSettings, shared: SharedCounts, rows: np.ndarray, keys: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The reference counts of n-grams (rows of one order, all held by the references) and of their
    prefixes (the reference words for a unigram, and, as mteval, for a bigram starting with "0");
    ``keys``: ``_table_keys`` of the references of ``shared``."""
    n = rows.shape[1]
    vocab = max(len(shared.tokens), 1)
    at = _search(keys[n - 1], _row_keys(keys[: n - 1], rows, vocab))
    if (at < 0).any():
        raise InputError("these references are not among those of the corpus whose NIST weights were given")
    counts = shared.references[n - 1].counts[at]
    if n == 1:
        return counts, np.full(len(rows), shared.ref_words, dtype=np.int64)
    prefix = _search(keys[n - 2], _row_keys(keys[: n - 2], rows[:, :-1], vocab))
    prefixes = shared.references[n - 2].counts[prefix]
    if n == 2 and metric.variant == "mteval":  # Perl's "0" is false: mteval takes the reference words
        zero, _ = _words(metric, ["0"])
        at = np.searchsorted(shared.tokens, _objects(zero[:1]))
        if len(zero) and at[0] < len(shared.tokens) and shared.tokens[at[0]] == zero[0]:
            prefixes = np.where(rows[:, 0] == at[0], shared.ref_words, prefixes)
    return counts, prefixes


def _vocabulary_ranks(tokens: np.ndarray) -> np.ndarray:
    """Each token's rank in the order of the in-memory API's token ids (``engine.keys``: the
    vocabulary sorts tokens by key; long ones, which it numbers as they first occur in the whole
    corpus, last, here by bytes), in which it sums a segment's information: so the sums agree to
    the bit, but where a segment matches two long tokens at one place of n-grams of one order."""
    sizes = np.array([len(token) for token in tokens.tolist()], dtype=np.int64)
    ends = np.cumsum(sizes)
    data = np.frombuffer(b"".join(tokens.tolist()), dtype=np.uint8)
    keyed = TokenKeys.of(Split(data, ends - sizes, ends, np.array([len(sizes)])))
    keys = keyed.keys.copy()
    keys[keyed.long_at] = np.iinfo(np.uint64).max
    ranks = np.empty(len(sizes), dtype=np.int64)
    ranks[np.lexsort([np.arange(len(sizes)), keys])] = np.arange(len(sizes))  # tokens are sorted by bytes
    return ranks


def _words(metric: NISTSettings, lines: list[str]) -> tuple[list[bytes], np.ndarray]:
    """Every token of the lines as bytes, tokenized (and lowercased) as NIST does, and tokens per line."""
    if metric.lowercase:
        lines = [line.translate(_ASCII_LOWER) for line in lines]
    split = split_lines(lines, metric.tokenizer)
    data = split.data.tobytes()
    words = [data[a:b] for a, b in zip(split.starts.tolist(), split.ends.tolist(), strict=True)]
    return words, split.lengths.astype(np.int64)


class _Positions:
    """The n-grams starting at each token of some lines, order after order: an n-gram's key is the
    number of its (n-1)-gram prefix (given by ``number``) times the vocabulary plus its last token."""

    def __init__(self, ids: np.ndarray, lengths: np.ndarray):
        self.ids = ids
        self.remaining = ragged.remaining(lengths)  # tokens to the line's end
        self.line = ragged.run_ids(lengths)
        self.prefix = ids
        self.starts = np.arange(len(ids))

    def keys(self, n: int, vocab: int) -> tuple[np.ndarray, np.ndarray]:
        """The key of every n-gram (-1 where a token or the prefix is unknown) and its line."""
        self.starts = np.flatnonzero(self.remaining >= n)
        if n == 1:
            return self.ids, self.line
        before, last = self.prefix[self.starts], self.ids[self.starts + n - 1]
        return np.where((before >= 0) & (last >= 0), before * vocab + last, -1), self.line[self.starts]

    def number(self, numbers: np.ndarray) -> None:
        """The numbers (-1: unknown) of the n-grams ``keys`` gave: the prefixes of the next order."""
        self.prefix = np.full(len(self.ids), -1, dtype=np.int64)
        self.prefix[self.starts] = numbers


def _rows(lower: np.ndarray, keys: np.ndarray, vocab: int) -> np.ndarray:
    """The token rows of sorted keys of one order, ``lower``: the rows of the order below."""
    last = (keys % vocab)[:, None]
    return last if lower.shape[1] == 0 else np.hstack([lower[keys // vocab], last])


def _table_keys(tables: Sequence[Table], vocab: int) -> list[np.ndarray]:
    """The keys of every table's rows (sorted, as the rows are), order after order."""
    keys: list[np.ndarray] = []
    for table in tables:
        keys.append(_row_keys(keys, table.rows, vocab))
    return keys


def _row_keys(lower: Sequence[np.ndarray], rows: np.ndarray, vocab: int) -> np.ndarray:
    """The key of each row of order n: the number of its prefix among the keys of order n-1
    (``lower``: the keys of orders 1..n-1) times ``vocab``, plus its last token; -1 where the
    prefix is not there."""
    keys = rows[:, 0].astype(np.int64)
    for j in range(1, rows.shape[1]):
        number = _search(lower[j - 1], keys)
        keys = np.where(number >= 0, number * vocab + rows[:, j], -1)
    return keys


def _search(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The index of each wanted key in the sorted distinct ``keys``, -1 where absent."""
    if len(keys) == 0 or len(wanted) == 0:
        return np.full(len(wanted), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where((keys[at] == wanted) & (wanted >= 0), at, -1)


def _lookup(keys: np.ndarray, values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``values`` at each wanted key of the sorted ``keys``, 0 where absent."""
    if len(keys) == 0:
        return np.zeros(len(wanted), dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], 0)


def _pad(values: np.ndarray, width: int, fill: int) -> np.ndarray:
    """``values`` (k x streams) widened to ``width`` streams with ``fill``."""
    if values.shape[1] == width:
        return values
    return np.hstack([values, np.full((len(values), width - values.shape[1]), fill, dtype=values.dtype)])


def _objects(items: list[bytes]) -> np.ndarray:
    """A 1-d object array of byte strings."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def _equal(a: Any, b: Any) -> bool:
    """Equality of states and their parts, arrays compared by shape and values."""
    if is_dataclass(a):
        return type(a) is type(b) and all(_equal(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and bool(np.array_equal(a, b))
    return bool(a == b)
