"""Corpus BLEU on text, one stage at a time: the internal surface the benchmark harness times.

``benchmarks/stages.py`` times each stage through these functions, and this module is the only
part of the library besides the public API that ``benchmarks/`` imports. Each stage's output
feeds the next; together they do what ``BLEU.corpus_score`` does on text with one reference
stream (``BLEU.keys``, ``BLEU.prepare``, ``PreparedReferences.statistics``):

    read -> distinct -> tokenize -> keys -> references -> encode -> count -> stats -> score

Not public API: the stages and their signatures may change between versions, along with the
harness. Use ``mtscore.corpus_bleu`` or ``mtscore.BLEU`` to score.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from ...engine.keys import TokenKeys, distinct_lines
from ...files.read import read_lines
from ...tokenizers.lines import Split, split_lines
from .references import PreparedReferences
from .stats import Stats

if TYPE_CHECKING:
    from .metric import BLEU
    from .result import BLEUScore

__all__ = ["count", "distinct", "encode", "keys", "read", "references", "score", "stats", "tokenize"]


def read(path: str | os.PathLike) -> list[str]:
    """A file's segments, read as the command line reads them (gzip, ``-`` for standard input)."""
    return read_lines(path)


def distinct(lines: list[str]) -> tuple[list[str], np.ndarray | None]:
    """The distinct lines and each line's index among them (``(lines, None)`` when few repeat):
    a line that repeats is tokenized once."""
    return distinct_lines(lines)


def tokenize(metric: BLEU, lines: list[str]) -> Split:
    """The lines' tokens under the metric's tokenizer and case, as spans over their UTF-8 bytes."""
    return split_lines(lines, metric.tokenizer, metric.lowercase)


def keys(split: Split, rows: np.ndarray | None = None) -> TokenKeys:
    """One 64-bit key per token; ``rows`` (from ``distinct``) maps every line to its distinct line."""
    return TokenKeys.of(split, rows)


def references(metric: BLEU, tokens: TokenKeys, present: np.ndarray | None = None) -> PreparedReferences:
    """The references' vocabulary, ids and n-gram tables from their keys; ``present`` (streams x
    segments) says which references are there (``None``: one stream, every reference there)."""
    if present is None:
        present = np.ones((1, len(tokens.line_lengths())), dtype=bool)
    return PreparedReferences.from_keys(tokens, present, metric.scoring.stats_order)


def encode(prepared: PreparedReferences, tokens: TokenKeys) -> tuple[np.ndarray, np.ndarray]:
    """The hypotheses' token ids in the references' vocabulary, and tokens per hypothesis."""
    return prepared.vocabulary.encode(tokens)


def count(prepared: PreparedReferences, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Clipped n-gram matches per hypothesis and order."""
    return prepared.ngrams.matches(ids, lengths)


def stats(prepared: PreparedReferences, matches: np.ndarray, lengths: np.ndarray) -> Stats:
    """The per-segment statistics: matches, n-gram totals, hypothesis and closest reference lengths."""
    return prepared.statistics_from(matches, lengths)


def score(metric: BLEU, statistics: Stats, prepared: PreparedReferences) -> BLEUScore:
    """The corpus score of the statistics."""
    return metric.score_statistics(statistics, prepared.nrefs)
