"""METEOR's word alignment (NLTK's ``_enum_align_words``) for many hypothesis-reference pairs at once.

Three stages, each on the words the previous ones left: exact (lowercased) words, Porter stems,
and WordNet synonyms of the hypothesis word's *stem* among the reference words' stems (NLTK carries
the stems over into the third stage). In the first two stages NLTK walks the hypothesis from its
last word back and gives each word the last unused reference word equal to it, so within a pair the
k-th last occurrence of a word in the hypothesis meets its k-th last occurrence in the reference:
``pair_up`` matches these for every pair at once. The synonym stage (each hypothesis word, last
first, takes the last unused reference word among its synonyms) is greedy over overlapping sets: all
candidate word pairs are found at once, and only the choice among them goes word by word.
A pair's chunks are its runs of matches adjacent in both sentences, in hypothesis order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ...engine import ragged
from ...engine.keys import ranges

# Stem ids -> (how many synonyms each has, their stem ids concatenated), each stem itself left out.
Related = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


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
    span = int(position.max()) + 1
    group = pair.astype(np.int64) * (int(key.max()) + 1) + key
    if (int(group.max()) + 1) * span < 2**62:
        order = np.argsort(group * span + (span - 1 - position))  # one sort of unique keys
    else:
        order = np.lexsort((-position, key, pair))
    group = group[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = group[1:] != group[:-1]
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


def synonym_matches(hyp: Tokens, ref: Tokens, related: Related) -> tuple[np.ndarray, np.ndarray]:
    """The synonym stage on the words left (``word``: stem ids): indices of the matched hypothesis
    and reference tokens. Every (hypothesis token, reference token) pair of a sentence pair whose
    stems are synonyms is found at once; then, hypothesis tokens last first, each takes its last
    reference token not taken yet (the only step word by word, over these few candidates)."""
    if len(hyp.pair) == 0 or len(ref.pair) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    stems, which = np.unique(hyp.word, return_inverse=True)
    counts, flat = related(stems)
    per_token = counts[which]
    targets = flat[ranges(ragged.starts(counts)[which], per_token)]
    hyp_of = ragged.run_ids(per_token)  # one run per hypothesis token
    width = int(max(targets.max(initial=0), ref.word.max())) + 1
    some_reference = np.zeros(width, dtype=bool)
    some_reference[ref.word] = True
    kept = some_reference[targets]  # the synonyms no reference token has, dropped before searching
    hyp_of, targets = hyp_of[kept], targets[kept]
    wanted = hyp.pair[hyp_of].astype(np.int64) * width + targets
    offered = ref.pair.astype(np.int64) * width + ref.word
    order = np.argsort(offered, kind="stable")
    offered = offered[order]
    low = np.searchsorted(offered, wanted, "left")
    found = np.searchsorted(offered, wanted, "right") - low
    edge_hyp, edge_ref = np.repeat(hyp_of, found), order[ranges(low, found)]
    # Hypothesis tokens last first, and for each its reference candidates last first.
    edges = np.lexsort((-ref.position[edge_ref], -hyp.position[edge_hyp], hyp.pair[edge_hyp]))
    taken: set[int] = set()
    hyp_matched: list[int] = []
    ref_matched: list[int] = []
    for h, r in zip(edge_hyp[edges].tolist(), edge_ref[edges].tolist(), strict=True):
        if r not in taken and (not hyp_matched or hyp_matched[-1] != h):
            taken.add(r)
            hyp_matched.append(h)
            ref_matched.append(r)
    return np.array(hyp_matched, dtype=np.int64), np.array(ref_matched, dtype=np.int64)


PIECE_PAIRS = 4096  # pairs aligned at once: the working set (a few kilobytes a pair) stays tens of MiB


def align(
    hyp: Tokens,
    ref: Tokens,
    stem_ids: Callable[[np.ndarray], np.ndarray],
    related: Related | None,
    n_pairs: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair the number of matched words and of chunks (0 without matches); ``stem_ids`` maps
    word ids to stem ids (asked only for the words left after the exact stage), ``related`` gives
    stems' synonyms (``None``: no third stage). Tokens in pair order (as ``METEOR`` gives them) are
    aligned ``PIECE_PAIRS`` pairs at a time (each pair on its own, so pieces change nothing but memory)."""
    if n_pairs <= PIECE_PAIRS or (np.diff(hyp.pair) < 0).any() or (np.diff(ref.pair) < 0).any():
        return _align(hyp, ref, stem_ids, related, n_pairs)  # pieces need the tokens in pair order
    bounds = np.arange(0, n_pairs + PIECE_PAIRS, PIECE_PAIRS).clip(max=n_pairs)
    hyp_cuts, ref_cuts = np.searchsorted(hyp.pair, bounds), np.searchsorted(ref.pair, bounds)
    pieces = [
        _align(
            _piece(hyp, hyp_cuts[k], hyp_cuts[k + 1], first),
            _piece(ref, ref_cuts[k], ref_cuts[k + 1], first),
            stem_ids,
            related,
            int(bounds[k + 1] - first),
        )
        for k, first in enumerate(bounds[:-1].tolist())
    ]
    return np.concatenate([matches for matches, _ in pieces]), np.concatenate([chunks for _, chunks in pieces])


def _piece(tokens: Tokens, start: int, end: int, first_pair: int) -> Tokens:
    """The tokens ``start:end`` (those of pairs from ``first_pair`` on, numbered from 0)."""
    return Tokens(tokens.pair[start:end] - first_pair, tokens.position[start:end], tokens.word[start:end])


def _align(
    hyp: Tokens,
    ref: Tokens,
    stem_ids: Callable[[np.ndarray], np.ndarray],
    related: Related | None,
    n_pairs: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``align`` of pairs all at once."""
    h_exact, r_exact = pair_up(hyp, ref, hyp.word, ref.word)
    hyp_left, ref_left = _unmatched(hyp, h_exact), _unmatched(ref, r_exact)
    hyp_left = Tokens(hyp_left.pair, hyp_left.position, stem_ids(hyp_left.word))
    ref_left = Tokens(ref_left.pair, ref_left.position, stem_ids(ref_left.word))
    h_stem, r_stem = pair_up(hyp_left, ref_left, hyp_left.word, ref_left.word)
    pairs = [hyp.pair[h_exact], hyp_left.pair[h_stem]]
    hyp_positions = [hyp.position[h_exact], hyp_left.position[h_stem]]
    ref_positions = [ref.position[r_exact], ref_left.position[r_stem]]
    if related is not None:
        hyp_rest, ref_rest = _unmatched(hyp_left, h_stem), _unmatched(ref_left, r_stem)
        h_synonym, r_synonym = synonym_matches(hyp_rest, ref_rest, related)
        pairs.append(hyp_rest.pair[h_synonym])
        hyp_positions.append(hyp_rest.position[h_synonym])
        ref_positions.append(ref_rest.position[r_synonym])
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
