"""``--confidence`` with several systems: every system shows its own interval,
the one it gets when scored alone, so the signature's ``bs:1000`` is never a claim without numbers."""

from __future__ import annotations

import json

import pytest
from helpers import run
from shared_data import REPO_ROOT

from mtscore.cli import EXIT_OK

EXAMPLES = REPO_ROOT / "examples"
REF, HYP, OTHER = (str(EXAMPLES / name) for name in ("ref.A.en", "hyp.en", "ref.B.en"))


def alone(capsys, system: str, metric: str) -> str:
    code, out, _ = run(capsys, REF, "-i", system, "-m", metric, "--confidence", "-f", "json")
    assert code == EXIT_OK
    return json.loads(out)["confidence"]


@pytest.mark.parametrize("metrics", [["bleu"], ["bleu", "chrf"]])
def test_each_system_shows_its_own_interval(capsys, metrics):
    code, out, _ = run(capsys, REF, "-i", HYP, OTHER, "-m", *metrics, "--confidence", "-f", "json")
    assert code == EXIT_OK
    rows = json.loads(out)
    names = {"bleu": "BLEU", "chrf": "chrF2"}
    for row, system in zip(rows, (HYP, OTHER), strict=True):
        for metric in metrics:
            key = f"{names[metric]} confidence" if len(metrics) > 1 else "confidence"
            assert row[key] == alone(capsys, system, metric)
    code, table, _ = run(capsys, REF, "-i", HYP, OTHER, "-m", *metrics, "--confidence", "-f", "text")
    assert code == EXIT_OK
    for system in (HYP, OTHER):
        line = next(line for line in table.splitlines() if f" {system} │" in line)  # sacrebleu's grid
        assert all(f"({alone(capsys, system, metric)})" in line for metric in metrics)
