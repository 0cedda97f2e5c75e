"""The version, read from the installed distribution's metadata: ``pyproject.toml`` is the one place
it is written. A leaf: imports nothing from ``mtscore``; loaded only when the version is asked for."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mtscore")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"
