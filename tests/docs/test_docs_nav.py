"""The docs' metric pages are listed from the registry: every built-in metric has its guide and API
page in the nav and a row in the API index, and a metric without its pages stops the build."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest
import yaml

import mtscore
from mtscore.metrics import BUILTIN, METRICS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hooks():
    """docs/hooks.py, the mkdocs hook module, loaded as the build loads it."""
    spec = importlib.util.spec_from_file_location("mtscore_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nav() -> list:
    """mkdocs.yml's nav as written (the file's other tags are not needed here)."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]


def _pages(nav: list) -> list[str]:
    found: list[str] = []
    for entry in nav:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            found.extend(_pages(value) if isinstance(value, list) else [value])
    return found


def test_every_builtin_metric_is_documented_on_a_guide_and_an_api_page(hooks):
    documented = [name for names in hooks.metric_pages().values() for name in names]
    assert sorted(documented) == sorted(BUILTIN)
    pages = _pages(hooks.metrics_nav(_nav()))
    for page in hooks.metric_pages():
        assert f"metrics/{page}.md" in pages and f"api/{page}.md" in pages


def test_mkdocs_yml_names_no_metric_page_by_hand(hooks):
    written = _pages(_nav())
    assert not [page for page in written if page.startswith("metrics/") or page.removeprefix("api/")[:-3] in BUILTIN]


def test_cer_is_documented_on_the_pages_of_wer(hooks):
    assert hooks.metric_pages()["wer"] == ["wer", "cer"]
    assert hooks.page_title(["wer", "cer"]) == "WER and CER"


def test_api_index_rows_name_every_public_name_of_every_metric(hooks):
    rows = hooks.api_metric_rows()
    for name in BUILTIN:
        for exported in __import__(f"mtscore.metrics.{name}", fromlist=["__all__"]).__all__:
            assert f"`{exported}`" in rows
            assert exported in mtscore.__all__
    assert "<!-- mtscore-api-metrics -->" in (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")


def test_a_missing_api_page_is_named(hooks, tmp_path):
    for folder in ("metrics", "api"):
        (tmp_path / folder).mkdir()
        for page in hooks.metric_pages():
            (tmp_path / folder / f"{page}.md").write_text("# page\n", encoding="utf-8")
    hooks.check_metric_pages(tmp_path)  # every page there: no error
    (tmp_path / "api" / "nist.md").unlink()
    with pytest.raises(FileNotFoundError, match=r"api/nist\.md \(for nist\)"):
        hooks.check_metric_pages(tmp_path)


def test_a_new_builtin_metric_without_pages_stops_the_build(hooks, monkeypatch):
    package, options = types.ModuleType("mtscore.metrics.exact"), types.ModuleType("mtscore.metrics.exact.options")
    options.TITLE = "Exact match"
    monkeypatch.setitem(sys.modules, package.__name__, package)
    monkeypatch.setitem(sys.modules, options.__name__, options)
    monkeypatch.setitem(BUILTIN, "exact", "Exact")
    monkeypatch.setattr(METRICS, "_targets", None)  # the registry read again, with the new line
    assert hooks.metric_pages()["exact"] == ["exact"]
    with pytest.raises(FileNotFoundError, match=r"metrics/exact\.md \(for exact\); api/exact\.md \(for exact\)"):
        hooks.check_metric_pages(ROOT / "docs")
