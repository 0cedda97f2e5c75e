"""NIST (Doddington 2002), exact to Moses mteval-v13a.pl, and NLTK 3.10's ``corpus_nist`` as a variant.

N-grams of the whole corpus are numbered and counted at once (``counting``, ``references``); the
exact scores of bootstrap resamples, whose information weights differ, come from the matches per
n-gram (``resampling``). May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import NIST, NISTScore, corpus_nist, sentence_nist, sentence_nists

__all__ = ["NIST", "NISTScore", "corpus_nist", "sentence_nist", "sentence_nists"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
