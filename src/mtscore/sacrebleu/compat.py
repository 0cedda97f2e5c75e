"""sacrebleu's functional API (``sacrebleu.compat``, also at the package's top level): one call
that builds the metric with sacrebleu's arguments and defaults and scores a corpus or a sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .metrics import BLEU, CHRF, TER

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
) -> Any:
    """sacrebleu's ``corpus_bleu``."""
    metric = BLEU(lowercase, force, tokenize, smooth_method, smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], smooth_value: float | None = 0.1
) -> Any:
    """sacrebleu's ``raw_corpus_bleu``: no tokenization, floor smoothing, effective order."""
    return corpus_bleu(hypotheses, references, "floor", smooth_value, True, tokenize="none", use_effective_order=True)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
) -> Any:
    """sacrebleu's ``sentence_bleu`` (effective order on by default, as there)."""
    metric = BLEU(lowercase, False, tokenize, smooth_method, smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> Any:
    """sacrebleu's ``corpus_chrf``."""
    metric = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> Any:
    """sacrebleu's ``sentence_chrf``."""
    metric = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> Any:
    """sacrebleu's ``corpus_ter``."""
    return TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> Any:
    """sacrebleu's ``sentence_ter``."""
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(hypothesis, references)
