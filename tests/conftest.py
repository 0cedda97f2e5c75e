"""Shared test configuration. The tests mirror the packages of ``src/mtscore`` (``tests/metrics/bleu``
tests ``metrics/bleu``, ...); helpers shared by several folders are in ``helpers.py`` (importable
from every folder: ``pythonpath`` in pyproject.toml), and the WMT22 data is reached only through
``shared_data.py``.

Every Hypothesis test runs under one reproducible profile: derandomized, no example database, no
deadline (a shared 2-core machine makes timings unreliable); the fast suite runs fewer examples.
"""

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "mtscore",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("mtscore-fast", settings.get_profile("mtscore"), max_examples=20)
settings.load_profile("mtscore")

FAST_EXAMPLES_DIVISOR = 5


def pytest_configure(config):
    """The fast suite (``-m`` leaving out ``slow``) runs a fifth of every Hypothesis test's examples;
    the whole suite, as CI and the README run it, runs them all."""
    import helpers

    if "not slow" in (config.getoption("markexpr") or ""):
        helpers.EXAMPLES_DIVISOR = FAST_EXAMPLES_DIVISOR
        settings.load_profile("mtscore-fast")


# Markers by what a test needs, so that `pytest -m "not slow and not data ..."` runs a fast suite:
# the folder or module name says it for the engines and the browser; a module that reads the shared
# data through ``shared_data`` is ``data``; ``slow`` is set on the tests themselves.
MODULE_MARKERS = {"test_report_browser": "browser", "test_ray": "ray", "test_dask": "dask"}


def _reads_shared_data(module) -> bool:
    return any(getattr(value, "__module__", None) == "shared_data" for value in vars(module).values())


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        name = item.module.__name__.rpartition(".")[2] if item.module else ""
        for prefix, marker in MODULE_MARKERS.items():
            if name.startswith(prefix):
                item.add_marker(getattr(pytest.mark, marker))
        if item.module is not None and _reads_shared_data(item.module):
            item.add_marker(pytest.mark.data)


# Debian's Chromium, which the browser tests drive through Playwright.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium launched by Playwright for a module's browser tests: skipped without Chromium or
    Playwright, and failed instead when ``CI`` is set (CI installs both)."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright is not installed (pip install '.[test]')"
    if CHROMIUM is None:
        missing = "Chromium is not installed (Debian: apt-get install chromium)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{missing}, and CI is set", pytrace=False)
        pytest.skip(missing)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()
