"""Pipes and FIFOs as file arguments: read once, as a stream, with the same
scores as the files themselves (``<(...)`` used to read as empty, a FIFO as ``-i`` to hang)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from helpers import run
from shared_data import REPO_ROOT

from mtscore.cli import EXIT_OK

EXAMPLES = REPO_ROOT / "examples"
REF_A, REF_B, HYP = (str(EXAMPLES / name) for name in ("ref.A.en", "ref.B.en", "hyp.en"))


def score(*argv: str) -> str:
    result = subprocess.run(["bash", "-c", " ".join(argv)], capture_output=True, text=True, timeout=60, check=True)
    return result.stdout


@pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="process substitution needs bash")
@pytest.mark.parametrize(
    "argv",
    [
        [REF_A, REF_B, "-i", f"<(cat {HYP})"],
        [f"<(cat {REF_A})", f"<(cat {REF_B})", "-i", HYP],
        [REF_A, REF_B, "-i", f"<(gzip -c {HYP})"],
        [REF_A, REF_B, "-i", f"<(cat {HYP})", "-sl"],
        [REF_A, REF_B, "-i", f"<(cat {HYP})", f"<(cat {REF_A})", "-f", "tsv"],
    ],
    ids=["hypotheses", "references", "gzip", "segments", "two-systems"],
)
def test_process_substitution_scores_as_the_files_do(argv):
    files = [
        HYP if "<(" in arg and HYP in arg else REF_A if REF_A in arg else REF_B if REF_B in arg else arg for arg in argv
    ]
    command = f"{sys.executable} -m mtscore"
    assert score(command, *argv, "-b") == score(command, *files, "-b")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_hypotheses(capsys, tmp_path):
    fifo = tmp_path / "hypotheses"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as writer, open(HYP, "rb") as reader:
            writer.write(reader.read())

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    code, out, _ = run(capsys, REF_A, REF_B, "-i", fifo, "-b")
    feeder.join(timeout=10)
    assert code == EXIT_OK
    assert (code, out) == run(capsys, REF_A, REF_B, "-i", HYP, "-b")[:2]
