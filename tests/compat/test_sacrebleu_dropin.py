"""``mtscore.sacrebleu``: sacrebleu 2.6's scoring API, its functions, classes, keywords and
result shapes, with sacrebleu's own numbers and ``format()`` strings (the version in the signature aside)."""

from __future__ import annotations

import pytest
import sacrebleu as theirs
from shared_data import read_lines, references, system_output

import mtscore.sacrebleu as ours
from mtscore.core.signature import tool_version

PAIR, SEGMENTS = "de-en", 300


@pytest.fixture(scope="module")
def data():
    hypotheses = read_lines(system_output(PAIR, "Online-B"))[:SEGMENTS]
    streams = [read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")]
    return hypotheses, streams


def same(got, expected) -> None:
    """The same numbers and the same text (``format()`` has no signature)."""
    assert got.score == pytest.approx(expected.score, abs=1e-9)
    assert got.format() == expected.format()
    for field in ("counts", "totals", "sys_len", "ref_len", "num_edits", "ref_length"):
        if hasattr(expected, field):
            assert getattr(got, field) == pytest.approx(getattr(expected, field), abs=1e-9)


@pytest.mark.parametrize(
    "function, options",
    [
        ("corpus_bleu", {}),
        ("corpus_bleu", {"smooth_method": "floor", "smooth_value": 0.2, "lowercase": True, "tokenize": "intl"}),
        ("corpus_bleu", {"use_effective_order": True, "force": True}),
        ("raw_corpus_bleu", {}),
        ("corpus_chrf", {}),
        ("corpus_chrf", {"word_order": 2, "beta": 3, "remove_whitespace": False}),
        ("corpus_ter", {}),
        ("corpus_ter", {"normalized": True, "no_punct": True, "case_sensitive": True}),
    ],
)
def test_corpus_functions(data, function, options):
    hypotheses, streams = data
    same(
        getattr(ours, function)(hypotheses, streams, **options),
        getattr(theirs, function)(hypotheses, streams, **options),
    )


@pytest.mark.parametrize("function", ["sentence_bleu", "sentence_chrf", "sentence_ter"])
def test_sentence_functions(data, function):
    hypotheses, streams = data
    for i in range(0, SEGMENTS, 37):
        refs = [stream[i] for stream in streams]
        same(getattr(ours, function)(hypotheses[i], refs), getattr(theirs, function)(hypotheses[i], refs))


@pytest.mark.parametrize(
    "name, options",
    [
        ("BLEU", {"max_ngram_order": 3, "smooth_method": "floor", "smooth_value": 0.3}),
        ("BLEU", {"trg_lang": "zh"}),
        ("CHRF", {"word_order": 2}),
        ("TER", {"asian_support": True}),
    ],
)
def test_metric_classes_keywords_and_methods(data, name, options):
    hypotheses, streams = data
    mine, oracle = (
        getattr(ours, name)(references=streams, **options),
        getattr(theirs, name)(references=streams, **options),
    )
    same(mine.corpus_score(hypotheses), oracle.corpus_score(hypotheses, None))
    same(
        mine.sentence_score(hypotheses[3], [s[3] for s in streams]),
        oracle.sentence_score(hypotheses[3], [s[3] for s in streams]),
    )
    # mtscore's signature also records a max order other than 4 (ngram:3); sacrebleu's leaves it out
    versionless = str(mine.get_signature()).replace(tool_version(), "V").replace("|ngram:3", "")
    assert versionless == str(oracle.get_signature()).replace("2.6.0", "V")


def test_add_k_keeps_mtscores_raw_counts(data):
    """The one difference by design: with add-k, sacrebleu's result shows counts and totals with k
    added; mtscore's keep the raw integers. Scores and the text are the same."""
    hypotheses, streams = data
    got = ours.corpus_bleu(hypotheses, streams, "add-k", 2)
    expected = theirs.corpus_bleu(hypotheses, streams, "add-k", 2)
    assert got.score == pytest.approx(expected.score, abs=1e-9) and got.format() == expected.format()
    assert [c + 2 for c in got.counts[1:]] == expected.counts[1:]


def test_bootstrap_confidence_as_sacrebleu(data, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    hypotheses, streams = data
    for name in ("BLEU", "CHRF"):
        got = getattr(ours, name)(references=streams).corpus_score(hypotheses, n_bootstrap=300)
        expected = getattr(theirs, name)(references=streams).corpus_score(hypotheses, None, n_bootstrap=300)
        assert got.format() == expected.format()
