"""Google-BLEU on WMT22 equals NLTK's corpus_gleu and sentence_gleu on sacrebleu's tokens: every
segment's [n_match, n_all] exactly, with one and two references, several pairs and options."""

from __future__ import annotations

import pytest
from gleu_oracle import check_against_nltk, evaluate_tokens, nltk_gleu
from shared_data import read_lines, references, system_output

from mtscore.metrics.google_bleu import GoogleBLEU


def corpus(pair: str, system: str, refs: str | None = None) -> tuple[list[str], list[list[str]]]:
    """A system's output and the references (``None``: all of them) of a WMT22 pair."""
    return read_lines(system_output(pair, system)), [read_lines(path) for path in references(pair, refs)]


@pytest.mark.parametrize(
    "pair, system, refs",
    [
        ("en-de", "Online-A", None),  # two references
        ("en-de", "PROMT", "A"),
        ("de-en", "Online-B", None),
        ("cs-en", "Online-W", "C"),
        ("en-zh", "Online-B", None),  # two references, 13a on Chinese as evaluate tokenizes it
        ("en-ru", "Online-G", None),
    ],
)
def test_wmt22_equals_nltk(pair, system, refs):
    hyps, streams = corpus(pair, system, refs)
    check_against_nltk(hyps, streams)


@pytest.mark.parametrize(
    "options",
    [
        {"min_len": 2, "max_len": 4},
        {"min_len": 1, "max_len": 6, "lowercase": True},
        {"min_len": 3, "max_len": 3, "tokenize": "intl"},
        {"tokenize": "none"},
        {"tokenize": "char", "max_len": 2},
    ],
)
def test_wmt22_options_equal_nltk(options):
    hyps, streams = corpus("en-de", "Online-B")
    check_against_nltk(hyps, streams, **options)


def test_wmt22_equals_evaluate():
    """evaluate's google_bleu on the same text: NLTK corpus_gleu on its 13a copy's tokens."""
    hyps, streams = corpus("en-de", "Online-A")
    theirs, _ = nltk_gleu(hyps, streams, tokenizer=evaluate_tokens)
    assert GoogleBLEU(streams).corpus_score(hyps).ratio == theirs


def test_wmt22_several_systems_with_missing_references():
    """Systems counted together equal NLTK one by one; a missing reference is left out of the choice."""
    hyps, streams = corpus("en-de", "Online-A")
    streams[1] = [None if i % 3 == 0 else line for i, line in enumerate(streams[1])]
    systems = [hyps, read_lines(system_output("en-de", "PROMT"))]
    metric = GoogleBLEU(streams)
    for statistics, system in zip(metric.systems_statistics(systems), systems, strict=True):
        _, chosen = nltk_gleu(system, streams)
        assert statistics[statistics[:, 1] > 0].tolist() == chosen.tolist()
