"""``-m nist`` on the command line: corpus, ``-sl``, several systems, ``--confidence``,
``--paired-bs``, ``--paired-ar``, JSON; the variant and case options reach the signature."""

from __future__ import annotations

import json

import pytest
from helpers import run, write

from mtscore.metrics.nist import NIST, sentence_nists

HYPS = ["the cat sat on the mat", "0 1 2 3", "a dog . a dog", "it is 0 degrees"]
OTHER = ["the cat sat", "0 1 2 3 4", "a dog and a dog", "it is 0"]
REFS = ["the cat sat on a mat", "0 1 2", "a dog and a cat", "it is 0 degrees today"]


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "ref", REFS), write(tmp_path / "hyp", HYPS), write(tmp_path / "other", OTHER)


def test_corpus_json(capsys, files) -> None:
    ref, hyp, _ = files
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "nist", "-f", "json", "-w", "6")
    data = json.loads(out)
    assert code == 0
    assert data["score"] == pytest.approx(NIST([REFS]).corpus_score(HYPS).score, abs=1e-6)
    assert data["signature"].startswith("nrefs:1|case:lc|tok:13a|ngram:5|impl:mteval|")


def test_options_in_signature(capsys, files) -> None:
    ref, hyp, _ = files
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "nist", "--nist-variant", "nltk", "--nist-case-sensitive")
    data = json.loads(out)
    assert code == 0
    assert data["name"] == "NIST-nltk"
    assert data["signature"].startswith("nrefs:1|case:mixed|tok:13a|ngram:5|impl:nltk|")


def test_sentence_level(capsys, files) -> None:
    ref, hyp, other = files
    code, out, _ = run(capsys, ref, "-i", hyp, other, "-m", "nist", "-sl", "-f", "json", "-w", "6")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    for system, hypotheses in (("hyp", HYPS), ("other", OTHER)):
        mine = [line for line in lines if line["system"].endswith(system)]
        assert [line["score"] for line in mine[:-1]] == pytest.approx(sentence_nists(hypotheses, [REFS]), abs=1e-9)
        assert mine[-1]["line"] == "corpus"


def test_confidence_and_several_systems(capsys, files) -> None:
    ref, hyp, other = files
    code, out, _ = run(capsys, ref, "-i", hyp, other, "-m", "nist", "bleu", "--confidence", "--confidence-n", "50")
    rows = json.loads(out)
    assert code == 0
    assert [row["NIST signature"].startswith("nrefs:1|bs:50|seed:12345|") for row in rows] == [True, True]
    assert all(row["NIST confidence"].startswith("μ = ") for row in rows)


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_paired(capsys, files, test: str) -> None:
    ref, hyp, other = files
    n = "--paired-bs-n" if test == "--paired-bs" else "--paired-ar-n"
    code, out, _ = run(capsys, ref, "-i", hyp, other, "-m", "nist", "chrf", test, n, "50", "-f", "json")
    assert code == 0
    rows = json.loads(out)
    assert rows[1]["NIST"]["p_value"] is not None
    assert rows[0]["NIST"]["score"] == pytest.approx(NIST([REFS]).corpus_score(HYPS).score)


@pytest.mark.parametrize("sentence", [[], ["-sl"]])
def test_tsv_lists_the_sums(capsys, files, sentence: list[str]) -> None:
    ref, hyp, _ = files
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "nist", *sentence, "-f", "tsv")
    header, *rows = [line.split("\t") for line in out.splitlines()]
    assert code == 0
    assert header[header.index("matches_1") : header.index("matches_1") + 2] == ["matches_1", "matches_2"]
    assert rows[-1][1] == "corpus" and len(rows) == (len(HYPS) + 1 if sentence else 1)
    assert float(rows[-1][2]) == pytest.approx(NIST([REFS]).corpus_score(HYPS).score)
