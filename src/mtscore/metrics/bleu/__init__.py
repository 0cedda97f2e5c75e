"""BLEU (Papineni et al., 2002), exact to sacrebleu 2.6.0, with NLTK's smoothing methods.

tokenize -> keys (``engine.keys``) -> clipped n-gram counts (``engine.ngrams``) -> ``Stats`` ->
the formula (``formula``, NLTK's in ``chen_cherry``) -> ``BLEUScore``. May import ``core``,
``engine``, ``tokenizers`` and ``files``; nothing above ``metrics``.

``stages`` runs that pipeline one stage at a time: the internal surface the benchmark harness
times (not public API; it may change between versions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .functional import (
        corpus_bleu,
        explain,
        sentence_bleu,
        sentence_bleus,
        sentence_scores,
        tokenize,
    )
    from .metric import BLEU
    from .result import BLEUScore, SentenceScores
    from .stats import Stats

__all__ = [
    "BLEU",
    "BLEUScore",
    "SentenceScores",
    "Stats",
    "corpus_bleu",
    "explain",
    "sentence_bleu",
    "sentence_bleus",
    "sentence_scores",
    "tokenize",
]
__getattr__ = lazy_attributes(
    __name__,
    {
        **dict.fromkeys(
            ["corpus_bleu", "explain", "sentence_bleu", "sentence_bleus", "sentence_scores", "tokenize"], "functional"
        ),
        "BLEU": "metric",
        "BLEUScore": "result",
        "SentenceScores": "result",
        "Stats": "stats",
    },
)
