"""Paired significance tests (``paired``) and bootstrap confidence intervals (``resampling``) on
per-segment statistics, with their result types (``results``). May import ``metrics``, ``core``
and below; never ``report`` or ``cli``.
"""

from .paired import paired_test, paired_test_statistics
from .resampling import bootstrap_confidence, resolve_seed
from .results import Comparison, PairedTestResult, SystemResult

__all__ = [
    "Comparison",
    "PairedTestResult",
    "SystemResult",
    "bootstrap_confidence",
    "paired_test",
    "paired_test_statistics",
    "resolve_seed",
]
