"""Fixtures of the test-set tests (``testsets_support`` has the server and the helpers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from testsets_support import Server, local_only


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
