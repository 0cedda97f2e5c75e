"""Shared test configuration. The tests mirror the packages of ``src/mtscore`` (``tests/metrics/bleu``
tests ``metrics/bleu``, ...); helpers shared by several folders are in ``helpers.py`` (importable
from every folder: ``pythonpath`` in pyproject.toml), and the WMT22 data is reached only through
``shared_data.py``.

Every Hypothesis test runs under one reproducible profile: derandomized, no example database, no
deadline (a shared 2-core machine makes timings unreliable).
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mtscore",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("mtscore")
