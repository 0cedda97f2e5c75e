"""Google-BLEU's references: tokenized, encoded and counted once.

Unlike BLEU, which clips against the largest count in any reference, Google-BLEU compares a
hypothesis with each reference on its own and keeps the best one. References scored once are
sorted with the hypotheses, all streams together, each hypothesis clipped per stream
(``engine.ngrams.ReferenceNgrams``' ``per_stream``); scored again (or by several systems at once),
every reference n-gram is numbered and counted once (``_NgramTable``) and the hypotheses' n-grams
are sorted and looked up, order by order. The hypotheses are encoded once, in the shared
vocabulary. The streams prepared last are kept (``LAST_PREPARED``) for a call with the same lines;
systems scored one at a time against them share their lines' matches (systems often translate a
segment alike): a line seen before at the same segment is neither tokenized nor counted again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ...core.references import References
from ...engine import ragged
from ...engine.backend import unique_inverse
from ...engine.keys import TokenKeys, Vocabulary
from ...engine.ngrams import ReferenceNgrams
from ...engine.seen import SeenRows

_KEPT_LINES = 1 << 16  # reference streams of at most this many lines (all streams) are kept once prepared


class LastPrepared:
    """The reference streams prepared last, with the options they were counted under: their lines
    are compared (not the list objects), so changed lines are prepared again; larger streams than
    ``_KEPT_LINES`` are not kept, so memory stays small."""

    def __init__(self) -> None:
        self._last: tuple[tuple, PreparedReferences] | None = None  # one slot, replaced at once

    @staticmethod
    def _key(options: tuple, references: Sequence[Sequence[str | None]]) -> tuple | None:
        if sum(map(len, references)) > _KEPT_LINES:
            return None
        return (options, tuple(map(tuple, references)))

    def get(self, options: tuple, references: Sequence[Sequence[str | None]]) -> PreparedReferences | None:
        """The prepared references if these streams (checked ones) and options were the last prepared."""
        last = self._last
        if last is None or last[0][0] != options or len(last[0][1]) != len(references):
            return None
        return last[1] if last[0] == self._key(options, references) else None

    def put(self, options: tuple, references: Sequence[Sequence[str | None]], prepared: PreparedReferences) -> None:
        key = self._key(options, references)
        self._last = None if key is None else (key, prepared)


def ngram_counts(lengths: np.ndarray, min_len: int, max_len: int) -> np.ndarray:
    """n-grams of orders min_len..max_len in sequences of ``lengths`` tokens (NLTK's ``everygrams``),
    in closed form: orders min_len..min(max_len, L) give L - n + 1 each."""
    lengths = np.asarray(lengths, dtype=np.int64)
    top = np.minimum(lengths, max_len)
    orders = np.maximum(top - min_len + 1, 0)
    return orders * (2 * lengths - min_len - top + 2) // 2


def best_reference(matches: np.ndarray, n_all: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """Per segment [n_match, n_all] of the eligible reference with the highest n_match / n_all, the
    first of ties (as Python's ``max``), compared exactly as integers; [0, 0] where none is eligible.
    Arguments are streams x segments."""
    best = np.zeros((2, matches.shape[1]), dtype=np.int64)
    found = np.zeros(matches.shape[1], dtype=bool)
    for stream_matches, stream_all, stream_eligible in zip(matches, n_all, eligible, strict=True):
        better = stream_eligible & (~found | (stream_matches * best[1] > best[0] * stream_all))
        best[0] = np.where(better, stream_matches, best[0])
        best[1] = np.where(better, stream_all, best[1])
        found |= stream_eligible
    return best.T.copy()


class PreparedReferences(References):
    """Reference streams as token ids counted per stream, and each reference's n-gram count."""

    def __init__(self, tokens: TokenKeys, present: np.ndarray, min_len: int, max_len: int):
        """``tokens``: every stream's lines one after another (a missing reference is an empty line);
        ``present``: which references are there (streams x segments)."""
        super().__init__(present)
        self.min_len, self.max_len = min_len, max_len
        self.vocabulary, held_ids = Vocabulary.of(tokens)
        ids = tokens.expand(held_ids)
        lengths = tokens.line_lengths().reshape(present.shape).astype(np.int64)
        self.counts = ngram_counts(lengths, min_len, max_len)  # streams x segments
        # No n-gram longer than the longest reference can match: count matches up to that order only.
        self.order = min(max_len, int(lengths.max(initial=0)))
        ends = np.cumsum(lengths.sum(axis=1)).tolist()
        starts = [0, *ends[:-1]]
        self.ids, self.lengths = ids, lengths
        streams = [(ids[start:end], stream) for start, end, stream in zip(starts, ends, lengths, strict=True)]
        # Scored once by one system, the references are sorted with its hypotheses (all streams in
        # one sort, each hypothesis clipped per stream); scored again or by several systems at once,
        # they are worth a table of their n-grams.
        self.ngrams = ReferenceNgrams(streams, len(self.vocabulary), self.order) if self.order >= min_len else None
        self.table: _NgramTable | None = None
        self.uses = 0
        # (segment, hypothesis line) -> its matches against each stream, then its n-gram count
        self.seen = SeenRows(len(present) + 1, np.int64)
        self._first: tuple[list[str], np.ndarray, np.ndarray] | None = None  # the first system's lines, matches, counts

    def __getstate__(self) -> dict:
        """Pickled without the lines kept from scoring (a worker keeps its own)."""
        return {**self.__dict__, "_first": None}

    def statistics_of(self, tokens: TokenKeys, n_systems: int) -> list[np.ndarray]:
        """Per-segment [n_match, n_all] of ``n_systems`` systems whose hypotheses come one after
        another in ``tokens``, each segment against its best reference."""
        matches, hyp_counts = self._line_matches(tokens, np.tile(np.arange(self.n_segments), n_systems))
        systems = np.arange(len(hyp_counts)).reshape(n_systems, self.n_segments)
        return [self._best(matches[:, lines], hyp_counts[lines]) for lines in systems]

    def line_statistics(self, lines: Sequence[str], keys: Callable[[list[str]], TokenKeys]) -> np.ndarray:
        """``statistics_of`` one system's ``lines``, tokenized by ``keys``. A line seen before at the
        same segment (another system's, against these references) is neither tokenized nor
        counted again: its matches are kept (``seen``, up to ``engine.seen.SEEN_LINES`` lines); the
        first system's are kept only when a second one comes (``_first``)."""
        n = self.n_segments
        matches = np.empty((len(self.present), n), dtype=np.int64)
        hyp_counts = np.empty(n, dtype=np.int64)
        with self.seen.lock:  # the kept lines (and the first system's) are shared by every thread's calls
            if self._first is not None:
                first, self._first = self._first, None
                self.seen.keep_locked(list(enumerate(first[0])), _as_rows(*first[1:]))
            none_kept = not len(self.seen)
            new = np.arange(n)
            if not none_kept:
                found, rows = self.seen.find_locked(list(enumerate(lines)))
                matches[:, found], hyp_counts[found] = rows[:, :-1].T, rows[:, -1]
                new = np.flatnonzero(~found)
        if len(new):
            new_lines = list(lines) if len(new) == n else [lines[i] for i in new.tolist()]
            matches[:, new], hyp_counts[new] = self._line_matches(keys(new_lines), new)
            with self.seen.lock:
                if none_kept and self._first is None and not len(self.seen):
                    self._first = (new_lines, matches, hyp_counts)
                else:
                    pairs = list(zip(new.tolist(), new_lines, strict=True))
                    self.seen.keep_locked(pairs, _as_rows(matches[:, new], hyp_counts[new]))
        return self._best(matches, hyp_counts)

    def _line_matches(self, tokens: TokenKeys, segments: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Matches of orders min_len.. of hypothesis lines (``tokens``) against each stream's
        reference of their ``segments`` (streams x lines), and each line's n-gram count."""
        ids, lengths = self.vocabulary.encode(tokens)
        matches = np.zeros((len(self.present), len(lengths)), dtype=np.int64)
        self.uses += 1
        if self.ngrams is not None and self.uses == 1 and np.array_equal(segments, np.arange(self.n_segments)):
            per_stream = self.ngrams.matches_of([(ids, lengths)], per_stream=True)  # 1 x segments x streams x orders
            matches[:] = per_stream[0, ..., self.min_len - 1 :].sum(axis=2).T
        elif self.ngrams is not None:
            if self.table is None:
                self.table = _NgramTable(self.ids, self.lengths, len(self.vocabulary), self.order)
            matches[:] = self.table.matches(ids, lengths, segments, self.min_len)
        return matches, ngram_counts(lengths, self.min_len, self.max_len)

    def _best(self, matches: np.ndarray, hyp_counts: np.ndarray) -> np.ndarray:
        """[n_match, n_all] of each segment's best reference, from its matches per stream
        (streams x segments) and its hypothesis's n-gram count."""
        n_all = np.maximum(hyp_counts, self.counts)
        return best_reference(matches, n_all, self.present & (n_all > 0))


class _NgramTable:
    """Every reference n-gram of orders 1..``order``, numbered per order and counted per stream,
    so that hypotheses are looked up, never sorted with the references.

    An n-gram of segment ``g`` is numbered by the key ``(number of its first n-1 tokens) * span +
    last token`` (order 1: ``g * span + token``); ``keys[n - 1]`` holds the distinct keys of order
    n, sorted (their positions are the numbers), ``counts[n - 1]`` their count in each stream
    (streams x numbers)."""

    def __init__(self, ids: np.ndarray, lengths: np.ndarray, vocab_size: int, order: int):
        n_streams, n_segments = lengths.shape
        self.span = vocab_size + 1  # id vocab_size: a token no reference has
        self.keys: list[np.ndarray] = []
        self.counts: list[np.ndarray] = []
        flat = lengths.ravel()
        stream = ragged.run_ids(lengths.sum(axis=1))
        remaining = ragged.remaining(flat)
        at = np.arange(len(ids))  # where each n-gram still followed starts
        key = np.repeat(np.tile(np.arange(n_segments), n_streams), flat) * self.span + ids
        for n in range(1, order + 1):
            keys, number = unique_inverse(key)
            self.keys.append(keys)
            self.counts.append(
                np.bincount(stream[at] * len(keys) + number, minlength=n_streams * len(keys)).reshape(
                    n_streams, len(keys)
                )
            )
            going = np.flatnonzero(remaining[at] > n)
            at = at[going]
            key = number[going] * self.span + ids[at + n]

    def matches(self, ids: np.ndarray, lengths: np.ndarray, segments: np.ndarray, min_len: int) -> np.ndarray:
        """Matches of orders min_len.. of hypotheses (``lengths``; ``ids``: ``UNKNOWN`` for a token
        no reference has) against their ``segments``' references, clipped against each stream on
        its own: streams x hypotheses."""
        n_hypotheses, n_streams = len(lengths), len(self.counts[0])
        out = np.zeros((n_streams, n_hypotheses), dtype=np.int64)
        hypothesis = ragged.run_ids(lengths)
        remaining = ragged.remaining(lengths)
        shared = n_hypotheses > 0 and np.bincount(segments).max() > 1  # several hypotheses of one segment
        at = np.flatnonzero(ids >= 0)  # an unknown token matches nothing
        key = np.repeat(segments * self.span, lengths)[at] + ids[at]
        for n, (keys, counts) in enumerate(zip(self.keys, self.counts, strict=True), 1):
            # in key order, each n-gram's occurrences in text order; from bigrams on, the keys follow
            # their prefixes' numbers, found in key order: nearly sorted
            found, number = _looked_up(keys, key, nearly_sorted=n > 1)
            at = at[found]
            if n >= min_len and len(at):
                # runs: one hypothesis's occurrences of one n-gram (hypotheses follow one another in the
                # text; where each segment has one hypothesis, an n-gram's segment is its hypothesis)
                new = number[1:] != number[:-1]
                if shared:
                    owner = hypothesis[at]
                    new |= owner[1:] != owner[:-1]
                runs = np.concatenate([[0], np.flatnonzero(new) + 1])
                size = np.diff(runs, append=len(at))
                run_number, run_owner = number[runs], hypothesis[at[runs]]
                for stream in range(n_streams):
                    clipped = np.minimum(size, counts[stream, run_number])
                    out[stream] += np.bincount(run_owner, clipped, minlength=n_hypotheses).astype(np.int64)
            going = np.flatnonzero(remaining[at] > n)
            if not len(going):
                break
            at = at[going]
            # an unknown next token (-1) makes the key of (number - 1, id vocab_size): never found
            key = number[going] * self.span + ids[at + n]
        return out


def _looked_up(keys: np.ndarray, key: np.ndarray, nearly_sorted: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``key`` are in the sorted ``keys`` (their indices into ``key``, in key order, equal
    keys in index order) and their positions in ``keys``. The keys are sorted first (packed with
    their index while that fits in 63 bits), so the search goes through ``keys`` once, in order."""
    if not len(key) or not len(keys):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    index_bits = max(len(key) - 1, 1).bit_length()
    if int(key.max()).bit_length() + index_bits <= 63:
        # ``nearly_sorted`` keys (those of n-grams from their prefixes', which come sorted) sort in
        # about one pass with a run-finding merge sort.
        packed = np.sort((key << index_bits) | np.arange(len(key)), kind="stable" if nearly_sorted else None)
        order, ordered = packed & ((1 << index_bits) - 1), packed >> index_bits
    else:
        order = np.argsort(key, kind="stable")
        ordered = key[order]
    number = np.minimum(np.searchsorted(keys, ordered), len(keys) - 1)
    found = np.flatnonzero(keys[number] == ordered)
    return order[found], number[found]


def _as_rows(matches: np.ndarray, hyp_counts: np.ndarray) -> np.ndarray:
    """One row per line: its matches against each stream (streams x lines given), then its n-gram count."""
    return np.vstack([matches, hyp_counts]).T


LAST_PREPARED = LastPrepared()
