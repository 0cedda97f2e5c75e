"""Small helpers shared by the test modules: reproducible Hypothesis settings, files of lines."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings


def fixed(**kwargs):
    """Hypothesis settings for reproducible runs: derandomized, no example database, no deadline."""
    return settings(
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        **kwargs,
    )


def write(path: Path, lines, newline: str = "\n", encoding: str = "utf-8") -> str:
    """Write ``lines``, each ended by ``newline``, and return the path as str."""
    path.write_bytes("".join(line + newline for line in lines).encode(encoding))
    return str(path)
