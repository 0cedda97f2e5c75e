"""Scores computed by another tool (COMET, BLEURT, MetricX, an LLM judge) or by people (MQM, DA),
made a metric that the rest of mtscore takes: each segment's score is read from a file, the corpus
score is their mean (as COMET's is), so ``--confidence``, the paired tests and ``mtscore report``
work for them as for BLEU.

``read_segment_scores`` reads mt-metrics-eval's ``.seg.score`` files and plain TSV files of system,
segment and score (``files``); ``ExternalScores`` is the metric (``metric``), told which system each
output is with ``name_systems``. May import ``core``, ``files`` and the leaf modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_attributes

if TYPE_CHECKING:
    from .files import read_segment_scores
    from .metric import ExternalScore, ExternalScores, name_systems

__all__ = ["ExternalScore", "ExternalScores", "name_systems", "read_segment_scores"]
__getattr__ = lazy_attributes(__name__, {"read_segment_scores": "files"} | dict.fromkeys(__all__[:3], "metric"))
