"""Google-BLEU (Wu et al., 2016; GNMT's "GLEU"), exact to NLTK's ``corpus_gleu`` and ``sentence_gleu``
and to Hugging Face evaluate's ``google_bleu``: n-grams counted per reference stream (``references``)
on the BLEU engine, each segment's best reference chosen exactly. Not the GLEU of grammatical error
correction (Napoles et al., 2015). May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import GoogleBLEU, GoogleBLEUScore, corpus_google_bleu, sentence_google_bleu, sentence_google_bleus

__all__ = ["GoogleBLEU", "GoogleBLEUScore", "corpus_google_bleu", "sentence_google_bleu", "sentence_google_bleus"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
