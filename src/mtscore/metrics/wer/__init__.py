"""WER, MER, WIL and WIP, exact to jiwer 4.0: jiwer's transformations (``transforms``) and
rapidfuzz's Levenshtein alignment of every segment at once (``align``, shared with ``metrics.cer``).
May import ``core``, ``engine``, ``tokenizers`` and ``files``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import WER, WERScore, corpus_wer, sentence_wer, sentence_wers

__all__ = ["WER", "WERScore", "corpus_wer", "sentence_wer", "sentence_wers"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
