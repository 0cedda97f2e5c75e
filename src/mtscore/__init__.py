"""BLEU (Papineni et al., 2002), chrF and TER, exact to sacrebleu, on a vectorised engine.

Public API: ``corpus_bleu``, ``sentence_bleu``, ``sentence_scores`` (every segment at once),
``explain`` (the paper's tables for a segment), ``tokenize``, the ``BLEU`` metric (references
prepared once), ``Stats`` (sufficient statistics), ``BLEUScore`` and ``SentenceScores``; chrF
(``corpus_chrf``, ``sentence_chrf``, ``sentence_chrfs``, ``CHRF``), TER (``corpus_ter``,
``sentence_ter``, ``sentence_ters``, ``TER``), NIST (``corpus_nist``, ``sentence_nist``,
``sentence_nists``, ``NIST``) and ``paired_test`` (significance). ``mtscore.nltk``
is a drop-in for NLTK's ``bleu_score``.

Everything but the errors is imported on first use (the version too: it is read from the
installed metadata), so that ``import bleu`` and
the command line start without loading NumPy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import BleuInputError, LengthMismatchError
from .lazy import lazy_attributes

if TYPE_CHECKING:
    from .core.signature import Signature
    from .metrics.bleu import (
        BLEU,
        BLEUScore,
        SentenceScores,
        Stats,
        corpus_bleu,
        explain,
        sentence_bleu,
        sentence_scores,
        tokenize,
    )
    from .metrics.chrf import CHRF, corpus_chrf, sentence_chrf, sentence_chrfs
    from .metrics.nist import NIST, corpus_nist, sentence_nist, sentence_nists
    from .metrics.ter import TER, corpus_ter, sentence_ter, sentence_ters
    from .significance import paired_test
    from .version import __version__

# Public name -> the module that defines it.
_LAZY = {
    **dict.fromkeys(
        [
            "BLEU",
            "BLEUScore",
            "SentenceScores",
            "Stats",
            "corpus_bleu",
            "explain",
            "sentence_bleu",
            "sentence_scores",
            "tokenize",
        ],
        "metrics.bleu",
    ),
    **dict.fromkeys(["CHRF", "corpus_chrf", "sentence_chrf", "sentence_chrfs"], "metrics.chrf"),
    **dict.fromkeys(["NIST", "corpus_nist", "sentence_nist", "sentence_nists"], "metrics.nist"),
    **dict.fromkeys(["TER", "corpus_ter", "sentence_ter", "sentence_ters"], "metrics.ter"),
    "Signature": "core.signature",
    "paired_test": "significance",
    "__version__": "version",
}
__getattr__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "BLEU",
    "CHRF",
    "NIST",
    "TER",
    "BLEUScore",
    "BleuInputError",
    "LengthMismatchError",
    "SentenceScores",
    "Signature",
    "Stats",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_nist",
    "corpus_ter",
    "explain",
    "paired_test",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_chrfs",
    "sentence_nist",
    "sentence_nists",
    "sentence_scores",
    "sentence_ter",
    "sentence_ters",
    "tokenize",
]
