"""Where the tests find the shared data (kept outside the repository, never copied into it).

The data lives in ``../shared`` next to the repository root (the parent of this ``tests/`` folder),
independent of the current working directory. See ``../shared/data/wmt22/README.md`` for the layout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# Module-level so that a test can point it elsewhere with monkeypatch.
SHARED_DIR = REPO_ROOT.parent / "shared"


def find_wmt22() -> Path | None:
    """The WMT22 folder, or ``None`` when absent (safe at collection time: never skips or fails)."""
    path = SHARED_DIR / "data" / "wmt22"
    return path if path.is_dir() else None


def wmt22_dir() -> Path:
    """The WMT22 folder; skips the calling test when absent, or fails it when ``CI`` is set."""
    return required(SHARED_DIR / "data" / "wmt22", "these tests need the WMT22 data")


def wmt22_xml_dir() -> Path:
    """The WMT22 XML folder (``xml/``: de-fr, en-liv, liv-en, sah-ru); skips or fails as ``wmt22_dir``."""
    return wmt22_dir() / "xml"


def oracles_dir() -> Path:
    """The folder of oracle expectations (``../shared/data/oracles``); skips the calling test when
    absent, or fails it when ``CI`` is set."""
    return required(SHARED_DIR / "data" / "oracles", "these tests need it")


def required(path: Path, why: str) -> Path:
    """``path`` (a folder of ``../shared/data``); skips the calling test when absent, saying ``why``
    it is needed, or fails it when ``CI`` is set."""
    if path.is_dir():
        return path
    message = f"../shared/data/{path.name} not found next to the repository (looked in {path}); {why}"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, and CI is set, so a missing data folder is an error", pytrace=False)
    pytest.skip(message)


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file, split on ``"\\n"`` only (not ``str.splitlines``), final empty piece dropped."""
    lines = Path(path).read_bytes().decode("utf-8").split("\n")  # not read_text: it turns "\r" into "\n"
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def target(pair: str) -> str:
    """The target language of a pair such as ``"en-de"``."""
    return pair.split("-")[1]


def tokenizer_for(pair: str) -> str:
    """The BLEU tokenizer of the official scores: ``zh`` for Chinese, ``char`` for Japanese, else ``13a``."""
    return {"zh": "zh", "ja": "char"}.get(target(pair), "13a")


def references(pair: str, name: str | None = None) -> list[Path]:
    """Reference paths of ``pair``: just ``name`` (``A``, ``B``, ``C``, ``stud``), or with ``None``/``"all"``
    every reference in *reverse* name order, as the official ``-all`` scores use them (B,A / C,B / stud,A)."""
    folder = wmt22_dir() / "txt" / "references"
    if name not in (None, "all"):
        path = folder / f"generaltest2022.{pair}.ref.{name}.{target(pair)}"
        if not path.is_file():
            raise FileNotFoundError(path)
        return [path]
    prefix = f"generaltest2022.{pair}.ref."
    paths = sorted(folder.glob(f"{prefix}*.{target(pair)}"), key=lambda p: p.name, reverse=True)
    if not paths:
        raise FileNotFoundError(f"no references for {pair} in {folder}")
    return paths


def system_output(pair: str, system: str) -> Path:
    """The path of ``system``'s primary output for ``pair``."""
    return wmt22_dir() / "txt" / "system-outputs" / f"generaltest2022.{pair}.hyp.{system}.{target(pair)}"


def metaeval_dir() -> Path:
    """The meta-evaluation data (``../shared/data/metaeval``: WMT22/WMT23 in mt-metrics-eval's layout and
    ``oracle.json``); skips the calling test when absent, or fails it when ``CI`` is set."""
    return required(SHARED_DIR / "data" / "metaeval", "these tests need it")
