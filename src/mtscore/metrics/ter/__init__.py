"""TER (Snover et al., 2006), exact to sacrebleu 2.6.0: tercom's normalisation
(``tokenizers.tercom``), beam edit distance (``beam``) and greedy shifts (``align``).
May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import TER, TERScore, corpus_ter, sentence_ter, sentence_ters

__all__ = ["TER", "TERScore", "corpus_ter", "sentence_ter", "sentence_ters"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
