"""sacrebleu's metric classes (``sacrebleu.metrics``) with its keyword names, defaults and methods,
on mtscore's BLEU, chrF and TER; its submodules ``bleu``, ``chrf``, ``ter``, ``base`` and
``helpers`` are here under the same names."""

from __future__ import annotations

from .bleu import BLEU, BLEUScore
from .chrf import CHRF, CHRFScore
from .ter import TER, TERScore

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
