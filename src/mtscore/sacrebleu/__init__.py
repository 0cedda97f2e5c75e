"""A drop-in for sacrebleu's scoring API: its functions, metric classes, significance tests and
tokenizers, with its keyword names, on mtscore's metrics.

Switch by changing the import::

    import mtscore.sacrebleu as sacrebleu
    from mtscore.sacrebleu.metrics import BLEU, CHRF, TER
    from mtscore.sacrebleu.significance import PairedTest, Result
    from mtscore.sacrebleu.tokenizers import Tokenizer13a

``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter`` and ``sentence_ter`` take sacrebleu 2.6's arguments and defaults; ``BLEU``, ``CHRF``
and ``TER`` (``metrics``) take its keywords (``smooth_method``, ``max_ngram_order``, ``trg_lang``,
``references=`` ...) and have its methods (``corpus_score(..., n_bootstrap=)``, ``sentence_score``,
``get_signature``, ``BLEU.compute_bleu``); ``significance.PairedTest`` returns sacrebleu's
signatures and ``Result`` lists; ``tokenizers`` has its tokenizer classes by their names. Results
have sacrebleu's fields and ``format()``; the scores are sacrebleu's. ``force`` does nothing
(mtscore does not warn about tokenized input), and with add-k smoothing a result's ``counts`` and
``totals`` are the raw integers where sacrebleu's have k added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .metrics import BLEU, CHRF, TER

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
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
