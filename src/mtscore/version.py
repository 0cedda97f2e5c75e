"""The version, read from the installed distribution's metadata: ``pyproject.toml`` is the one place
it is written. A leaf: imports nothing from ``mtscore``; loaded only when the version is asked for.

The ``METADATA`` file of the first ``mtscore-*.dist-info`` on ``sys.path`` is read directly, as
``importlib.metadata`` would find it: importing ``importlib.metadata`` costs about 15 ms, which the
first score of a process would pay for its signature.
"""

from __future__ import annotations

import os
import sys
from glob import glob


def _installed_version() -> str:
    """The ``Version:`` of the first ``mtscore`` distribution on ``sys.path``."""
    for entry in sys.path:
        for folder in sorted(glob(os.path.join(entry or os.curdir, "mtscore-*.dist-info"))):
            try:
                with open(os.path.join(folder, "METADATA"), encoding="utf-8") as metadata:
                    for line in metadata:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip()
                        if not line.strip():  # the headers end here
                            break
            except OSError:
                continue
    from importlib.metadata import PackageNotFoundError, version  # zipped or unusual installs

    try:
        return version("mtscore")
    except PackageNotFoundError:  # a source tree on sys.path that was never installed
        return "0+unknown"


__version__ = _installed_version()
