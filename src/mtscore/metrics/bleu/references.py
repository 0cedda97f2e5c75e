"""BLEU's references, tokenized (or read as token ids), encoded and counted once for any number of systems."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core.inputs import is_sequence
from ...core.references import References
from ...engine import ragged
from ...engine.backend import NUMPY, TorchOps, is_tensor
from ...engine.ids import encode_ids, id_rows, is_token_ids
from ...engine.keys import TokenKeys, Vocabulary, distinct_lines
from ...engine.ngrams import ReferenceNgrams, ngram_totals
from ...errors import InputError, LengthMismatchError, stream_mismatch
from ...tokenizers.lines import split_tokens
from .brevity import closest_lengths
from .stats import Stats

_DIRECT_IDS = 1 << 20  # token ids below this (any tokenizer's vocabulary) are counted as they are


class PreparedReferences(References):
    """Encoded and counted references, reusable for any number of systems.

    ``kind`` is ``"text"`` (tokens mapped through a vocabulary) or ``"ids"`` (token ids mapped
    through the sorted table of reference ids); hypotheses are encoded the same way.
    """

    def __init__(
        self,
        kind: str,
        streams: list,
        present: np.ndarray,
        vocabulary,
        max_order: int,
        ops=NUMPY,
        groups: np.ndarray | None = None,
    ):
        """``streams``: each stream's (ids, lengths) over the distinct reference segments, which
        ``groups`` gives for each segment (``None``: every segment is distinct)."""
        super().__init__(present)
        self.kind, self.vocabulary, self.ops = kind, vocabulary, ops
        # How a segment's reference length is chosen (compatibility modes set another tool's rule).
        self.length_rule: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = closest_lengths
        self.lengths = np.stack([ops.to_numpy(lengths) for _, lengths in streams]).astype(np.int64)
        if groups is not None:
            self.lengths = self.lengths[:, groups]
        self.ngrams = ReferenceNgrams(streams, len(vocabulary), max_order, ops, groups)

    @classmethod
    def from_keys(cls, tokens: TokenKeys, present: np.ndarray, max_order: int) -> PreparedReferences:
        """From the token keys of every reference stream, one after another (a missing reference
        is an empty line; ``present`` says which are there, streams x segments)."""
        vocabulary, ids = Vocabulary.of(tokens)
        if tokens.rows is None:
            lengths = tokens.lengths.reshape(present.shape)
            ends = np.cumsum(lengths.sum(axis=1))
            streams = [
                (ids[end - size : end], stream)
                for stream, size, end in zip(lengths, lengths.sum(axis=1), ends, strict=True)
            ]
            return cls("text", streams, present, vocabulary, max_order)
        # Lines repeat: segments whose references are the same lines are counted with one copy.
        held = tokens.rows.reshape(present.shape)  # each reference as a held line
        lines = held[0].tolist() if len(held) == 1 else list(zip(*held.tolist(), strict=True))
        distinct, groups = distinct_lines(lines)
        firsts = np.arange(len(distinct))
        if groups is not None:  # each group's first segment
            firsts = np.flatnonzero(groups > np.maximum.accumulate(np.concatenate([[-1], groups[:-1]])))
        streams = [(tokens.expand(ids, rows), tokens.lengths[rows]) for rows in held[:, firsts]]
        return cls("text", streams, present, vocabulary, max_order, groups=groups)

    @classmethod
    def from_tokens(cls, segments: list[list[list | None]], max_order: int) -> PreparedReferences:
        """From tokenized reference streams (``None``: no reference for that segment)."""
        present = np.array([[tokens is not None for tokens in stream] for stream in segments], dtype=bool)
        filled = [tokens or [] for stream in segments for tokens in stream]
        return cls.from_keys(TokenKeys.of(split_tokens(filled)), present, max_order)

    @classmethod
    def from_ids(cls, rows: list[tuple], max_order: int, ops) -> PreparedReferences:
        """From per-stream (ids, lengths, present) of raw token ids."""
        ids = ops.concat([ids for ids, _, _ in rows])
        if len(ids) == 0 or (int(ids.min()) >= 0 and int(ids.max()) < _DIRECT_IDS):
            table, dense = range(int(ids.max()) + 1 if len(ids) else 0), ids  # small ids count as they are
        else:
            table, dense = ops.unique_inverse(ids)
        ends = np.cumsum([len(ids) for ids, _, _ in rows])
        streams = [(dense[end - len(ids) : end], lengths) for (ids, lengths, _), end in zip(rows, ends, strict=True)]
        present = np.stack([present for _, _, present in rows])
        return cls("ids", streams, present, table, max_order, ops)

    def statistics(self, hypotheses) -> Stats:
        """Statistics of hypotheses (``TokenKeys``, or (ids, lengths) for id references) aligned with these
        references."""
        return self.statistics_of(hypotheses, 1)[0]

    def statistics_of(self, hypotheses, n_systems: int) -> list[Stats]:
        """Statistics of ``n_systems`` systems whose hypotheses (as ``statistics`` takes them) come one
        after another, counted together: the references are sorted once for all of them."""
        if self.kind == "text":
            ids, hyp_len = self.vocabulary.encode(hypotheses)
        else:
            ids, hyp_len = encode_ids(hypotheses[0], self.vocabulary, self.ops), hypotheses[1]
        n = self.n_segments
        ends = ragged.offsets(self.ops.to_numpy(hyp_len))[np.arange(n_systems + 1) * n].tolist()
        systems = [(ids[ends[k] : ends[k + 1]], hyp_len[k * n : (k + 1) * n]) for k in range(n_systems)]
        matches = self.ngrams.matches_of(systems)
        hyp_len = self.ops.to_numpy(hyp_len).astype(np.int64).reshape(n_systems, n)
        return [self.statistics_from(matches[k], hyp_len[k]) for k in range(n_systems)]

    def statistics_from(self, matches: np.ndarray, hyp_len: np.ndarray) -> Stats:
        """One system's statistics from its clipped matches and hypothesis lengths (NumPy int64):
        n-gram totals and the closest reference lengths added."""
        return Stats(
            matches=matches,
            totals=ngram_totals(hyp_len, self.ngrams.max_order),
            hyp_len=hyp_len,
            ref_len=self.length_rule(hyp_len, self.lengths, self.present),
        )


def _ids_or_missing(stream) -> bool:
    """A list stream of id sequences, possibly with (or only) ``None`` for missing references."""
    return all(item is None for item in stream) or is_token_ids(stream)


def ops_for(*batches):
    """Torch operations on the device of the first tensor given, else NumPy."""
    for batch in batches:
        items = [batch] if not isinstance(batch, (list, tuple)) else batch
        for item in items:
            if is_tensor(item):
                return TorchOps(item.device)
            if isinstance(item, (list, tuple)) and item and is_tensor(item[0]):
                return TorchOps(item[0].device)
    return NUMPY


def id_streams(references, n_hypotheses: int | None, pad_id, ops) -> list[tuple]:
    """Reference streams of token ids, checked like text streams."""
    if isinstance(references, np.ndarray) or is_tensor(references):
        if references.ndim == 2:
            raise InputError(
                "references must be a list of reference streams (or a 3-D array: streams x segments x positions); "
                "for one reference per segment pass [references]"
            )
        references = list(references)
    if not is_sequence(references) or len(references) == 0:
        raise InputError("references must be a non-empty list of reference streams of token ids")
    if not all(
        isinstance(stream, np.ndarray) or is_tensor(stream) or is_sequence(stream) for stream in references
    ) or any(is_sequence(stream) and not _ids_or_missing(stream) for stream in references):
        raise InputError(
            "references must be a list of reference streams, each a 2-D array or a list of id sequences; "
            "for one reference per segment pass [references]"
        )
    rows = [id_rows(stream, pad_id, ops, f"reference stream {number}") for number, stream in enumerate(references, 1)]
    n_hypotheses = len(rows[0][1]) if n_hypotheses is None else n_hypotheses
    for number, (_, lengths, _) in enumerate(rows, 1):
        if len(lengths) != n_hypotheses:
            raise LengthMismatchError(stream_mismatch(n_hypotheses, number, len(lengths), "sequence"))
    missing = ~np.stack([present for _, _, present in rows]).any(axis=0)
    if missing.any():
        raise InputError(f"segment {int(np.argmax(missing))} has no reference: every reference stream has None there")
    return rows


def holds_ids(references) -> bool:
    """Reference streams of token ids (a 3-D array, or streams that are arrays or lists of id sequences)."""
    if isinstance(references, np.ndarray) or is_tensor(references):
        return True
    if not is_sequence(references):
        return False
    return any(is_token_ids(stream) for stream in references)
