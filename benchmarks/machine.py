"""What the numbers were measured on: CPU, cores, memory, load, Python, package versions, commit."""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

PACKAGES = (
    "mtscore",
    "numpy",
    "regex",
    "sacrebleu",
    "nltk",
    "torch",
    "torchmetrics",
    "bleuscore",
    "jiwer",
    "rapidfuzz",
)


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (or the platform's word for it)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_gib() -> float | None:
    """Total RAM in GiB from /proc/meminfo."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def package_versions() -> dict[str, str | None]:
    """Installed versions of the library and its peers (None: not installed)."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def git_commit(repo: Path) -> str | None:
    """The repository's HEAD, with ``+dirty`` when the working tree has changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def dirty_files(repo: Path) -> list[str]:
    """Tracked files with uncommitted changes (what ``+dirty`` in the commit refers to)."""
    try:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return [line[3:] for line in status.splitlines() if line.strip()]


def source_digest(repo: Path) -> str:
    """A short SHA-256 over the library's source files, to tell whether they changed during a run."""
    digest = hashlib.sha256()
    for path in sorted((repo / "src" / "mtscore").rglob("*.py")):
        digest.update(str(path.relative_to(repo)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def imported_from(module: str) -> str | None:
    """The folder a fresh worker imports ``module`` from (this interpreter's path and PYTHONPATH), or None."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    return str(Path(spec.origin).parent) if spec is not None and spec.origin else None


def machine_info(repo: Path) -> dict:
    """Everything needed to judge whether two result files are comparable."""
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_gib": memory_gib(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "packages": package_versions(),
        "commit": git_commit(repo),
        "dirty_files": dirty_files(repo),
        "source_digest": source_digest(repo),
        "mtscore_imported_from": imported_from("mtscore"),
        "load_average_start": load_average(),
    }


def summary(info: dict) -> str:
    """One line for the table's header."""
    versions = ", ".join(f"{name} {version}" for name, version in info["packages"].items() if version)
    return (
        f"{info['cpu']}, {info['cores']} cores, {info['memory_gib']} GiB RAM; Python {info['python']}; "
        f"{versions}; commit {info['commit']} (mtscore sources {info.get('source_digest', 'not recorded')}); "
        f"load average at start {info['load_average_start']}"
    )
