"""The BLEU pipeline: tokenize -> encode -> count -> ``Stats`` -> score, references prepared once."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import chain, repeat
from operator import is_not

import numpy as np

from . import tokenizers
from .backend import NUMPY, TorchOps, is_tensor
from .count import ReferenceNgrams, closest_lengths, ngram_totals
from .encode import (
    TokenKeys,
    Vocabulary,
    distinct_lines,
    encode_ids,
    id_rows,
    is_token_ids,
    split_lines,
    split_tokens,
)
from .errors import BleuInputError, LengthMismatchError
from .report import BLEUScore, SentenceScores
from .score import Scoring, corpus_rows, score_sums, segment_rows
from .signature import Signature
from .stats import Stats

_DIRECT_IDS = 1 << 20  # token ids below this (any tokenizer's vocabulary) are counted as they are


def _is_sequence(value) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _check_items(items: Sequence, allowed: tuple[type, ...], problem) -> set[type]:
    """The types of ``items`` (one fast pass when all are allowed); for the first item that is not
    an instance of ``allowed``, raise ``BleuInputError(problem(index, item))``."""
    types = set(map(type, items))
    if not types <= set(allowed):
        for index, item in enumerate(items):
            if not isinstance(item, allowed):
                raise BleuInputError(problem(index, item))
    return types


def check_hypotheses(hypotheses) -> None:
    """Hypotheses must be a non-empty list of str."""
    if isinstance(hypotheses, str):
        raise BleuInputError("hypotheses must be a list of str, got a single str; wrap it as [hypothesis]")
    if not _is_sequence(hypotheses):
        raise BleuInputError(f"hypotheses must be a list of str, got {type(hypotheses).__name__}")
    if len(hypotheses) == 0:
        raise BleuInputError("no hypotheses to score")
    _check_items(hypotheses, (str,), lambda index, item: f"hypothesis {index} is {type(item).__name__}, expected str")


def check_references(references, n_hypotheses: int | None = None) -> np.ndarray:
    """References must be a list of streams (lists of str or None), each as long as the hypotheses.
    Returns which references are there (not ``None``), streams x segments."""
    if isinstance(references, str) or not _is_sequence(references):
        raise BleuInputError(
            "references must be a list of reference streams (each a list of str, one per hypothesis), "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise BleuInputError("no references given")
    if all(isinstance(stream, str) for stream in references):
        raise BleuInputError(
            "references must be a list of reference streams, got a list of str; "
            "for one reference per segment pass [references]"
        )
    with_none = []
    for number, stream in enumerate(references, 1):
        if not _is_sequence(stream):
            raise BleuInputError(f"reference stream {number} is {type(stream).__name__}, expected a list of str")
        types = _check_items(stream, (str, type(None)), lambda index, item, number=number: (
            f"reference stream {number}, segment {index} is {type(item).__name__}, expected str or None"))
        with_none.append(type(None) in types)
    lengths = [len(stream) for stream in references]
    if n_hypotheses is None:
        n_hypotheses = lengths[0]
    for number, length in enumerate(lengths, 1):
        if length != n_hypotheses:
            message = (
                f"{n_hypotheses} hypotheses but reference stream {number} has {length} segments; "
                "every reference stream needs one line per hypothesis"
            )
            if len(references) == n_hypotheses and len(set(lengths)) == 1:
                message += (
                    f". The references look transposed: {len(references)} lists of {length}, one per segment. "
                    "Pass one list per reference stream instead, e.g. [list(s) for s in zip(*references)]"
                )
            raise LengthMismatchError(message)
    present = np.ones((len(references), n_hypotheses), dtype=bool)
    for row, stream, none in zip(present, references, with_none):
        if none:
            row[:] = np.fromiter(map(is_not, stream, repeat(None)), dtype=bool, count=n_hypotheses)
    if all(with_none) and not present.any(axis=0).all():
        first = int(np.argmin(present.any(axis=0)))
        raise BleuInputError(f"segment {first} has no reference: every reference stream has None there")
    return present


def references_for(n_hypotheses: int, references, prepared, prepare):
    """The references of a call: given with it (``prepare(references, n_hypotheses)``), or those
    prepared when the metric was created, which must have as many segments as the hypotheses."""
    if references is not None:
        return prepare(references, n_hypotheses)
    if prepared is None:
        raise BleuInputError("no references: pass them here or when creating the metric")
    if prepared.n_segments != n_hypotheses:
        raise LengthMismatchError(
            f"{n_hypotheses} hypotheses but the prepared references have {prepared.n_segments} segments"
        )
    return prepared


class PreparedReferences:
    """Encoded and counted references, reusable for any number of systems.

    ``kind`` is ``"text"`` (tokens mapped through a vocabulary) or ``"ids"`` (token ids mapped
    through the sorted table of reference ids); hypotheses are encoded the same way.
    """

    def __init__(self, kind: str, streams: list, present: np.ndarray, vocabulary, max_order: int, ops=NUMPY,
                 groups: np.ndarray | None = None):
        """``streams``: each stream's (ids, lengths) over the distinct reference segments, which
        ``groups`` gives for each segment (``None``: every segment is distinct)."""
        self.kind, self.vocabulary, self.ops = kind, vocabulary, ops
        self.present = present
        self.n_segments = present.shape[1]
        self.lengths = np.stack([ops.to_numpy(lengths) for _, lengths in streams]).astype(np.int64)
        if groups is not None:
            self.lengths = self.lengths[:, groups]
        self.ngrams = ReferenceNgrams(streams, len(vocabulary), max_order, ops, groups)
        counts = set(present.sum(axis=0).tolist())
        self.nrefs: int | str = counts.pop() if len(counts) == 1 else "var"

    @classmethod
    def from_keys(cls, tokens: TokenKeys, present: np.ndarray, max_order: int) -> "PreparedReferences":
        """From the token keys of every reference stream, one after another (a missing reference
        is an empty line; ``present`` says which are there, streams x segments)."""
        vocabulary, ids = Vocabulary.of(tokens)
        if tokens.rows is None:
            lengths = tokens.lengths.reshape(present.shape)
            ends = np.cumsum(lengths.sum(axis=1))
            streams = [(ids[end - size : end], stream) for stream, size, end in zip(lengths, lengths.sum(axis=1), ends)]
            return cls("text", streams, present, vocabulary, max_order)
        # Lines repeat: segments whose references are the same lines are counted with one copy.
        held = tokens.rows.reshape(present.shape)  # each reference as a held line
        distinct, groups = distinct_lines(held[0].tolist() if len(held) == 1 else list(zip(*held.tolist())))
        firsts = np.arange(len(distinct))
        if groups is not None:  # each group's first segment
            firsts = np.flatnonzero(groups > np.maximum.accumulate(np.concatenate([[-1], groups[:-1]])))
        streams = [(tokens.expand(ids, rows), tokens.lengths[rows]) for rows in held[:, firsts]]
        return cls("text", streams, present, vocabulary, max_order, groups=groups)

    @classmethod
    def from_tokens(cls, segments: list[list[list | None]], max_order: int) -> "PreparedReferences":
        """From tokenized reference streams (``None``: no reference for that segment)."""
        present = np.array([[tokens is not None for tokens in stream] for stream in segments], dtype=bool)
        filled = [tokens or [] for stream in segments for tokens in stream]
        return cls.from_keys(TokenKeys.of(split_tokens(filled)), present, max_order)

    @classmethod
    def from_ids(cls, rows: list[tuple], max_order: int, ops) -> "PreparedReferences":
        """From per-stream (ids, lengths, present) of raw token ids."""
        ids = ops.concat([ids for ids, _, _ in rows])
        if len(ids) == 0 or (int(ids.min()) >= 0 and int(ids.max()) < _DIRECT_IDS):
            table, dense = range(int(ids.max()) + 1 if len(ids) else 0), ids  # small ids count as they are
        else:
            table, dense = ops.unique_inverse(ids)
        ends = np.cumsum([len(ids) for ids, _, _ in rows])
        streams = [(dense[end - len(ids) : end], lengths) for (ids, lengths, _), end in zip(rows, ends)]
        present = np.stack([present for _, _, present in rows])
        return cls("ids", streams, present, table, max_order, ops)

    def stats(self, hypotheses) -> Stats:
        """Statistics of hypotheses (``TokenKeys``, or (ids, lengths) for id references) aligned with these references."""
        return self.stats_of(hypotheses, 1)[0]

    def stats_of(self, hypotheses, n_systems: int) -> list[Stats]:
        """Statistics of ``n_systems`` systems whose hypotheses (as ``stats`` takes them) come one
        after another, counted together: the references are sorted once for all of them."""
        if self.kind == "text":
            ids, hyp_len = self.vocabulary.encode(hypotheses)
        else:
            ids, hyp_len = encode_ids(hypotheses[0], self.vocabulary, self.ops), hypotheses[1]
        n = self.n_segments
        ends = np.concatenate([[0], np.cumsum(self.ops.to_numpy(hyp_len))])[np.arange(n_systems + 1) * n].tolist()
        systems = [(ids[ends[k] : ends[k + 1]], hyp_len[k * n : (k + 1) * n]) for k in range(n_systems)]
        matches = self.ngrams.matches_of(systems)
        hyp_len = self.ops.to_numpy(hyp_len).astype(np.int64).reshape(n_systems, n)
        return [
            Stats(
                matches=matches[k],
                totals=ngram_totals(hyp_len[k], self.ngrams.max_order),
                hyp_len=hyp_len[k],
                ref_len=closest_lengths(hyp_len[k], self.lengths, self.present),
            )
            for k in range(n_systems)
        ]


def _ids_or_missing(stream) -> bool:
    """A list stream of id sequences, possibly with (or only) ``None`` for missing references."""
    return all(item is None for item in stream) or is_token_ids(stream)


def _ops_for(*batches):
    """Torch operations on the device of the first tensor given, else NumPy."""
    for batch in batches:
        items = [batch] if not isinstance(batch, (list, tuple)) else batch
        for item in items:
            if is_tensor(item):
                return TorchOps(item.device)
            if isinstance(item, (list, tuple)) and item and is_tensor(item[0]):
                return TorchOps(item[0].device)
    return NUMPY


def _id_streams(references, n_hypotheses: int | None, pad_id, ops) -> list[tuple]:
    """Reference streams of token ids, checked like text streams."""
    if isinstance(references, np.ndarray) or is_tensor(references):
        if references.ndim == 2:
            raise BleuInputError(
                "references must be a list of reference streams (or a 3-D array: streams x segments x positions); "
                "for one reference per segment pass [references]"
            )
        references = list(references)
    if not _is_sequence(references) or len(references) == 0:
        raise BleuInputError("references must be a non-empty list of reference streams of token ids")
    if not all(isinstance(stream, np.ndarray) or is_tensor(stream) or _is_sequence(stream) for stream in references) \
            or any(_is_sequence(stream) and not _ids_or_missing(stream) for stream in references):
        raise BleuInputError(
            "references must be a list of reference streams, each a 2-D array or a list of id sequences; "
            "for one reference per segment pass [references]"
        )
    rows = [id_rows(stream, pad_id, ops, f"reference stream {number}") for number, stream in enumerate(references, 1)]
    n_hypotheses = len(rows[0][1]) if n_hypotheses is None else n_hypotheses
    for number, (_, lengths, _) in enumerate(rows, 1):
        if len(lengths) != n_hypotheses:
            raise LengthMismatchError(
                f"{n_hypotheses} hypotheses but reference stream {number} has {len(lengths)} segments; "
                "every reference stream needs one sequence per hypothesis"
            )
    missing = ~np.stack([present for _, _, present in rows]).any(axis=0)
    if missing.any():
        raise BleuInputError(f"segment {int(np.argmax(missing))} has no reference: every reference stream has None there")
    return rows


class BLEU:
    """BLEU with fixed options; give ``references`` once to score many systems against them.

    Text is tokenized (``tokenize``, ``lowercase``); token ids (2-D integer arrays or tensors,
    every ``pad_id`` dropped, or lists of int sequences) are counted as they are.

    >>> metric = BLEU([["the cat sat on the mat"]])
    >>> round(metric.corpus_score(["the cat sat on a mat"]).score, 2)
    53.73
    """

    name = "BLEU"
    higher_is_better = True

    def __init__(
        self,
        references=None,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth: str = "exp",
        smooth_value: float | None = None,
        max_order: int = 4,
        weights: Sequence[float] | None = None,
        effective_order: bool = False,
        pad_id: int | None = None,
    ):
        self.scoring = Scoring(
            smooth, smooth_value, effective_order, max_order, None if weights is None else tuple(weights)
        )
        self.tokenizer = tokenizers.get(tokenize)
        self.lowercase = lowercase
        self.pad_id = pad_id
        self._references = None if references is None else self.prepare(references)

    def tokenize(self, lines: list[str]) -> list[list[str]]:
        """Each line's tokens: lowercased (if asked) and tokenized."""
        return split_lines(lines, self.tokenizer, self.lowercase).tokens()

    def keys(self, lines: list[str]) -> TokenKeys:
        """The lines' tokens as keys, the form ``PreparedReferences.stats`` takes (a line that
        repeats is tokenized once)."""
        distinct, rows = distinct_lines(lines)
        return TokenKeys.of(split_lines(distinct, self.tokenizer, self.lowercase), rows)

    def prepare(self, references, n_hypotheses: int | None = None, ops=None) -> PreparedReferences:
        """Tokenize (text) or read (token ids) and count reference streams; ``None`` marks a missing line."""
        order = self.scoring.stats_order
        if not _holds_ids(references):
            present = check_references(references, n_hypotheses)
            lines = list(chain.from_iterable(references))
            if not present.all():
                lines = [line or "" for line in lines]
            tokens = self.keys(lines)
            return PreparedReferences.from_keys(tokens, present, order)
        self._check_ids_options()
        ops = ops or _ops_for(references)
        return PreparedReferences.from_ids(_id_streams(references, n_hypotheses, self.pad_id, ops), order, ops)

    def _check_ids_options(self) -> None:
        if self.lowercase or self.tokenizer.name not in ("13a", "none"):
            raise BleuInputError("token ids are already tokenized: leave tokenize and lowercase unset")

    def _resolve(self, hypotheses, references) -> tuple[PreparedReferences, object]:
        """The prepared references and the hypotheses in the form their ``stats`` takes."""
        ids = is_token_ids(hypotheses)
        if ids:
            self._check_ids_options()
            if len(hypotheses) == 0:
                raise BleuInputError("no hypotheses to score")
            if getattr(hypotheses, "ndim", 2) != 2:
                raise BleuInputError(
                    f"hypotheses must be a 2-D array of token ids (segments x positions), got {hypotheses.ndim}-D"
                )
        else:
            check_hypotheses(hypotheses)
        ops = _ops_for(hypotheses, references) if ids else None
        prepared = references_for(len(hypotheses), references, self._references,
                                  lambda refs, n: self.prepare(refs, n, ops))
        if ids != (prepared.kind == "ids"):
            raise BleuInputError("hypotheses and references must both be text or both be token ids")
        if not ids:
            return prepared, self.keys(list(hypotheses))
        flat, lengths, present = id_rows(hypotheses, self.pad_id, prepared.ops, "hypotheses")
        if not present.all():
            raise BleuInputError(f"hypothesis {int(np.argmin(present))} is None, expected token ids")
        return prepared, (flat, lengths)

    def stats(self, hypotheses, references=None) -> Stats:
        """Per-segment sufficient statistics."""
        prepared, encoded = self._resolve(hypotheses, references)
        return prepared.stats(encoded)

    def signature(self, nrefs: int | str, kind: str = "text") -> Signature:
        tokenizer = "ids" if kind == "ids" else self.tokenizer.name
        return Signature.for_bleu(nrefs, self.lowercase, tokenizer, self.scoring)

    def score_stats(self, stats: Stats, nrefs: int | str = 1, kind: str = "text") -> BLEUScore:
        """The corpus score of already computed statistics."""
        rows = corpus_rows(stats, self.scoring)
        order = self.scoring.max_order
        return BLEUScore(
            score=float(rows.scores[0]),
            counts=stats.matches[:, :order].sum(axis=0).tolist(),
            totals=stats.totals[:, :order].sum(axis=0).tolist(),
            precisions=rows.precisions[0].tolist(),
            bp=float(rows.bp[0]),
            sys_len=int(stats.hyp_len.sum()),
            ref_len=int(stats.ref_len.sum()),
            signature=self.signature(nrefs, kind),
        )

    def corpus_score(self, hypotheses, references=None) -> BLEUScore:
        """Corpus BLEU: the formula over statistics summed across segments."""
        prepared, encoded = self._resolve(hypotheses, references)
        return self.score_stats(prepared.stats(encoded), prepared.nrefs, prepared.kind)

    def segment_statistics(self, hypotheses) -> np.ndarray:
        """Per-segment statistics as a matrix in sacrebleu's layout (``Stats.to_matrix``), against
        the references given at creation: the form significance tests resample."""
        return self.stats(hypotheses).to_matrix()

    def systems_statistics(self, systems: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """``segment_statistics`` of each system, tokenized and counted together (a line that
        several systems share is tokenized once; the references are sorted once)."""
        if not _is_sequence(systems) or len(systems) == 0:
            raise BleuInputError("systems must be a non-empty list of systems, each a list of hypotheses")
        for hypotheses in systems:
            check_hypotheses(hypotheses)
        n_segments = len(systems[0])
        prepared = references_for(n_segments, None, self._references, None)
        if prepared.kind != "text":
            raise BleuInputError("references of token ids: score each system with segment_statistics")
        for number, hypotheses in enumerate(systems[1:], 2):
            if len(hypotheses) != n_segments:
                raise LengthMismatchError(f"system 1 has {n_segments} segments but system {number} has {len(hypotheses)}")
        tokens = self.keys(list(chain.from_iterable(systems)))
        return [stats.to_matrix() for stats in prepared.stats_of(tokens, len(systems))]

    def scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics matrices (float32 sums: sacrebleu's resampling arithmetic)."""
        return score_sums(sums, self.scoring)

    def score_statistics(self, statistics: np.ndarray) -> BLEUScore:
        """The corpus score of a statistics matrix from ``segment_statistics``."""
        prepared = self._references
        nrefs, kind = (prepared.nrefs, prepared.kind) if prepared is not None else (1, "text")
        return self.score_stats(Stats.from_matrix(statistics), nrefs, kind)

    def score_segments(self, stats: Stats, nrefs: int | str = 1, kind: str = "text") -> SentenceScores:
        """Every segment's own score, from already computed statistics."""
        rows = segment_rows(stats, self.scoring)
        return SentenceScores(rows.scores, rows.precisions, rows.bp, stats, self.signature(nrefs, kind),
                              self.scoring.max_order)

    def sentence_scores(self, hypotheses, references=None) -> SentenceScores:
        """Every segment's own BLEU, in one vectorised pass (a torch tensor of scores for tensor input)."""
        prepared, encoded = self._resolve(hypotheses, references)
        result = self.score_segments(prepared.stats(encoded), prepared.nrefs, prepared.kind)
        if prepared.ops is not NUMPY:
            scores = prepared.ops.torch.as_tensor(result.scores, device=prepared.ops.device)
            result = dataclasses.replace(result, scores=scores)
        return result


def _holds_ids(references) -> bool:
    """Reference streams of token ids (a 3-D array, or streams that are arrays or lists of id sequences)."""
    if isinstance(references, np.ndarray) or is_tensor(references):
        return True
    if not _is_sequence(references):
        return False
    return any(is_token_ids(stream) for stream in references)
