"""One version, read from the installed metadata: the package, the signature and --version agree
with what ``importlib.metadata`` reads."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import mtscore
from mtscore.core.signature import tool_version


def test_version_is_the_installed_distributions():
    assert mtscore.__version__ == version("mtscore")
    assert tool_version() == f"mtscore-{version('mtscore')}"


def test_command_line_version():
    result = subprocess.run([sys.executable, "-m", "mtscore", "--version"], capture_output=True, text=True, check=True)
    assert result.stdout == f"mtscore {version('mtscore')}\n"
