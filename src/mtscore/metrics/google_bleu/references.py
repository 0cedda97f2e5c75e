"""Google-BLEU's references: tokenized, encoded and counted once, one n-gram table for all streams.

Unlike BLEU, which clips against the largest count in any reference, Google-BLEU compares a
hypothesis with each reference on its own and keeps the best one: one ``engine.ngrams.ReferenceNgrams``
holds every stream and clips each hypothesis against each stream separately (``per_stream``), all
streams in one sort; the hypotheses are encoded once, in the shared vocabulary.
"""

from __future__ import annotations

import numpy as np

from ...core.references import References
from ...engine.keys import TokenKeys, Vocabulary
from ...engine.ngrams import ReferenceNgrams


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
        streams = [(ids[start:end], stream) for start, end, stream in zip(starts, ends, lengths, strict=True)]
        # one table for all streams, each hypothesis clipped against each stream on its own
        self.ngrams = ReferenceNgrams(streams, len(self.vocabulary), self.order) if self.order >= min_len else None

    def statistics_of(self, tokens: TokenKeys, n_systems: int) -> list[np.ndarray]:
        """Per-segment [n_match, n_all] of ``n_systems`` systems whose hypotheses come one after
        another in ``tokens``, each segment against its best reference."""
        ids, lengths = self.vocabulary.encode(tokens)
        n = self.n_segments
        offsets = np.concatenate([[0], np.cumsum(lengths)])[np.arange(n_systems + 1) * n].tolist()
        systems = [(ids[offsets[k] : offsets[k + 1]], lengths[k * n : (k + 1) * n]) for k in range(n_systems)]
        # streams x systems x segments
        matches = np.zeros((len(self.present), n_systems, n), dtype=np.int64)
        if self.ngrams is not None:
            per_stream = self.ngrams.matches_of(systems, per_stream=True)  # systems x segments x streams x orders
            matches[:] = per_stream[..., self.min_len - 1 :].sum(axis=3).transpose(2, 0, 1)
        hyp_counts = ngram_counts(lengths, self.min_len, self.max_len).reshape(n_systems, n)
        results = []
        for system in range(n_systems):
            n_all = np.maximum(hyp_counts[system], self.counts)
            results.append(best_reference(matches[:, system], n_all, self.present & (n_all > 0)))
        return results
