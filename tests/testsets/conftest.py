"""Fixtures of the test-set tests: an empty cache, a local server, and a cache holding ``-t wmt22``
(``testsets_support`` has the server and the helpers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from shared_data import wmt22_xml_dir
from testsets_support import WMT22_FOLDER, Server, local_only, tar_gz


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty sacrebleu cache, ``$SACREBLEU`` for this test."""
    folder = tmp_path / "sacrebleu-cache"
    monkeypatch.setenv("SACREBLEU", str(folder))
    local_only(monkeypatch)
    return folder


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server for this test; the registry entries it publishes are restored afterwards."""
    running = Server(monkeypatch)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def wmt22(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """A cache holding -t wmt22 (the real WMT22 XML files of ../shared), downloaded once per module
    by mtscore from a local server; the registry stays pointed at the server for the module (each
    test sets ``$SACREBLEU`` with ``testsets_support.use``)."""
    xml = wmt22_xml_dir()
    archive = tar_gz({f"{WMT22_FOLDER}/{path.name}": path.read_bytes() for path in sorted(xml.glob("*.xml"))})
    cache = tmp_path_factory.mktemp("wmt22") / "cache"
    with pytest.MonkeyPatch.context() as monkeypatch:
        local_only(monkeypatch)
        monkeypatch.setenv("SACREBLEU", str(cache))
        server = Server(monkeypatch)
        server.publish("wmt22", [archive])
        from mtscore.cli import EXIT_OK, main

        assert main(["--download", "wmt22", "-l", "de-fr", "-q"]) == EXIT_OK
        yield {"cache": cache, "server": server}
        server.stop()
