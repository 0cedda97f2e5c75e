"""Fixtures of the metric tests: the test plugin, a metric of another package, installed and registered."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtscore.metrics import METRICS


def plugin_source() -> str:
    """The plugin's module as docs/plugins.md shows it (its first Python block): the page's code is what runs here."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text(encoding="utf-8")
    return page.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.fixture(scope="session")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding an installed distribution ``mtscore-exact`` with its entry point."""
    root = tmp_path_factory.mktemp("plugin")
    (root / "mtscore_exact.py").write_text(plugin_source(), encoding="utf-8")
    info = root / "mtscore_exact-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mtscore-exact\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[mtscore.metrics]\nexact = mtscore_exact:ExactMatch\n", encoding="utf-8")
    return root


@pytest.fixture
def registered(plugin_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The plugin on this process's ``sys.path``, the registry read again (and again afterwards)."""
    monkeypatch.syspath_prepend(str(plugin_path))
    METRICS.refresh()
    yield
    monkeypatch.undo()
    METRICS.refresh()
