"""Exact NIST scores of resampled corpora, from the matches per n-gram (``Detail``).

A resample with segment multiplicities w has reference counts R_w(g) = sum_s w_s R_s(g), so its
information weights log2(R_w(prefix g) / R_w(g)) differ from the full corpus's. Its numerator of
order n is sum_g M_w(g) info_w(g) with M_w = sum_s w_s M_s (mteval), or NLTK's per-segment choice
of reference made again under the new weights. Only matched n-grams (and their prefixes, matched
too) matter, so the sums run over them alone; resamples go in chunks so that memory stays bounded.
All arithmetic is float64.
"""

from __future__ import annotations

import numpy as np

from .references import Detail, choose_nltk, information

_CHUNK_VALUES = 4 << 20  # float64 values held per chunk of resamples


def resampled_rows(rows: np.ndarray, detail: Detail, weights: np.ndarray, max_order: int) -> np.ndarray:
    """The summed rows of each resample (a row of ``weights``: segment multiplicities), with the
    information columns (and NLTK's reference length) recomputed under the resample's weights."""
    weights = np.asarray(weights, dtype=np.float64)
    sums = weights @ rows
    cells = 0 if detail.ref_lengths is None else detail.ref_lengths.size * max_order
    width = max(len(detail.ref_counts), len(detail.rows), detail.n_kept, cells, 1)
    step = max(1, _CHUNK_VALUES // width)
    for start in range(0, len(weights), step):
        chunk = weights[start : start + step]
        info, ref_len = _recount(detail, chunk, max_order)
        sums[start : start + step, 2 * max_order : 3 * max_order] = info
        if ref_len is not None:
            sums[start : start + step, -1] = ref_len
    return sums


def _recount(detail: Detail, weights: np.ndarray, max_order: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Per resample of the chunk, the information sum per order (and NLTK's summed reference length)."""
    chunks = len(weights)
    counts = _column_sums(weights[:, detail.ref_segments] * detail.ref_counts, detail.ref_ngrams, detail.n_kept)
    words = weights @ detail.ref_words
    prefix = detail.kept_prefix
    prefix_counts = np.where(prefix >= 0, counts[:, np.maximum(prefix, 0)], words[:, None])
    info = information(counts, prefix_counts, detail.variant)  # chunk x kept n-grams
    values = info[:, detail.ngrams] * detail.clipped
    if detail.variant == "mteval":
        values *= weights[:, detail.rows]
        return _group_sums(values, detail.orders - 1, max_order), None
    assert detail.denominators is not None and detail.ref_lengths is not None  # NLTK's detail has them
    n_streams, n_segments = detail.ref_lengths.shape
    cells = n_streams * n_segments * max_order
    numerators = _group_sums(values, detail.rows * max_order + detail.orders - 1, cells)
    numerators = numerators.reshape(chunks, n_streams, n_segments, max_order)
    best = choose_nltk(numerators, detail.denominators, detail.ref_lengths)
    chosen = np.take_along_axis(numerators, best[:, None], 1)[:, 0]
    lengths = np.broadcast_to(detail.ref_lengths[None, :, :, None], numerators.shape)
    ref_len = np.take_along_axis(lengths, best[:, None], 1)[:, 0].sum(axis=2)
    return np.einsum("cs,csn->cn", weights, chosen), np.einsum("cs,cs->c", weights, ref_len.astype(np.float64))


def _column_sums(values: np.ndarray, columns: np.ndarray, width: int) -> np.ndarray:
    """Per row of ``values``, the sums over entries of each column (``columns`` ascending)."""
    out = np.zeros((len(values), width))
    if values.shape[1] == 0:
        return out
    starts = np.flatnonzero(np.concatenate([[True], columns[1:] != columns[:-1]]))
    out[:, columns[starts]] = np.add.reduceat(values, starts, axis=1)
    return out


def _group_sums(values: np.ndarray, groups: np.ndarray, width: int) -> np.ndarray:
    """Per row of ``values``, the sums over entries of each group (any order)."""
    order = np.argsort(groups, kind="stable")
    return _column_sums(values[:, order], groups[order], width)
