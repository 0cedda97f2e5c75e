"""Metrics from other packages: the ``mtscore.metrics`` entry points of the installed distributions.

A package registers a metric with one entry point, its command-line name pointing to the class::

    [project.entry-points."mtscore.metrics"]
    exact = "mtscore_exact:ExactMatch"

The ``entry_points.txt`` of each ``*.dist-info`` folder on ``sys.path`` is read directly, as
``importlib.metadata`` finds them (the first distribution of a name wins), without importing
``importlib.metadata``: that import costs more than ``mtscore --help`` itself. A leaf module.
"""

from __future__ import annotations

import os
import sys
from glob import glob

GROUP = "mtscore.metrics"


def entry_points(group: str = GROUP) -> dict[str, str]:
    """The entry points of ``group`` in every installed distribution: name -> ``"module:attribute"``."""
    found: dict[str, str] = {}
    seen_distributions: set[str] = set()
    for entry in sys.path:
        for folder in sorted(glob(os.path.join(entry or os.curdir, "*.dist-info"))):
            distribution = os.path.basename(folder).split("-", 1)[0].lower().replace("_", "-")
            if distribution in seen_distributions:
                continue
            seen_distributions.add(distribution)
            try:
                with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
                    text = file.read()
            except OSError:
                continue
            for name, value in _section(text, group):
                found.setdefault(name, value)
    return found


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of section ``[group]`` of an ``entry_points.txt``."""
    pairs, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            name, value = line.split("=", 1)
            pairs.append((name.strip(), value.strip()))
    return pairs
