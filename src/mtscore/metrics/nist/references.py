"""NIST's references, counted once: n-gram ids, information weights, per-segment counts; and a system's rows.

A segment's row is [matches_1..N, hyp_ngrams_1..N, info_1..N, hyp_len, ref_len] (``columns``):
``info_n`` is the sum of the information weights of its matched n-grams, the weights taken from the
whole reference corpus. ``Detail`` keeps what the rows lose, the matches per n-gram, so that a
resample (whose reference corpus, and so whose weights, differ) can be scored exactly.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ...core.references import References
from ...engine.keys import TokenKeys, Vocabulary
from .counting import LOG2, line_of, occurrences, pair_counts
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


class PreparedReferences(References):
    """Reference token ids counted over the whole corpus (each reference stream counts)."""

    def __init__(self, tokens: TokenKeys, present: np.ndarray, max_order: int, variant: str, zero: TokenKeys):
        super().__init__(present)
        self.max_order, self.variant = max_order, variant
        self.vocabulary, ids = Vocabulary.of(tokens)
        ids = tokens.expand(ids)  # the held (distinct) lines' ids as every line's
        lengths = tokens.line_lengths().reshape(present.shape)
        self.lengths = lengths  # streams x segments (0 where missing)
        n_segments = present.shape[1]
        found, self.ngrams = occurrences(ids, lengths.ravel(), max_order)
        size = max(self.ngrams.size, 1)
        stream_segment = np.concatenate([line_of(starts, lengths.ravel()) for starts, _ in found])
        gids = np.concatenate([g for _, g in found])
        counts = np.bincount(gids, minlength=self.ngrams.size).astype(np.float64)
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
        # Per (stream, segment): each n-gram's count; per segment: the largest and the sum over streams.
        s_row, self.s_ngram, self.s_count = pair_counts(stream_segment, gids, size)
        self.s_stream, self.s_segment = np.divmod(s_row, n_segments)
        self.s_key = self.s_segment * size + self.s_ngram  # sorted within each stream
        self.size = size
        keys, where = np.unique(self.s_key, return_inverse=True)
        most = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(most, where, self.s_count)
        total = np.bincount(where, weights=self.s_count, minlength=len(keys)).astype(np.int64)
        self.max_keys, self.max_counts, self.sum_counts = keys, most, total
        self.ref_words = (lengths * present).sum(axis=0)
        self.n_present = present.sum(axis=0)
        digest = hashlib.blake2b(digest_size=12)
        for part in (present, lengths, *self.ngrams.keys, self.info):
            digest.update(np.ascontiguousarray(part).tobytes())
        self.digest = digest.hexdigest()  # names this reference corpus (its n-grams and weights)

    def _hypothesis_counts(self, ids: np.ndarray, lengths: np.ndarray) -> tuple[tuple[np.ndarray, ...], list, list]:
        """Distinct (segment, n-gram) of the hypotheses that the references hold, with counts; and
        per order, the segment and n-gram id (-1: unknown) of each occurrence, in position order."""
        found, _ = occurrences(ids, lengths, self.max_order, self.ngrams)
        by_order = [line_of(starts, lengths) for starts, _ in found]
        gids_by_order = [g for _, g in found]
        segments, gids = np.concatenate(by_order), np.concatenate(gids_by_order)
        known = gids >= 0
        return pair_counts(segments[known], gids[known], self.size), by_order, gids_by_order

    def rows(self, ids: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, Detail]:
        """Per segment, the row of statistics of hypotheses (token ids, -1 unknown; ``lengths``)."""
        n, big_n = self.n_segments, self.max_order
        (segment, ngram, count), hyp_segments, hyp_ngrams = self._hypothesis_counts(ids, lengths)
        order = self.ngrams.order_of(ngram)
        totals = np.maximum(lengths[:, None] - np.arange(big_n)[None, :], 0)
        if self.variant == "mteval":
            clipped = np.minimum(count, _lookup(self.max_keys, self.max_counts, segment * self.size + ngram))
            matches = _per_order(segment, order, clipped, n, big_n)
            info = _per_order(segment, order, clipped * self.info[ngram], n, big_n)
            with np.errstate(divide="ignore", invalid="ignore"):
                ref_len = np.where(self.n_present > 0, self.ref_words / np.maximum(self.n_present, 1), 0.0)
            keep = clipped > 0
            detail = self._detail(segment[keep], ngram[keep], clipped[keep], order[keep])
        else:
            occurrences_ = (hyp_segments, hyp_ngrams)
            matches, info, ref_len, detail = self._nltk_rows(segment, ngram, count, order, totals, occurrences_)
        rows = np.hstack([matches, totals, info, lengths[:, None], ref_len[:, None]]).astype(np.float64)
        return rows, detail

    def _nltk_rows(self, segment, ngram, count, order, totals, hypotheses):
        """NLTK's rule: per segment and order, the reference with the best precision (then the
        larger information sum, then the longer reference) gives the numerator and reference length;
        near-ties are settled in NLTK's arithmetic (``ties``). ``hypotheses``: per order, each
        occurrence's segment and n-gram id, in position order."""
        n, big_n = self.n_segments, self.max_order
        n_streams = self.present.shape[0]
        keys = segment * self.size + ngram
        bounds = np.searchsorted(self.s_stream, np.arange(n_streams + 1))  # s_* are sorted by stream
        ref_keys = [self.s_key[a:b] for a, b in pairwise(bounds)]
        ref_counts = [self.s_count[a:b] for a, b in pairwise(bounds)]
        per_stream = []
        entries = []
        overlaps: tuple[list, list, list] = ([], [], [])  # per stream: keys, clipped, cells
        for stream in range(n_streams):
            clipped = np.minimum(count, _lookup(ref_keys[stream], ref_counts[stream], keys))
            per_stream.append(
                (
                    _per_order(segment, order, clipped, n, big_n),
                    _per_order(segment, order, clipped * self.info[ngram], n, big_n),
                )
            )
            keep = clipped > 0
            entries.append((stream * n + segment[keep], ngram[keep], clipped[keep], order[keep]))
            for part, values in zip(
                overlaps, (keys[keep], clipped[keep], segment[keep] * big_n + order[keep] - 1), strict=True
            ):
                part.append(values)
        matches = np.stack([m for m, _ in per_stream])  # streams x segments x N
        numerators = np.stack([i for _, i in per_stream])
        lengths = np.where(self.present, self.lengths, -1)
        classes = overlap_classes(*overlaps, n * big_n).reshape(n_streams, n, big_n)
        ties = NltkTies(hypotheses[0], hypotheses[1], ref_keys, ref_counts, totals, lengths, classes, self.size)
        best, unsure = choose_nltk(numerators, totals, lengths, classes)
        cells = [(int(s), int(o) + 1) for s, o in zip(*np.nonzero(unsure), strict=True)]
        ties.prepare(cells)
        for s, o in cells:
            used = ties.used(s, o)
            best[s, o - 1] = ties.decide(s, o, nltk_weights(self.prefix_counts[used], self.counts[used]))
        take = np.take_along_axis
        chosen_matches = take(matches, best[None], 0)[0]
        chosen_info = take(numerators, best[None], 0)[0]
        ref_len = take(np.broadcast_to(lengths[:, :, None], numerators.shape), best[None], 0)[0].sum(axis=1)
        rows, ngrams, clipped, orders = (np.concatenate(parts) for parts in zip(*entries, strict=True))
        detail = self._detail(rows, ngrams, clipped, orders, totals, lengths, ties)
        return chosen_matches, chosen_info, ref_len.astype(np.float64), detail

    def _detail(self, rows, ngrams, clipped, orders, denominators=None, ref_lengths=None, ties=None) -> Detail:
        """The matches per n-gram restricted to the matched n-grams (their prefixes are matched too)."""
        kept, local = np.unique(ngrams, return_inverse=True)
        prefixes = self.prefixes[kept]
        kept_prefix = np.where(prefixes >= 0, np.searchsorted(kept, prefixes), -1)
        # The references' counts of the kept n-grams, per segment (summed over streams).
        ref_segment, ref_ngram = np.divmod(self.max_keys, self.size)
        at = np.searchsorted(kept, ref_ngram)
        hit = (at < len(kept)) & (kept[np.minimum(at, len(kept) - 1)] == ref_ngram) if len(kept) else at < 0
        by_ngram = np.argsort(at[hit], kind="stable")
        return Detail(
            self.variant,
            rows,
            local.astype(np.int64),
            clipped.astype(np.float64),
            orders,
            kept_prefix,
            ref_segment[hit][by_ngram],
            at[hit][by_ngram],
            self.sum_counts[hit][by_ngram].astype(np.float64),
            self.ref_words.astype(np.float64),
            len(kept),
            self.ngrams.order_of(kept),
            denominators,
            ref_lengths,
            kept,
            ties,
        )


def _lookup(keys: np.ndarray, values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``values`` at each wanted key in the sorted ``keys``, 0 where absent."""
    if len(keys) == 0:
        return np.zeros(len(wanted), dtype=values.dtype)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], 0)


def _per_order(segment: np.ndarray, order: np.ndarray, values: np.ndarray, n: int, big_n: int) -> np.ndarray:
    """Sums of ``values`` per (segment, order), shape (segments x N)."""
    flat = np.bincount(segment * big_n + order - 1, weights=values, minlength=n * big_n)
    return flat.reshape(n, big_n)
