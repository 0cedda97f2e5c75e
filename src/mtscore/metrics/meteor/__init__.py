"""METEOR (Banerjee & Lavie 2005; Lavie & Agarwal 2007) exactly as NLTK 3.10's ``meteor_score``:
exact, Porter-stem (``porter``) and WordNet-synonym (``wordnet``) matching, aligned for a whole
corpus at once (``align``). May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import METEOR, METEORScore, corpus_meteor, sentence_meteor, sentence_meteors

__all__ = ["METEOR", "METEORScore", "corpus_meteor", "sentence_meteor", "sentence_meteors"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
