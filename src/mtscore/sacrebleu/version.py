"""The version of sacrebleu that ``mtscore.sacrebleu`` is a drop-in for: ``__version__`` is
sacrebleu's ``"2.6.0"``, not mtscore's.

Scripts read ``sacrebleu.__version__`` to choose an API (``packaging.version.parse(sacrebleu.__version__)
>= Version("2.0")`` selects the metric classes over 1.x's functions) or to record which sacrebleu
scored; the answer that keeps both right is the sacrebleu whose API, defaults and scores this
drop-in reproduces. Which tool computed a score is not lost: the metrics' signatures end in
``version:mtscore-X.Y.Z``, and mtscore's own version is ``mtscore.__version__``.
"""

from __future__ import annotations

__version__ = "2.6.0"
