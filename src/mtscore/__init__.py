"""BLEU (Papineni et al., 2002) and the metrics beside it, exact to their reference tools, on a vectorised engine.

Public API: ``corpus_bleu``, ``sentence_bleu``, ``sentence_scores`` (every segment at once),
``explain`` (the paper's tables for a segment), ``tokenize``, the ``BLEU`` metric (references
prepared once), ``Stats`` (sufficient statistics), ``BLEUScore`` and ``SentenceScores``; chrF
(``corpus_chrf``, ``sentence_chrf``, ``sentence_chrfs``, ``CHRF``), TER (``corpus_ter``,
``sentence_ter``, ``sentence_ters``, ``TER``), Google-BLEU (``corpus_google_bleu``,
``sentence_google_bleu``, ``sentence_google_bleus``, ``GoogleBLEU``), WER and CER exact to jiwer
(``corpus_wer``, ``sentence_wer``, ``sentence_wers``, ``WER``; ``corpus_cer``, ``sentence_cer``,
``sentence_cers``, ``CER``), METEOR exact to NLTK (``corpus_meteor``, ``sentence_meteor``,
``sentence_meteors``, ``METEOR``), NIST exact to mteval-v13a (``corpus_nist``, ``sentence_nist``,
``sentence_nists``, ``NIST``) and ``paired_test`` (significance). ``mtscore.nltk`` is a drop-in
for NLTK's ``bleu_score``.

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
    from .metrics.cer import CER, corpus_cer, sentence_cer, sentence_cers
    from .metrics.chrf import CHRF, corpus_chrf, sentence_chrf, sentence_chrfs
    from .metrics.google_bleu import GoogleBLEU, corpus_google_bleu, sentence_google_bleu, sentence_google_bleus
    from .metrics.meteor import METEOR, corpus_meteor, sentence_meteor, sentence_meteors
    from .metrics.nist import NIST, corpus_nist, sentence_nist, sentence_nists
    from .metrics.ter import TER, corpus_ter, sentence_ter, sentence_ters
    from .metrics.wer import WER, corpus_wer, sentence_wer, sentence_wers
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
    **dict.fromkeys(
        ["GoogleBLEU", "corpus_google_bleu", "sentence_google_bleu", "sentence_google_bleus"], "metrics.google_bleu"
    ),
    **dict.fromkeys(["WER", "corpus_wer", "sentence_wer", "sentence_wers"], "metrics.wer"),
    **dict.fromkeys(["CER", "corpus_cer", "sentence_cer", "sentence_cers"], "metrics.cer"),
    **dict.fromkeys(["METEOR", "corpus_meteor", "sentence_meteor", "sentence_meteors"], "metrics.meteor"),
    "Signature": "core.signature",
    "paired_test": "significance",
    "__version__": "version",
}
__getattr__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "BLEU",
    "CER",
    "CHRF",
    "METEOR",
    "NIST",
    "TER",
    "WER",
    "BLEUScore",
    "BleuInputError",
    "GoogleBLEU",
    "LengthMismatchError",
    "SentenceScores",
    "Signature",
    "Stats",
    "__version__",
    "corpus_bleu",
    "corpus_cer",
    "corpus_chrf",
    "corpus_google_bleu",
    "corpus_meteor",
    "corpus_nist",
    "corpus_ter",
    "corpus_wer",
    "explain",
    "paired_test",
    "sentence_bleu",
    "sentence_cer",
    "sentence_cers",
    "sentence_chrf",
    "sentence_chrfs",
    "sentence_google_bleu",
    "sentence_google_bleus",
    "sentence_meteor",
    "sentence_meteors",
    "sentence_nist",
    "sentence_nists",
    "sentence_scores",
    "sentence_ter",
    "sentence_ters",
    "sentence_wer",
    "sentence_wers",
    "tokenize",
]
