"""The ``nltk`` variant against NLTK 3.10's ``corpus_nist`` and ``sentence_nist`` (the oracle, fed
our tokens): WMT22 en-de with two references, and generated corpora with repeated tokens, the
token ``0``, empty lines and several references, to 1e-9."""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis")
nist_score = pytest.importorskip("nltk.translate.nist_score")

from helpers import fixed  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from shared_data import read_lines, references, system_output  # noqa: E402

from mtscore.metrics.nist import NIST, corpus_nist, sentence_nist, sentence_nists  # noqa: E402

TOLERANCE = 1e-9
WORDS = st.lists(st.sampled_from(["a", "b", "c", "0", "A", "."]), max_size=8).map(" ".join)


def _nltk_corpus(hypotheses, streams):
    """NLTK's corpus_nist on whitespace tokens; None where NLTK divides by zero (no n-grams of an order)."""
    try:
        return nist_score.corpus_nist(
            [[r.split() for r in refs] for refs in zip(*streams, strict=True)], [h.split() for h in hypotheses]
        )
    except ZeroDivisionError:
        return None


def test_wmt22_en_de_two_references() -> None:
    streams = [read_lines(path) for path in references("en-de", "all")]
    hypotheses = read_lines(system_output("en-de", "Online-A"))
    metric = NIST(streams, variant="nltk", case_sensitive=True)
    tokenized = [metric.tokenizer.batch(stream) for stream in streams]
    expected = _nltk_corpus(metric.tokenizer.batch(hypotheses), tokenized)
    assert metric.corpus_score(hypotheses).score == pytest.approx(expected, abs=TOLERANCE)
    for i in range(0, len(hypotheses), 101):  # sentence_nist: a corpus of one segment
        if len(metric.tokenizer(hypotheses[i]).split()) < metric.max_order:
            continue  # NLTK divides by zero without 5-grams
        ours = metric.sentence_score(hypotheses[i], [stream[i] for stream in streams]).score
        theirs = nist_score.sentence_nist(
            [stream[i].split() for stream in tokenized], metric.tokenizer(hypotheses[i]).split()
        )
        assert ours == pytest.approx(theirs, abs=TOLERANCE)


@fixed(max_examples=300)
@given(st.data())
def test_generated_corpora(data) -> None:
    n = data.draw(st.integers(1, 4))
    k = data.draw(st.integers(1, 3))
    hypotheses = data.draw(st.lists(WORDS, min_size=n, max_size=n))
    streams = [data.draw(st.lists(WORDS, min_size=n, max_size=n)) for _ in range(k)]
    expected = _nltk_corpus(hypotheses, streams)
    score = corpus_nist(hypotheses, streams, variant="nltk", case_sensitive=True, tokenize="none").score
    if expected is None:  # NLTK divides by zero; we count an order without n-grams as 0 (mteval's rule)
        assert score == score and score >= 0
    else:
        assert score == pytest.approx(expected, abs=TOLERANCE)


def test_sentence_nist_is_a_corpus_of_one() -> None:
    refs = ["the cat sat on the mat", "a cat was on the mat"]
    score = sentence_nist("the cat sat on a mat", refs, variant="nltk", case_sensitive=True).score
    expected = nist_score.sentence_nist([r.split() for r in refs], "the cat sat on a mat".split())
    assert score == pytest.approx(expected, abs=TOLERANCE)
    # The segment scores of sentence_nists use the whole corpus's weights instead.
    streams = [[refs[0], "something else entirely"], [refs[1], "else"]]
    segment = sentence_nists(["the cat sat on a mat", "else"], streams, variant="nltk")[0]
    assert segment != pytest.approx(score)
