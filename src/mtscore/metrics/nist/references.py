"""NIST's references, counted once: n-gram ids, information weights, per-segment counts; and a system's rows.

A segment's row is [matches_1..N, hyp_ngrams_1..N, info_1..N, hyp_len, ref_len] (``columns``):
``info_n`` is the sum of the information weights of its matched n-grams, the weights taken from the
whole reference corpus. ``Detail`` keeps what the rows lose, the matches per n-gram, so that a
resample (whose reference corpus, and so whose weights, differ) can be scored exactly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, pairwise

import numpy as np

from ...core.references import References
from ...engine import ragged
from ...engine.keys import TokenKeys, Vocabulary
from ...engine.seen import SeenRows
from .counting import LOG2, held_occurrences, occurrences, position_lines
from .ties import NltkTies, choose_nltk, nltk_weights, overlap_classes


def columns(max_order: int) -> int:
    """Width of a row: matches, hypothesis n-grams and information per order, then two lengths."""
    return 3 * max_order + 2


def information(counts: np.ndarray, prefix_counts: np.ndarray, variant: str) -> np.ndarray:
    """log2(count(w1..wn-1) / count(w1..wn)), as mteval-v13a (-log(c/p)/log 2) or NLTK (log(p/c)/log 2)
    writes it; 0 where an n-gram is absent (count 0: it can match nothing)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mteval = variant == "mteval"
        info = -np.log(counts / prefix_counts) / LOG2 if mteval else np.log(prefix_counts / counts) / LOG2
    return np.where(counts > 0, info, 0.0)


@dataclass
class Detail:
    """One system's matches per n-gram, for exact resampling: entries (row, n-gram, clipped count),
    a row being a segment (mteval) or a (reference stream, segment) pair (NLTK), and what a
    resample needs of the references."""

    variant: str
    rows: np.ndarray
    ngrams: np.ndarray  # local index into ``kept`` (the matched n-grams, prefixes included)
    clipped: np.ndarray
    orders: np.ndarray  # order (1..N) of each entry
    kept_prefix: np.ndarray  # local index of each kept n-gram's prefix (-1: a unigram)
    ref_segments: np.ndarray  # the references' (segment, local n-gram, count over streams), by n-gram
    ref_ngrams: np.ndarray
    ref_counts: np.ndarray
    ref_words: np.ndarray  # reference words per segment, all present streams
    n_kept: int
    kept_orders: np.ndarray  # order (1..N) of each kept n-gram
    denominators: np.ndarray | None = None  # NLTK: hypothesis n-grams (segments x N)
    ref_lengths: np.ndarray | None = None  # NLTK: (streams x segments), -1 where missing
    kept: np.ndarray | None = None  # the global id of each kept n-gram
    ties: NltkTies | None = None  # NLTK: what settling a near-tie as NLTK does needs
    source: PreparedReferences | None = None  # the references counted (systems sharing them share resamples' counts)


class PreparedReferences(References):
    """Reference token ids counted over the whole corpus (each reference stream counts).

    Besides the corpus's n-grams (``ngrams``, for the information weights), each segment's distinct
    n-grams over all its streams are numbered ("pairs", ascending by (segment, n-gram): the order
    the rows sum in) with their count in each stream; ``pair_table`` finds a hypothesis's pairs."""

    def __init__(self, tokens: TokenKeys, present: np.ndarray, max_order: int, variant: str, zero: TokenKeys):
        super().__init__(present)
        self.max_order, self.variant = max_order, variant
        self.vocabulary, ids = Vocabulary.of(tokens)
        ids = tokens.expand(ids)  # the held (distinct) lines' ids as every line's
        lengths = tokens.line_lengths().reshape(present.shape)
        self.lengths = lengths  # streams x segments (0 where missing)
        n_streams, n_segments = present.shape
        line_lengths = lengths.ravel()
        # Each segment's distinct n-grams over its streams (pairs), numbered order by order within
        # the segment; then the corpus's n-grams, numbered from the pairs. Ranked by (segment,
        # order, n-gram), the pairs ascend by segment * size + n-gram (an order's n-gram ids, like
        # its pairs', ascend by prefix's then last token): the order the rows sum in.
        segments = np.tile(np.arange(n_segments), n_streams)
        in_segment, self.pair_table = occurrences(ids, line_lengths, max_order, segments)
        self.pair_runs = self.pair_table.continuations()
        self.ngrams, entry_ngram = self.pair_table.ungrouped()
        self.size = max(self.ngrams.size, 1)
        self.pair_of, entry_segment = self.pair_table.group_ranks(n_segments)  # table entry -> pair
        n_pairs = self.n_pairs = len(self.pair_of)
        # Per pair, its segment, its n-gram and that n-gram's order (the table's entries come order by order).
        self.pair_segment, self.pair_ngram, self.pair_order = (np.empty(n_pairs, dtype=np.int64) for _ in range(3))
        self.pair_segment[self.pair_of], self.pair_ngram[self.pair_of] = entry_segment, entry_ngram
        self.pair_order[self.pair_of] = np.repeat(np.arange(1, max_order + 1), [len(k) for k in self.pair_table.keys])
        # Per pair, its count in each stream.
        pair = self.pair_of[np.concatenate([local for _, local in in_segment])]  # of each occurrence
        stream = position_lines(line_lengths)[np.concatenate([starts for starts, _ in in_segment])] // n_segments
        per_stream = np.bincount(stream * n_pairs + pair, minlength=n_streams * n_pairs)
        self.stream_counts = per_stream.reshape(n_streams, n_pairs)  # streams x pairs
        self.max_counts = self.stream_counts.max(axis=0, initial=0)
        self.sum_counts = self.stream_counts.sum(axis=0)
        # The information weights, from the corpus's counts.
        counts = np.bincount(self.pair_ngram, weights=self.sum_counts, minlength=self.ngrams.size)
        self.total_words = int(lengths.sum())
        prefixes = self.prefixes = self.ngrams.prefixes()
        if variant == "mteval":
            # mteval tests the prefix string for truth, and Perl's "0" is false: a bigram whose
            # first token is "0" gets a unigram's numerator, the number of reference words.
            zero_id = self.vocabulary.encode(zero)[0]
            if len(zero_id) and zero_id[0] >= 0 and len(self.ngrams.keys[0]):
                at = int(np.searchsorted(self.ngrams.keys[0], zero_id[0]))
                if at < len(self.ngrams.keys[0]) and self.ngrams.keys[0][at] == zero_id[0]:
                    prefixes[prefixes == at] = -1
        prefix_counts = np.where(prefixes >= 0, counts[np.maximum(prefixes, 0)], float(self.total_words))
        self.info = information(counts, prefix_counts, variant)
        self.counts, self.prefix_counts = counts, prefix_counts  # NLTK's weights of near-ties
        self.pair_info = self.info[self.pair_ngram]
        self.ref_words = (lengths * present).sum(axis=0)
        self.n_present = present.sum(axis=0)
        self.seen = SeenRows(columns(max_order))  # (segment, hypothesis token ids) -> its row

    @cached_property
    def digest(self) -> str:
        """Names this reference corpus (its n-grams and weights)."""
        digest = hashlib.blake2b(digest_size=12)
        for part in (self.present, self.lengths, *self.ngrams.keys, self.info):
            digest.update(np.ascontiguousarray(part).tobytes())
        return digest.hexdigest()

    def _hypothesis_pairs(self, ids: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, list]:
        """The pair of each hypothesis n-gram that its segment's references hold, all orders
        together; and per order, the (start, pair) of each, in position order."""
        found = held_occurrences(ids, lengths, self.pair_table, np.arange(len(lengths)), self.pair_runs)
        by_order = [(starts, self.pair_of[local]) for starts, local in found]
        return np.concatenate([pairs for _, pairs in by_order]), by_order

    def rows(self, ids: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, PendingDetail]:
        """Per segment, the row of statistics of hypotheses (token ids, -1 unknown; ``lengths``),
        and what ``Detail`` needs, made into one only when asked (resampling). A segment's row
        depends on its hypothesis alone (and the references): a hypothesis seen before at the same
        segment (another system's) keeps its row (``seen``, up to ``engine.seen.SEEN_LINES``), and only
        the others are counted; the ``Detail`` of such rows counts them all, when asked."""
        offsets = ragged.offsets(lengths).tolist()
        text = ids.tobytes()
        width = ids.itemsize
        keys = [(i, text[a * width : b * width]) for i, (a, b) in enumerate(pairwise(offsets))]
        seen, kept = self.seen.find(keys)
        if not seen.any():
            rows, detail = self._rows(ids, lengths)
        elif seen.all():
            rows, detail = kept, PendingDetail(lambda: self._rows(ids, lengths)[1].detail)
        else:
            masked = np.where(seen, 0, lengths)  # a seen hypothesis counted as an empty one, its row kept
            rows, _ = self._rows(ids[np.repeat(~seen, lengths)], masked)
            rows[seen] = kept
            detail = PendingDetail(lambda: self._rows(ids, lengths)[1].detail)
        new = np.flatnonzero(~seen)
        self.seen.keep([keys[i] for i in new.tolist()], rows[new])
        return rows, detail

    def _rows(self, ids: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, PendingDetail]:
        """``rows``, every hypothesis counted."""
        n, big_n = self.n_segments, self.max_order
        pairs, by_order = self._hypothesis_pairs(ids, lengths)
        # The pairs the hypotheses hold, by (segment, n-gram), and how often: one sort of the few
        # held rather than a count over all pairs.
        pairs = np.sort(pairs)
        first = np.flatnonzero(np.concatenate([[True], pairs[1:] != pairs[:-1]])) if len(pairs) else pairs
        held = pairs[first]
        per_pair = np.zeros(self.n_pairs, dtype=np.int64)
        per_pair[held] = np.diff(first, append=len(pairs))
        totals = np.maximum(lengths[:, None] - np.arange(big_n)[None, :], 0)
        if self.variant == "mteval":
            cells = self.pair_segment[held] * big_n + self.pair_order[held] - 1
            clipped = np.minimum(per_pair[held], self.max_counts[held])
            matches = _per_cell(cells, clipped, n, big_n)
            info = _per_cell(cells, clipped * self.pair_info[held], n, big_n)
            with np.errstate(divide="ignore", invalid="ignore"):
                ref_len = np.where(self.n_present > 0, self.ref_words / np.maximum(self.n_present, 1), 0.0)
            detail = PendingDetail(lambda: self.detail(held, clipped[None]))
        else:
            matches, info, ref_len, detail = self._nltk_rows(held, per_pair, totals, lengths, by_order)
        rows = np.hstack([matches, totals, info, lengths[:, None], ref_len[:, None]]).astype(np.float64)
        return rows, detail

    def _nltk_rows(self, held, per_pair, totals, lengths, by_order):
        """NLTK's rule: per segment and order, the reference with the best precision (then the
        larger information sum, then the longer reference) gives the numerator and reference length;
        near-ties are settled in NLTK's arithmetic (``ties``). ``held``: the pairs the hypotheses
        hold (``per_pair``: how often each pair occurs); ``by_order``: per order, each occurrence's
        start and pair."""
        n, big_n = self.n_segments, self.max_order
        n_streams = self.present.shape[0]
        held_cells = self.pair_segment[held] * big_n + self.pair_order[held] - 1  # segment * N + order - 1
        weighted = self.pair_info[held]
        clipped = np.minimum(per_pair[held], self.stream_counts[:, held])  # streams x held pairs
        per_stream = [
            (_per_cell(held_cells, part, n, big_n), _per_cell(held_cells, part * weighted, n, big_n))
            for part in clipped
        ]
        matches = np.stack([m for m, _ in per_stream])  # streams x segments x N
        numerators = np.stack([i for _, i in per_stream])
        ref_lengths = np.where(self.present, self.lengths, -1)
        classes = overlap_classes(clipped, held_cells, n * big_n).reshape(n_streams, n, big_n)
        lines = position_lines(lengths)
        hyp_segments = [lines[starts] for starts, _ in by_order]
        hyp_pairs = [pairs for _, pairs in by_order]
        ties = NltkTies(
            hyp_segments, hyp_pairs, self.pair_ngram, per_pair, self.stream_counts, totals, ref_lengths, classes
        )
        best, unsure = choose_nltk(numerators, totals, ref_lengths, classes)
        segments, orders = np.nonzero(unsure)
        if len(segments):  # most near-ties add equal terms (other n-grams of equal weights): settled here
            terms = ties.term_classes(segments, orders + 1, self.prefix_counts, self.counts)[..., None]
            sub = (numerators[:, segments, orders, None], totals[segments, orders, None], ref_lengths[:, segments])
            chosen, still = choose_nltk(*sub, terms)
            best[segments, orders] = chosen[:, 0]
            segments, orders = segments[still[:, 0]], orders[still[:, 0]]
        cells = [(int(s), int(o) + 1) for s, o in zip(segments, orders, strict=True)]
        ties.prepare(cells)
        used = [ties.used(s, o) for s, o in cells]
        flat = np.fromiter(chain.from_iterable(used), dtype=np.int64)
        weights = nltk_weights(self.prefix_counts[flat], self.counts[flat])  # all cells' at once
        start = 0
        for (s, o), ngrams in zip(cells, used, strict=True):
            best[s, o - 1] = ties.decide(s, o, weights[start : start + len(ngrams)])
            start += len(ngrams)
        take = np.take_along_axis
        chosen_matches = take(matches, best[None], 0)[0]
        chosen_info = take(numerators, best[None], 0)[0]
        ref_len = take(np.broadcast_to(ref_lengths[:, :, None], numerators.shape), best[None], 0)[0].sum(axis=1)
        detail = PendingDetail(lambda: self.detail(held, clipped, (totals, ref_lengths, ties)))
        return chosen_matches, chosen_info, ref_len.astype(np.float64), detail

    def detail(self, held: np.ndarray, clipped: np.ndarray, nltk: tuple | None = None) -> Detail:
        """The matches per n-gram restricted to the matched n-grams (their prefixes are matched too),
        of the ``held`` pairs clipped to ``clipped`` (1 x held for mteval, streams x held for NLTK,
        with NLTK's (denominators, reference lengths, ties))."""
        parts = []
        for stream, counts in enumerate(clipped):
            keep = held[counts > 0]
            segment = self.pair_segment[keep] + stream * self.n_segments
            parts.append((segment, self.pair_ngram[keep], counts[counts > 0], self.pair_order[keep]))
        rows, ngrams, clipped, orders = (np.concatenate(column) for column in zip(*parts, strict=True))
        kept, local = np.unique(ngrams, return_inverse=True)
        kept_prefix, ref_segments, ref_ngrams, ref_counts = self.kept_counts(kept)
        denominators, ref_lengths, ties = (None, None, None) if nltk is None else nltk
        return Detail(
            self.variant,
            rows,
            local.astype(np.int64),
            clipped.astype(np.float64),
            orders,
            kept_prefix,
            ref_segments,
            ref_ngrams,
            ref_counts,
            self.ref_words.astype(np.float64),
            len(kept),
            self.ngrams.order_of(kept),
            denominators,
            ref_lengths,
            kept,
            ties,
            self,
        )

    def kept_counts(self, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What a resample's counts of the n-grams ``kept`` (ascending ids, each one's prefix among
        them) need: each one's prefix as an index into ``kept`` (-1: a unigram), and the references'
        entries (segment, index into ``kept``, count summed over streams), by n-gram."""
        index = np.full(self.size, -1, dtype=np.int64)  # n-gram -> its index in kept
        index[kept] = np.arange(len(kept))
        kept_prefix = index[np.maximum(self.prefixes[kept], 0)]
        kept_prefix[self.prefixes[kept] < 0] = -1
        at = index[self.pair_ngram]
        hit = at >= 0
        by_ngram = np.argsort(at[hit], kind="stable")
        return (
            kept_prefix,
            self.pair_segment[hit][by_ngram],
            at[hit][by_ngram],
            self.sum_counts[hit][by_ngram].astype(np.float64),
        )


class PendingDetail:
    """A system's ``Detail``, made on first use (``make``): only resampling needs it, and making it
    costs more than the rows."""

    def __init__(self, make: Callable[[], Detail]):
        self._make = make

    @cached_property
    def detail(self) -> Detail:
        return self._make()


def _per_cell(cells: np.ndarray, values: np.ndarray, n: int, big_n: int) -> np.ndarray:
    """Sums of ``values`` per cell (segment * N + order - 1), shape (segments x N)."""
    return np.bincount(cells, weights=values, minlength=n * big_n).reshape(n, big_n)
