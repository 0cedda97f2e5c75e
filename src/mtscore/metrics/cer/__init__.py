"""CER, exact to jiwer 4.0's ``cer``: the WER machinery (``metrics.wer``) over characters.
May import ``core``, ``engine``, ``tokenizers``, ``files`` and ``metrics.wer``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_attributes

if TYPE_CHECKING:
    from .metric import CER, CERScore, corpus_cer, sentence_cer, sentence_cers

__all__ = ["CER", "CERScore", "corpus_cer", "sentence_cer", "sentence_cers"]
__getattr__ = lazy_attributes(__name__, dict.fromkeys(__all__, "metric"))
