"""The drop-in's results of a call of a few segments, which BLEU and chrF count in plain Python, are the
drop-in's own result classes with sacrebleu's text, and its metrics note the references they saw, as for
larger calls; a subclass that overrides how results are made keeps its override."""

from __future__ import annotations

import sacrebleu as theirs
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF

import mtscore
import mtscore.sacrebleu as ours
from mtscore.sacrebleu.metrics.bleu import BLEUScore
from mtscore.sacrebleu.metrics.chrf import CHRFScore

HYPOTHESIS = "The cat sat on the mat, and the dog (a big one) barked 3.5 times."
REFERENCES = ["The cat was sitting on the mat and the dog barked.", "A cat sat on a mat; a big dog barked."]


def test_sentence_bleu_is_the_drop_ins_result_with_sacrebleus_text():
    got, expected = ours.sentence_bleu(HYPOTHESIS, REFERENCES), theirs.sentence_bleu(HYPOTHESIS, REFERENCES)
    assert type(got) is BLEUScore
    assert got.format() == expected.format() and got.prec_str == expected.prec_str
    assert ours.corpus_bleu([HYPOTHESIS], [[r] for r in REFERENCES]).format() == (
        theirs.corpus_bleu([HYPOTHESIS], [[r] for r in REFERENCES]).format()
    )


def test_sentence_chrf_is_the_drop_ins_result_with_sacrebleus_text():
    got, expected = ours.sentence_chrf(HYPOTHESIS, REFERENCES), theirs.sentence_chrf(HYPOTHESIS, REFERENCES)
    assert type(got) is CHRFScore
    assert repr(got) == repr(expected)


def test_metrics_note_the_references_of_a_small_call_for_their_signature():
    for ours_metric, their_metric in ((ours.BLEU(), SacreBLEU()), (ours.CHRF(), SacreCHRF())):
        ours_metric.corpus_score([HYPOTHESIS], [[r] for r in REFERENCES])
        their_metric.corpus_score([HYPOTHESIS], [[r] for r in REFERENCES])
        assert ours_metric.get_signature().info["nrefs"] == str(their_metric.get_signature().info["nrefs"]) == "2"


def test_a_subclass_that_makes_results_its_own_way_keeps_doing_so():
    made = []

    class Recorded(mtscore.BLEU):
        def _score(self, statistics, references):
            made.append(len(statistics))
            return super()._score(statistics, references)

    result = Recorded().corpus_score([HYPOTHESIS], [[REFERENCES[0]]])
    assert made == [1]
    assert result.score == mtscore.corpus_bleu([HYPOTHESIS], [[REFERENCES[0]]]).score


def test_functional_calls_in_a_loop_with_options_and_references_interleaved_are_sacrebleus():
    """The functional API keeps a metric between calls of the same options: every result, kept to the end,
    still has the text and the numbers sacrebleu's call gives it, whatever calls came between."""
    calls = [
        ("sentence_bleu", (HYPOTHESIS, REFERENCES), {}),
        ("sentence_bleu", (HYPOTHESIS, REFERENCES[:1]), {}),
        ("sentence_bleu", (HYPOTHESIS, REFERENCES), {"smooth_method": "floor", "smooth_value": 0.1}),
        ("corpus_bleu", ([HYPOTHESIS], [[r] for r in REFERENCES]), {}),
        ("corpus_bleu", ([HYPOTHESIS, "a b c"], [["a b c d", "the cat"]]), {"lowercase": True}),
        ("corpus_bleu", ([HYPOTHESIS], [[REFERENCES[0]]]), {}),
        ("sentence_chrf", (HYPOTHESIS, REFERENCES), {}),
        ("sentence_chrf", (HYPOTHESIS, REFERENCES[1:]), {"word_order": 2}),
        ("corpus_chrf", ([HYPOTHESIS], [[r] for r in REFERENCES]), {}),
        ("sentence_ter", (HYPOTHESIS, REFERENCES), {}),
        ("sentence_ter", (HYPOTHESIS, REFERENCES[:1]), {"case_sensitive": True}),
        ("corpus_ter", ([HYPOTHESIS], [[REFERENCES[1]]]), {}),
    ] * 2
    got = [getattr(ours, name)(*args, **options) for name, args, options in calls]
    for result, (name, args, options) in zip(got, calls, strict=True):
        expected = getattr(theirs, name)(*args, **options)
        assert result.format() == expected.format(), (name, options)
        assert result.score == expected.score
        for detail in ("counts", "totals", "sys_len", "ref_len", "num_edits", "ref_length"):
            if hasattr(expected, detail):
                assert getattr(result, detail) == getattr(expected, detail), (name, detail)
