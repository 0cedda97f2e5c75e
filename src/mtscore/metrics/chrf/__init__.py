"""chrF (Popović 2015) and chrF++ (Popović 2017), exact to sacrebleu 2.6.0.

Character (and word) n-grams of every segment counted at once (``ngrams``, over ``symbols``),
the F-beta formula in ``formula``. May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import CHRF, CHRFScore, corpus_chrf, sentence_chrf, sentence_chrfs

__all__ = ["CHRF", "CHRFScore", "corpus_chrf", "sentence_chrf", "sentence_chrfs"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
