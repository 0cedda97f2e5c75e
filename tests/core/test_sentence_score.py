"""``Metric.sentence_score``, written once in the base: every metric scores one segment as
sacrebleu's ``sentence_score`` does."""

from __future__ import annotations

import pytest

sacrebleu = pytest.importorskip("sacrebleu")

from mtscore import BLEU, CHRF, TER, InputError  # noqa: E402

HYPOTHESIS = "The cat sat on the mat ."
REFERENCES = ["The cat is on the mat .", "A cat sat on a mat ."]


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (BLEU(effective_order=True), sacrebleu.BLEU(effective_order=True)),
        (CHRF(word_order=2), sacrebleu.CHRF(word_order=2)),
        (TER(), sacrebleu.TER()),
    ],
    ids=["bleu", "chrf++", "ter"],
)
def test_sentence_score_equals_sacrebleus(ours, theirs):
    assert ours.sentence_score(HYPOTHESIS, REFERENCES).score == pytest.approx(
        theirs.sentence_score(HYPOTHESIS, REFERENCES).score, abs=1e-9
    )


@pytest.mark.parametrize("metric", [BLEU(), CHRF(), TER()], ids=["bleu", "chrf", "ter"])
def test_sentence_score_checks_its_arguments(metric):
    with pytest.raises(InputError, match="hypothesis must be a str"):
        metric.sentence_score(["a"], ["a"])
    with pytest.raises(InputError, match="wrap a single one"):
        metric.sentence_score("a", "a")
