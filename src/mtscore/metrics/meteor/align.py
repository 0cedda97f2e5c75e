"""METEOR's word alignment (NLTK's ``_enum_align_words``) for many hypothesis-reference pairs at once.

Three stages, each on the words the previous ones left: exact (lowercased) words, Porter stems,
and WordNet synonyms of the hypothesis word's *stem* among the reference words' stems (NLTK carries
the stems over into the third stage). In the first two stages NLTK walks the hypothesis from its
last word back and gives each word the last unused reference word equal to it, so within a pair the
k-th last occurrence of a word in the hypothesis meets its k-th last occurrence in the reference:
``pair_up`` matches these for every pair at once. The synonym stage (each hypothesis word, last
first, takes the last unused reference word among its synonyms) is greedy over overlapping sets;
it runs word by word only in the pairs where some synonym is there at all, found at once first.
A pair's chunks are its runs of matches adjacent in both sentences, in hypothesis order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np


class Tokens(NamedTuple):
    """Words of many sentences, flat: the pair each belongs to, its position there, its id."""

    pair: np.ndarray
    position: np.ndarray
    word: np.ndarray

    def take(self, where: np.ndarray) -> Tokens:
        """The tokens at ``where`` (indices or a mask)."""
        return Tokens(self.pair[where], self.position[where], self.word[where])


def ranks_from_end(pair: np.ndarray, key: np.ndarray, position: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tokens ordered by (pair, key, position descending), and each one's rank there among its
    (pair, key) run: 0 for the last occurrence in its sentence, 1 for the one before, ..."""
    order = np.lexsort((-position, key, pair))
    pair, key = pair[order], key[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (pair[1:] != pair[:-1]) | (key[1:] != key[:-1])
    first = np.maximum.accumulate(np.where(starts, np.arange(len(order)), 0))
    return order, np.arange(len(order)) - first


def pair_up(hyp: Tokens, ref: Tokens, hyp_key: np.ndarray, ref_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of matched (hypothesis, reference) tokens: within each pair and key, the k-th last
    hypothesis token with the k-th last reference token."""
    if len(hyp.pair) == 0 or len(ref.pair) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    h_order, h_rank = ranks_from_end(hyp.pair, hyp_key, hyp.position)
    r_order, r_rank = ranks_from_end(ref.pair, ref_key, ref.position)
    keys = int(max(hyp_key.max(), ref_key.max())) + 1
    ranks = int(max(h_rank.max(), r_rank.max())) + 1

    def code(tokens: Tokens, key: np.ndarray, order: np.ndarray, rank: np.ndarray) -> np.ndarray:
        return (tokens.pair[order].astype(np.int64) * keys + key[order]) * ranks + rank

    both = np.intersect1d(
        code(hyp, hyp_key, h_order, h_rank),
        code(ref, ref_key, r_order, r_rank),
        assume_unique=True,
        return_indices=True,
    )
    return h_order[both[1]], r_order[both[2]]


def synonym_matches(
    hyp: Tokens, ref: Tokens, synonyms: Callable[[int], frozenset[int]]
) -> tuple[list[int], list[int], list[int]]:
    """The synonym stage on the words left (``word``: stem ids): (pair, hypothesis position,
    reference position) of each match."""
    pairs: list[int] = []
    hyp_positions: list[int] = []
    ref_positions: list[int] = []
    stems = np.unique(hyp.word)
    related = [np.array(sorted(synonyms(int(stem)) - {int(stem)}), dtype=np.int64) for stem in stems]
    counts = np.array([len(ids) for ids in related], dtype=np.int64)
    if counts.sum() == 0 or len(ref.pair) == 0:
        return pairs, hyp_positions, ref_positions
    # Which pairs have a hypothesis word with a synonym among the reference words left.
    per_token = counts[np.searchsorted(stems, hyp.word)]
    targets = np.concatenate(related)[_gather(np.searchsorted(stems, hyp.word), counts)]
    width = int(max(targets.max(), ref.word.max())) + 1
    wanted = np.repeat(hyp.pair.astype(np.int64), per_token) * width + targets
    offered = ref.pair.astype(np.int64) * width + ref.word
    candidates = np.unique(np.repeat(hyp.pair, per_token)[np.isin(wanted, offered)])
    hyp_sorted = hyp.take(np.lexsort((hyp.position, hyp.pair)))
    ref_sorted = ref.take(np.lexsort((ref.position, ref.pair)))
    for pair in candidates.tolist():
        h = slice(*np.searchsorted(hyp_sorted.pair, [pair, pair + 1]))
        r = slice(*np.searchsorted(ref_sorted.pair, [pair, pair + 1]))
        available: dict[int, list[int]] = {}
        for position, word in zip(ref_sorted.position[r].tolist(), ref_sorted.word[r].tolist(), strict=True):
            available.setdefault(word, []).append(position)
        words = hyp_sorted.word[h].tolist()
        for position, word in zip(reversed(hyp_sorted.position[h].tolist()), reversed(words), strict=True):
            # The last unused reference word among the synonyms (positions differ, so no ties).
            last = max(
                ((spots[-1], ref_word) for ref_word in synonyms(word) if (spots := available.get(ref_word))),
                default=None,
            )
            if last is not None:
                available[last[1]].pop()
                pairs.append(pair)
                hyp_positions.append(position)
                ref_positions.append(last[0])
    return pairs, hyp_positions, ref_positions


def _gather(groups: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Indices into the concatenation of groups of ``counts`` items: all items of each group in ``groups``."""
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    sizes = counts[groups]
    base = np.repeat(starts[groups] - np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes)
    return base + np.arange(int(sizes.sum()))


def align(
    hyp: Tokens,
    ref: Tokens,
    stem_of: np.ndarray,
    synonyms: Callable[[int], frozenset[int]] | None,
    n_pairs: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair the number of matched words and of chunks (0 without matches); ``stem_of`` maps a
    word id to its stem id, ``synonyms`` a stem id to its synonyms' stem ids (``None``: no third stage)."""
    h_exact, r_exact = pair_up(hyp, ref, hyp.word, ref.word)
    hyp_left, ref_left = _unmatched(hyp, h_exact), _unmatched(ref, r_exact)
    hyp_left = Tokens(hyp_left.pair, hyp_left.position, stem_of[hyp_left.word])
    ref_left = Tokens(ref_left.pair, ref_left.position, stem_of[ref_left.word])
    h_stem, r_stem = pair_up(hyp_left, ref_left, hyp_left.word, ref_left.word)
    pairs = [hyp.pair[h_exact], hyp_left.pair[h_stem]]
    hyp_positions = [hyp.position[h_exact], hyp_left.position[h_stem]]
    ref_positions = [ref.position[r_exact], ref_left.position[r_stem]]
    if synonyms is not None:
        found = synonym_matches(_unmatched(hyp_left, h_stem), _unmatched(ref_left, r_stem), synonyms)
        for into, values in zip((pairs, hyp_positions, ref_positions), found, strict=True):
            into.append(np.array(values, dtype=np.int64))
    pair, hyp_position, ref_position = (
        np.concatenate(parts).astype(np.int64) for parts in (pairs, hyp_positions, ref_positions)
    )
    order = np.lexsort((hyp_position, pair))
    pair, hyp_position, ref_position = pair[order], hyp_position[order], ref_position[order]
    joined = (pair[1:] == pair[:-1]) & (np.diff(hyp_position) == 1) & (np.diff(ref_position) == 1)
    matches = np.bincount(pair, minlength=n_pairs)
    chunks = matches - np.bincount(pair[1:][joined], minlength=n_pairs)
    return matches, chunks


def _unmatched(tokens: Tokens, matched: np.ndarray) -> Tokens:
    """The tokens not at the indices ``matched``."""
    keep = np.ones(len(tokens.pair), dtype=bool)
    keep[matched] = False
    return tokens.take(keep)
