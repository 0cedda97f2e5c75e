"""Systems pasted side by side on standard input: ``paste SYS1 SYS2 | mtscore REF``
is split on tabs into systems, as sacrebleu reads it, instead of being scored as one system whose
lines hold tabs (a plausible wrong number)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import as_sacrebleu_version
from shared_data import REPO_ROOT

from mtscore.cli import EXIT_INPUT, EXIT_OK

EXAMPLES = REPO_ROOT / "examples"
REF_A, REF_B, HYP = (str(EXAMPLES / name) for name in ("ref.A.en", "ref.B.en", "hyp.en"))


def lines(path: str) -> list[str]:
    return open(path, encoding="utf-8").read().splitlines()


def mtscore(stdin: str, *argv: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "mtscore", *argv]
    return subprocess.run(command, input=stdin.encode(), capture_output=True, timeout=60)


def pasted(*columns: list[str]) -> str:
    return "".join("\t".join(fields) + "\n" for fields in zip(*columns, strict=True))


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_pasted_systems_score_as_the_files_do(metric):
    result = mtscore(pasted(lines(HYP), lines(REF_B)), REF_A, "-m", metric)
    assert result.returncode == EXIT_OK, result.stderr
    rows = json.loads(result.stdout)
    from_files = subprocess.run(
        [sys.executable, "-m", "mtscore", REF_A, "-m", metric, "-i", HYP, REF_B], capture_output=True, check=True
    )
    assert [row["system"] for row in rows] == ["System 1", "System 2"]
    assert [{**row, "system": None} for row in rows] == [
        {**row, "system": None} for row in json.loads(from_files.stdout)
    ]


def test_pasted_systems_match_sacrebleu(tmp_path):
    stdin = tmp_path / "pasted.txt"
    stdin.write_text(pasted(lines(HYP), lines(REF_B), lines(REF_A)), encoding="utf-8")
    ours = mtscore(stdin.read_text(encoding="utf-8"), REF_A, "-f", "text", "-w", "3")
    assert ours.returncode == EXIT_OK, ours.stderr
    with open(stdin, "rb") as handle:
        oracle = subprocess.run(
            [sys.executable, "-m", "sacrebleu", REF_A, "-f", "text", "-w", "3"],
            stdin=handle,
            capture_output=True,
            text=True,
            check=True,
            env={"PATH": "/usr/bin:/bin"},
        ).stdout
    assert as_sacrebleu_version(ours.stdout.decode()) == oracle  # sacrebleu's grid, "System 1" to "System 3"
    assert oracle.count("│ System ") == 3


def test_pasted_systems_in_a_paired_test():
    result = mtscore(pasted(lines(HYP), lines(REF_B)), REF_A, "--paired-bs", "-f", "json")
    assert result.returncode == EXIT_OK, result.stderr
    assert "System 2" in result.stdout.decode()


def test_ragged_fields_are_refused_with_the_line():
    result = mtscore("one\ttwo\nthree\n", REF_A)
    assert result.returncode == EXIT_INPUT
    error = result.stderr.decode()
    assert "line 2 has 1 tab-separated fields but line 1 has 2" in error and "-i" in error
    assert "Traceback" not in error


def test_tabs_after_a_first_line_without_one_are_text_of_one_system(tmp_path):
    """Only a tab on the first line means pasted systems; a file given with -i is never split."""
    hypotheses = lines(HYP)
    hypotheses[1] = hypotheses[1].replace(" ", "\t", 1)
    text = "".join(line + "\n" for line in hypotheses)
    path = tmp_path / "hyp.txt"
    path.write_text(text, encoding="utf-8")
    from_stdin = mtscore(text, REF_A, "-b")
    from_file = subprocess.run([sys.executable, "-m", "mtscore", REF_A, "-i", str(path), "-b"], capture_output=True)
    assert from_stdin.returncode == EXIT_OK and from_stdin.stdout == from_file.stdout
