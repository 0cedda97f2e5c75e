"""Output that cannot be written: a one-line message and exit 3, never a
traceback, for every subcommand and form."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from shared_data import REPO_ROOT

from mtscore.cli import EXIT_OUTPUT

EXAMPLES = REPO_ROOT / "examples"
FILES = [str(EXAMPLES / "ref.A.en"), "-i", str(EXAMPLES / "hyp.en")]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize(
    "argv",
    [FILES, [*FILES, "-sl"], [*FILES, "-f", "text", "-m", "bleu", "chrf"], ["explain", "--hyp", "a b", "--ref", "a b"]],
    ids=["corpus", "segments", "metrics", "explain"],
)
def test_a_full_device_is_an_output_error(argv):
    with open("/dev/full", "w") as full:
        command = [sys.executable, "-m", "mtscore", *argv]
        result = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == EXIT_OUTPUT
    assert result.stderr == "mtscore: error: cannot write the results: No space left on device\n"
