"""sacrebleu's functional API (``sacrebleu.compat``, also at the package's top level): one call
that builds the metric with sacrebleu's arguments and defaults and scores a corpus or a sentence.

A call keeps the metric it made for the next call with the same options in the same thread
(``core.functional.kept_scorer``), as mtscore's own functions do: a loop of one-sentence calls does
not build its metric again. Each call's result, signature included, is a new metric's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.functional import kept_scorer
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
    options = _bleu_options(lowercase, force, tokenize, smooth_method, smooth_value, use_effective_order)
    return _corpus_bleu(options, hypotheses, references)


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
    options = _bleu_options(lowercase, False, tokenize, smooth_method, smooth_value, use_effective_order)
    return _sentence_bleu(options, hypothesis, references)


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
    options = _chrf_options(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return _corpus_chrf(options, hypotheses, references)


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
    options = _chrf_options(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return _sentence_chrf(options, hypothesis, references)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> Any:
    """sacrebleu's ``corpus_ter``."""
    return _corpus_ter(_ter_options(normalized, no_punct, asian_support, case_sensitive), hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> Any:
    """sacrebleu's ``sentence_ter``."""
    return _sentence_ter(_ter_options(normalized, no_punct, asian_support, case_sensitive), hypothesis, references)


def _bleu_options(
    lowercase: Any, force: Any, tokenize: Any, smooth_method: Any, smooth_value: Any, effective_order: Any
) -> dict[str, Any]:
    """The drop-in ``BLEU``'s keywords of a functional call."""
    return {
        "lowercase": lowercase,
        "force": force,
        "tokenize": tokenize,
        "smooth_method": smooth_method,
        "smooth_value": smooth_value,
        "effective_order": effective_order,
    }


def _chrf_options(
    char_order: Any, word_order: Any, beta: Any, remove_whitespace: Any, eps_smoothing: Any
) -> dict[str, Any]:
    """The drop-in ``CHRF``'s keywords of a functional call."""
    return {
        "char_order": char_order,
        "word_order": word_order,
        "beta": beta,
        "whitespace": not remove_whitespace,
        "eps_smoothing": eps_smoothing,
    }


def _ter_options(normalized: Any, no_punct: Any, asian_support: Any, case_sensitive: Any) -> dict[str, Any]:
    """The drop-in ``TER``'s keywords of a functional call."""
    return {
        "normalized": normalized,
        "no_punct": no_punct,
        "asian_support": asian_support,
        "case_sensitive": case_sensitive,
    }


def _corpus(metric: Any, hypotheses: Any, references: Any) -> Any:
    return metric.corpus_score(hypotheses, references)


def _sentence(metric: Any, hypothesis: Any, references: Any) -> Any:
    return metric.sentence_score(hypothesis, references)


_corpus_bleu, _sentence_bleu = kept_scorer(BLEU, _corpus), kept_scorer(BLEU, _sentence)
_corpus_chrf, _sentence_chrf = kept_scorer(CHRF, _corpus), kept_scorer(CHRF, _sentence)
_corpus_ter, _sentence_ter = kept_scorer(TER, _corpus), kept_scorer(TER, _sentence)
