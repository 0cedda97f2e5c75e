"""``mtscore -m meteor`` on the command line: scores equal to the API (NLTK's, as test_meteor.py
checks), segment scores, several systems, confidence intervals, paired bootstrap, JSON, and the
message when WordNet is missing."""

from __future__ import annotations

import json
import math

import pytest
from helpers import run, write

from mtscore.metrics.meteor import METEOR

REFS = [
    ["the cat sat on the mat", "dogs are running in the park", "he went home early", "a big car stopped"],
    ["a cat was sitting on the mat", "the dogs run in a park", "he left for home early", "the large auto halted"],
]
SYSTEMS = [
    ["the cat sat on a mat", "the dog runs in the park", "he goes home", "a large car stops"],
    ["cat mat", "dogs running park", "early he went home", "big automobile stopped"],
    ["on the mat sat the cat", "in the park dogs ran", "home he went early", "a huge car stopped"],
]


@pytest.fixture
def files(tmp_path):
    refs = [write(tmp_path / f"ref.{i}", stream) for i, stream in enumerate(REFS)]
    systems = [write(tmp_path / f"sys.{i}", hyps) for i, hyps in enumerate(SYSTEMS)]
    return refs, systems


def test_json_score_and_signature(capsys, files, wordnet):
    refs, systems = files
    code, out, err = run(capsys, *refs, "-i", systems[0], "-m", "meteor", "-w", "6")
    data = json.loads(out)
    expected = METEOR(REFS).corpus_score(SYSTEMS[0])
    assert code == 0 and err == "" and data["name"] == "METEOR"
    assert math.isclose(data["score"], round(expected.score, 6), abs_tol=1e-9)
    assert data["signature"] == str(expected.signature) and data["nrefs"] == "2" and data["syn"] == "wordnet"


def test_segment_scores(capsys, files, wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", systems[1], "-m", "meteor", "-sl", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    scores = METEOR(REFS).sentence_scores(SYSTEMS[1])
    assert code == 0 and [row["score"] for row in rows[:-1]] == pytest.approx(scores.tolist(), abs=1e-9)
    assert rows[-1]["line"] == "corpus" and rows[-1]["score"] == pytest.approx(scores.mean(), abs=1e-9)


def test_several_systems_and_metrics(capsys, files, wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "meteor", "bleu", "-f", "text", "-w", "4")
    metric = METEOR(REFS)
    assert code == 0 and "METEOR" in out and "BLEU" in out
    for system in SYSTEMS:
        assert f"{metric.corpus_score(system).score:.4f}" in out


def test_confidence(capsys, files, wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", systems[0], "-m", "meteor", "--confidence", "--confidence-n", "200")
    data = json.loads(out)
    assert code == 0 and data["name"] == "METEOR" and data["bs"] == "200" and data["confidence_var"] >= 0
    assert data["score"] == round(METEOR(REFS).corpus_score(SYSTEMS[0]).score, 1)


def test_paired_bootstrap(capsys, files, wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "meteor", "--paired-bs", "-pbsn", "200")
    rows = json.loads(out)
    assert code == 0 and [list(row) for row in rows] == [["system", "METEOR"]] * 3
    assert all(isinstance(row["METEOR"]["p_value"], float) for row in rows[1:])


def test_no_synonyms_option(capsys, files, no_wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", systems[1], "-m", "meteor", "--meteor-no-synonyms", "-w", "6")
    data = json.loads(out)
    assert code == 0 and data["syn"] == "no"
    assert data["score"] == round(METEOR(REFS, no_synonyms=True).corpus_score(SYSTEMS[1]).score, 6)


def test_missing_wordnet_is_one_clear_line(capsys, files, no_wordnet):
    refs, systems = files
    code, out, err = run(capsys, *refs, "-i", systems[0], "-m", "meteor")
    assert code == 1 and out == "" and "apt-get install wordnet-base" in err and "Traceback" not in err
    code, _, err = run(capsys, *refs, "-i", systems[0], "-m", "meteor", "--meteor-wordnet", str(no_wordnet / "x"))
    assert code == 1 and "not found in" in err


def test_wordnet_path_option(capsys, files, wordnet_copy, no_wordnet):
    refs, systems = files
    code, out, _ = run(capsys, *refs, "-i", systems[0], "-m", "meteor", "--meteor-wordnet", str(wordnet_copy))
    assert code == 0 and json.loads(out)["syn"] == "wordnet"
