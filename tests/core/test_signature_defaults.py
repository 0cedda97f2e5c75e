"""``metric.signature()`` without arguments: the references given at creation
decide ``nrefs`` (and BLEU's ``tok:ids`` for token ids), as in the metric's own scores."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore import BLEU, CHRF, TER

HYPS = ["the cat sat on the mat", "a dog barked"]
TWO = [["the cat is on the mat", "a dog barks"], ["a cat sat on a mat", None]]


@pytest.mark.parametrize("make", [BLEU, CHRF, TER], ids=["bleu", "chrf", "ter"])
def test_signature_follows_the_prepared_references(make):
    metric = make(TWO)
    assert str(metric.signature()) == str(metric.corpus_score(HYPS).signature)
    assert str(metric.signature()).startswith("nrefs:var|")
    assert str(make([TWO[0]]).signature()).startswith("nrefs:1|")
    assert str(make().signature(nrefs=3)).startswith("nrefs:3|")
    assert str(make().signature()).startswith("nrefs:1|")


def test_bleu_signature_of_token_id_references():
    metric = BLEU([np.array([[1, 2, 3], [4, 5, 6]])], pad_id=None)
    assert "|tok:ids|" in str(metric.signature())
    assert str(metric.signature()) == str(metric.corpus_score(np.array([[1, 2, 3], [4, 5, 7]])).signature)
