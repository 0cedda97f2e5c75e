"""The same names for the same ideas across the metrics: ``statistics``/``score_statistics``, ``hyp_len``/
``ref_len`` on every result that reports lengths, ``explain`` and ``tokenize`` for every metric that has
them. The old names still work, with a ``DeprecationWarning``, and give the same values; sacrebleu's own
names on the drop-in's results do not warn."""

from __future__ import annotations

import warnings

import jiwer
import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

import mtscore
from mtscore import BLEU, NIST, TER, InputError
from mtscore.metrics.by_name import explaining_metrics, tokenizing_metrics

HYPOTHESES = ["the cat sat on the mat", "a dog barked loudly", "Hello, World!"]
REFERENCES = [
    ["the cat sat on a mat", "a dog barked", "Hello World!"],
    ["there is a cat on the mat", "the dog barked loudly", "hello, world"],
]
LINE = "Hello, World! It's 3.5 o'clock."


@pytest.fixture(autouse=True)
def _new_names_do_not_warn():
    """Every call of a test but those inside ``pytest.warns`` runs with DeprecationWarnings as errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        yield


def test_bleu_stats_warns_and_is_statistics():
    metric = BLEU()
    with pytest.warns(DeprecationWarning, match=r"BLEU\.stats is now BLEU\.statistics"):
        old = metric.stats(HYPOTHESES, REFERENCES)
    assert old == metric.statistics(HYPOTHESES, REFERENCES)
    assert old.settings == metric.statistics(HYPOTHESES, REFERENCES).settings


def test_bleu_score_stats_warns_and_scores_as_score_statistics():
    metric = BLEU()
    statistics = metric.statistics(HYPOTHESES, REFERENCES)
    with pytest.warns(DeprecationWarning, match=r"BLEU\.score_stats is now BLEU\.score_statistics"):
        old = metric.score_stats(statistics, nrefs=2)
    new = metric.score_statistics(statistics, nrefs=2)
    expected = metric.corpus_score(HYPOTHESES, REFERENCES)
    assert old == new == expected
    assert str(old.signature) == str(new.signature) == str(expected.signature)


@pytest.mark.parametrize("form", ["Stats", "matrix", "Statistics"])
def test_bleu_score_statistics_takes_every_form_of_statistics(form):
    metric = BLEU(REFERENCES)
    statistics = metric.statistics(HYPOTHESES)
    given = {
        "Stats": statistics,
        "matrix": statistics.matrix,
        "Statistics": mtscore.core.stats.Statistics(statistics.matrix, statistics.settings),
    }[form]
    result = metric.score_statistics(given)
    assert result == metric.corpus_score(HYPOTHESES)
    assert str(result.signature) == str(metric.corpus_score(HYPOTHESES).signature)  # nrefs:2 from the references


def test_bleu_score_statistics_of_token_ids_signs_them_as_ids():
    ids = np.array([[1, 2, 3, 4, 0], [5, 6, 7, 0, 0]])
    refs = [np.array([[1, 2, 3, 5, 0], [5, 6, 0, 0, 0]])]
    metric = BLEU(pad_id=0)
    statistics = metric.statistics(ids, refs)
    result = BLEU(pad_id=0).score_statistics(statistics)
    assert result.signature.info["tok"] == "ids"
    assert str(result.signature) == str(metric.corpus_score(ids, refs).signature)


def test_sacrebleu_dropin_bleu_results_keep_sacrebleu_names_without_warning():
    from mtscore.sacrebleu import BLEU as SacreBLEU
    from mtscore.sacrebleu import TER as SacreTER

    bleu = SacreBLEU().corpus_score(HYPOTHESES, REFERENCES)
    assert (bleu.sys_len, bleu.ref_len) == (bleu.hyp_len, bleu.ref_len)
    ter = SacreTER(case_sensitive=True).corpus_score(HYPOTHESES, REFERENCES)
    assert ter.ref_length == ter.ref_len


def test_bleu_result_offers_hyp_len_beside_sacrebleus_sys_len():
    result = mtscore.corpus_bleu(HYPOTHESES, REFERENCES)
    assert result.hyp_len == result.sys_len == sum(len(line.split()) for line in HYPOTHESES) + 2  # "," and "!"


def test_nist_result_sys_len_warns_and_is_hyp_len():
    result = NIST().corpus_score(HYPOTHESES, REFERENCES)
    with pytest.warns(DeprecationWarning, match=r"NISTScore\.sys_len is now NISTScore\.hyp_len"):
        old = result.sys_len
    assert old == result.hyp_len == sum(len(Tokenizer13a()(line).split()) for line in HYPOTHESES)
    assert result.to_dict()["sys_len"] == result.hyp_len  # the key of earlier outputs


def test_nist_tsv_column_keeps_its_name(capsys, tmp_path):
    from helpers import run, write

    hyp, ref = write(tmp_path / "hyp", HYPOTHESES), write(tmp_path / "ref", REFERENCES[0])
    code, out, _ = run(capsys, str(ref), "-i", str(hyp), "-m", "nist", "-f", "tsv")
    assert code == 0
    header, row = out.splitlines()[:2]
    columns = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert int(columns["sys_len"]) == NIST().corpus_score(HYPOTHESES, [REFERENCES[0]]).hyp_len


def test_ter_result_offers_ref_len_beside_sacrebleus_ref_length():
    result = TER().corpus_score(HYPOTHESES, REFERENCES)
    assert result.ref_len == result.ref_length


def test_explain_of_wer_and_cer_is_their_alignment():
    for name, cls in [("wer", mtscore.WER), ("cer", mtscore.CER)]:
        explained = mtscore.explain(HYPOTHESES[0], [REFERENCES[0][0]], metric=name)
        assert str(explained) == str(cls().explain([HYPOTHESES[0]], [[REFERENCES[0][0]]]))
    assert "substitutions S = 1" in str(mtscore.explain("a b c", ["a x c"], metric="wer"))


def test_explain_without_metric_is_bleus_tables_as_before():
    assert str(mtscore.explain(HYPOTHESES[0], [REFERENCES[0][0]])) == str(
        mtscore.explain(HYPOTHESES[0], [REFERENCES[0][0]], metric="bleu")
    )
    assert "1-grams  Count  Max_Ref_Count  Count_clip" in str(mtscore.explain(HYPOTHESES[0], [REFERENCES[0][0]]))


@pytest.mark.parametrize("name", ["chrf", "ter", "google_bleu", "meteor", "nist"])
def test_explain_of_a_metric_without_explanation_names_those_that_explain(name):
    with pytest.raises(InputError, match=rf"{name} has no explanation; the metrics that explain are bleu, wer, cer"):
        mtscore.explain(HYPOTHESES[0], [REFERENCES[0][0]], metric=name)


def test_explain_and_tokenize_refuse_unknown_metrics_and_options():
    with pytest.raises(InputError, match="unknown metric 'blue'"):
        mtscore.explain("a", ["a"], metric="blue")
    with pytest.raises(InputError, match="unknown metric 'blue'"):
        mtscore.tokenize("a", metric="blue")
    with pytest.raises(InputError, match="wer has no option lowercase; its options are standardize"):
        mtscore.tokenize("a", metric="wer", lowercase=True)
    with pytest.raises(InputError, match="cer has no option smooth; it has no options"):
        mtscore.explain("a", ["a"], metric="cer", smooth="floor")
    with pytest.raises(InputError, match="BLEU has no option standardize"):
        mtscore.tokenize("a", standardize=True)


def test_tokenize_of_each_metric_is_its_reference_tools():
    assert mtscore.tokenize(LINE) == Tokenizer13a()(LINE)
    assert mtscore.tokenize(LINE, metric="ter") == " ".join(TercomTokenizer()(LINE).split())
    assert mtscore.tokenize(LINE, metric="ter", lowercase=False) == TercomTokenizer(case_sensitive=True)(LINE)
    assert mtscore.tokenize(LINE, metric="google_bleu") == Tokenizer13a()(LINE)
    assert mtscore.tokenize(LINE, metric="gleu", lowercase=True) == Tokenizer13a()(LINE.lower())
    assert mtscore.tokenize(LINE, metric="wer") == " ".join(jiwer.wer_default(LINE)[0])
    assert mtscore.tokenize(LINE, metric="wer", standardize=True) == " ".join(jiwer.wer_standardize(LINE)[0])
    assert mtscore.tokenize(LINE, metric="cer") == " ".join(jiwer.cer_default(LINE)[0])
    # mteval lowercases A-Z only, then tokenizes as 13a; NLTK's METEOR lowercases and splits on whitespace.
    assert mtscore.tokenize(LINE, metric="nist") == Tokenizer13a()(LINE.lower())
    assert mtscore.tokenize(LINE, metric="meteor") == " ".join(LINE.lower().split())


def test_tokenize_of_chrf_names_the_metrics_that_tokenize():
    with pytest.raises(InputError, match="chrf has no tokenisation of a line; the metrics that tokenize are bleu, ter"):
        mtscore.tokenize(LINE, metric="chrf")
    assert "chrf" not in tokenizing_metrics() and set(explaining_metrics()) == {"bleu", "wer", "cer"}
