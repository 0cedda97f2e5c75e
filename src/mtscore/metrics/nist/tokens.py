"""A shard's segments as NIST tokenizes them, kept so that merged shards resample exactly.

A resample of NIST recomputes the information weights from its own reference corpus, so scoring
resamples of merged shards needs every segment's n-grams, not the shard's merged tables. A shard
keeps its tokens compactly: each distinct token's bytes once, then per line its token ids and
length (the smallest unsigned integers that hold them: about half the text's size), for the
hypotheses and every reference stream (a missing reference: no tokens, marked absent).
``corpus_keys`` joins shards back into the whole corpus's ``TokenKeys``, the keys that
``NIST.keys`` gives for the whole files (a token's key depends on its bytes alone; long tokens are
met in the same order), so the in-memory path scores them, resamples included, to the bit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...core.inputs import check_hypotheses, check_references
from ...core.validation import check_array_names, check_count_array
from ...engine.keys import TokenKeys, Vocabulary, ranges
from ...errors import InputError
from ...tokenizers.lines import Split
from .options import NISTSettings

_FIELDS = ("bytes", "sizes", "hyp_ids", "hyp_lengths", "ref_ids", "ref_lengths", "present")


@dataclass(frozen=True)
class ShardTokens:
    """A shard's tokens: distinct tokens (``bytes`` cut by ``sizes``), the hypotheses' token ids
    and lengths, and the references' (stream after stream; ``ref_lengths`` and ``present``:
    streams x segments)."""

    bytes: np.ndarray  # uint8
    sizes: np.ndarray  # per distinct token (as hyp_lengths)
    hyp_ids: np.ndarray  # per hypothesis token (the smallest unsigned type that holds them)
    hyp_lengths: np.ndarray  # per segment (the smallest unsigned type: ``widened`` makes it int64)
    ref_ids: np.ndarray  # per reference token
    ref_lengths: np.ndarray  # streams x segments, 0 where missing (as hyp_lengths)
    present: np.ndarray  # bool, streams x segments

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The tokens as named arrays (``np.savez`` without pickle); ``from_arrays`` reads them."""
        return {name: getattr(self, name) for name in _FIELDS}

    @classmethod
    def from_arrays(cls, arrays: Any) -> ShardTokens:
        """The tokens that ``to_arrays`` gave (``arrays``: a mapping, e.g. an open ``.npz``)."""
        return cls(*(np.asarray(arrays[name]) for name in _FIELDS))

    def widened(self) -> ShardTokens:
        """The tokens with sizes and lengths as int64 (their sums and offsets must not wrap)."""
        names = ("sizes", "hyp_lengths", "ref_lengths")
        return replace(self, **{name: getattr(self, name).astype(np.int64) for name in names})


def shard_tokens(
    metric: NISTSettings, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> ShardTokens:
    """The tokens of a shard's hypotheses and reference streams (``None``: missing), as ``metric``
    tokenizes them."""
    if len(hypotheses):  # a shard may be empty
        check_hypotheses(hypotheses)
    present = check_references(references, len(hypotheses))
    lines = [*hypotheses, *(line or "" for stream in references for line in stream)]
    split, rows = metric.split(lines)
    keys = TokenKeys.of(split, rows)
    _, ids = Vocabulary.of(keys)  # dense ids of the distinct tokens (a key confirmed by its bytes)
    _, first = np.unique(ids, return_index=True)  # ids are 0..distinct tokens - 1
    starts, sizes = split.starts[first], (split.ends - split.starts)[first]
    ids, lengths = _small(keys.expand(ids), len(first)), _small(keys.line_lengths(), keys.lengths.max(initial=0) + 1)
    hyp_tokens = int(lengths[: len(hypotheses)].sum())
    return ShardTokens(
        split.data[ranges(starts, sizes)],
        _small(sizes, sizes.max(initial=0) + 1),
        ids[:hyp_tokens],
        lengths[: len(hypotheses)],
        ids[hyp_tokens:],
        lengths[len(hypotheses) :].reshape(present.shape),
        present,
    )


def _small(values: np.ndarray, bound: int) -> np.ndarray:
    """Non-negative ``values`` below ``bound`` in the smallest unsigned integers that hold them (for the file)."""
    return values.astype(np.min_scalar_type(max(int(bound) - 1, 0)))


def check_shard_tokens(arrays: Mapping[str, Any]) -> None:
    """Raise ``InputError`` saying what is wrong unless ``arrays`` are consistent ``to_arrays`` of
    a shard's tokens: tokens of at least one byte that cut ``bytes`` exactly, token ids that name a
    distinct token, and lengths (streams x segments, none where a reference is missing) that add up
    to the ids there are."""
    check_array_names(arrays, _FIELDS)
    tokens = ShardTokens.from_arrays(arrays)
    for name in ("bytes", "sizes", "hyp_ids", "hyp_lengths", "ref_ids"):
        if getattr(tokens, name).ndim != 1:
            raise InputError(f"NIST tokens: {name} must be 1-D, got shape {getattr(tokens, name).shape}")
    if tokens.present.dtype != np.bool_ or tokens.present.ndim != 2:
        raise InputError("NIST tokens: present must be a 2-D array of booleans (streams x segments)")
    if tokens.ref_lengths.shape != tokens.present.shape or tokens.present.shape[1] != len(tokens.hyp_lengths):
        raise InputError(
            f"NIST tokens: {len(tokens.hyp_lengths)} hypotheses but reference lengths of shape "
            f"{tokens.ref_lengths.shape} and presence of shape {tokens.present.shape}"
        )
    for name in ("bytes", "sizes", "hyp_ids", "hyp_lengths", "ref_ids", "ref_lengths"):
        check_count_array(getattr(tokens, name), f"NIST tokens' {name}")
    if (tokens.sizes == 0).any() or int(tokens.sizes.sum()) != len(tokens.bytes):
        raise InputError("NIST tokens: the token sizes do not cut the token bytes into non-empty tokens")
    for name in ("hyp_ids", "ref_ids"):
        ids = getattr(tokens, name)
        if ids.size and int(ids.max()) >= len(tokens.sizes):
            raise InputError(f"NIST tokens: {name} name token {int(ids.max())} of {len(tokens.sizes)}")
    for ids, lengths, what in (
        (tokens.hyp_ids, tokens.hyp_lengths, "hyp"),
        (tokens.ref_ids, tokens.ref_lengths, "ref"),
    ):
        if int(lengths.sum()) != len(ids):
            raise InputError(
                f"NIST tokens: the {what}_lengths add up to {int(lengths.sum())} tokens but {what}_ids hold {len(ids)}"
            )
    if tokens.ref_lengths[~tokens.present].any():
        raise InputError("NIST tokens: a missing reference has tokens")


def corpus_keys(shards: Sequence[ShardTokens]) -> tuple[TokenKeys, np.ndarray, TokenKeys]:
    """The whole corpus of shards joined in order: the references' keys (every stream's lines,
    stream after stream, as ``NIST.prepare`` keys them), which are present (streams x segments),
    and the hypotheses' keys."""
    shards = [shard.widened() for shard in shards]
    streams = len(shards[0].present) if shards else 0
    if any(len(shard.present) != streams for shard in shards):
        raise InputError("shards with different numbers of reference streams cannot be joined")
    data = _join([shard.bytes for shard in shards], np.uint8)
    base = np.cumsum([0] + [len(shard.bytes) for shard in shards[:-1]])
    starts = [start + np.cumsum(shard.sizes) - shard.sizes for start, shard in zip(base, shards, strict=True)]
    hypotheses = _keys(
        data,
        [(at[shard.hyp_ids], shard.sizes[shard.hyp_ids]) for at, shard in zip(starts, shards, strict=True)],
        [shard.hyp_lengths for shard in shards],
    )
    spans, lengths = [], []
    ends = [np.cumsum(shard.ref_lengths.sum(axis=1)) for shard in shards]  # where each shard's streams end
    for stream in range(streams):
        for at, shard, end in zip(starts, shards, ends, strict=True):
            ids = shard.ref_ids[end[stream] - shard.ref_lengths[stream].sum() : end[stream]]
            spans.append((at[ids], shard.sizes[ids]))
            lengths.append(shard.ref_lengths[stream])
    present = np.hstack([np.zeros((streams, 0), dtype=bool), *(shard.present for shard in shards)])
    return _keys(data, spans, lengths), present, hypotheses


def _join(parts: Sequence[np.ndarray], dtype: Any) -> np.ndarray:
    """``parts`` end to end (none: an empty array of ``dtype``)."""
    return np.concatenate([np.zeros(0, dtype=dtype), *parts]).astype(dtype, copy=False)


def _keys(data: np.ndarray, spans: list[tuple[np.ndarray, np.ndarray]], lengths: list[np.ndarray]) -> TokenKeys:
    """The ``TokenKeys`` of lines (``lengths``: tokens per line) whose tokens are spans (starts,
    sizes) of ``data``."""
    starts = _join([start for start, _ in spans], np.int64)
    sizes = _join([size for _, size in spans], np.int64)
    return TokenKeys.of(Split(data, starts, starts + sizes, _join(lengths, np.int64)))


def same_keys(first: TokenKeys, second: TokenKeys) -> bool:
    """Whether two ``TokenKeys`` (without repeated lines held once) hold the same tokens line by line:
    short tokens are their keys, medium and long ones are compared by their bytes."""
    arrays = ("keys", "lengths", "long_at", "medium_at", "words")
    same = all(np.array_equal(getattr(first, name), getattr(second, name)) for name in arrays)
    return same and first.long_tokens == second.long_tokens
