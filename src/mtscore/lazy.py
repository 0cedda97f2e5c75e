"""Package attributes imported on first use (a leaf: imports nothing from ``mtscore``).

A package's ``__init__`` stays light (no NumPy), so that ``import mtscore``, the command line and a
metric's option declarations load fast; the modules behind its public names load when first used.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_attributes(package: str, modules: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``modules`` maps each public name to the module
    (relative to ``package``) that defines it. A name once imported is kept in the package, so that
    later uses are plain attribute lookups (a loop calling ``mtscore.sentence_bleu`` pays no import step)."""

    def __getattr__(name: str) -> Any:
        if name in modules:
            value = getattr(import_module(f".{modules[name]}", package), name)
            setattr(sys.modules[package], name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
