"""A drop-in for sacrebleu's scoring API: its functions, metric classes and keyword names, on mtscore's metrics.

Switch by changing the import::

    import mtscore.sacrebleu as sacrebleu

``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter`` and ``sentence_ter`` take sacrebleu 2.6's arguments and defaults; ``BLEU``, ``CHRF``
and ``TER`` take its keywords (``smooth_method``, ``max_ngram_order``, ``trg_lang``, ``references=``
...) and have its methods (``corpus_score(..., n_bootstrap=)``, ``sentence_score``,
``get_signature``). Results have sacrebleu's fields and ``format()``; the scores are sacrebleu's.
``force`` does nothing (mtscore does not warn about tokenized input), and with add-k smoothing a
result's ``counts`` and ``totals`` are the raw integers where sacrebleu's have k added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .core.signature import Signature
from .metrics.bleu.metric import BLEU as _BLEU
from .metrics.chrf.metric import CHRF as _CHRF
from .metrics.ter.metric import TER as _TER

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

# sacrebleu's default tokenizer per target language (``trg_lang``); 13a for any other.
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


class _Sacrebleu:
    """What sacrebleu's metric classes add over ours: ``n_bootstrap`` and ``get_signature``."""

    def corpus_score(self, hypotheses: Sequence[str], references: Any = None, n_bootstrap: int = 1) -> Any:
        """The corpus score; with ``n_bootstrap`` > 1, also its bootstrap mean and 95% interval."""
        score = super().corpus_score(hypotheses, references)  # type: ignore[misc]
        if n_bootstrap <= 1:
            return score
        from .report.confidence import with_confidence

        statistics = self.segment_statistics(hypotheses, references)  # type: ignore[attr-defined]
        return with_confidence(self, score, statistics, n_bootstrap, None)  # type: ignore[arg-type]

    def get_signature(self) -> Signature:
        """The reproducibility signature (sacrebleu's name for ``signature()``)."""
        return self.signature()  # type: ignore[attr-defined]


class BLEU(_Sacrebleu, _BLEU):
    """sacrebleu's ``BLEU``: its keyword names and defaults, mtscore's engine."""

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Any = None,
    ):
        tokenize = tokenize or _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")
        super().__init__(
            references,
            tokenize=tokenize,
            lowercase=lowercase,
            smooth=smooth_method,
            smooth_value=smooth_value,
            max_order=max_ngram_order,
            effective_order=effective_order,
        )


class CHRF(_Sacrebleu, _CHRF):
    """sacrebleu's ``CHRF`` (``word_order=2``: chrF++)."""

    def __init__(
        self,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Any = None,
    ):
        super().__init__(
            references,
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
            eps_smoothing=eps_smoothing,
        )


class TER(_Sacrebleu, _TER):
    """sacrebleu's ``TER``."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Any = None,
    ):
        super().__init__(
            references,
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        )


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
