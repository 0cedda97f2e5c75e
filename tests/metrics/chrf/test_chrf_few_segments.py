"""A call of a few segments of chrF is counted in plain Python (``metrics.chrf.small``): its statistics,
scores and signature are sacrebleu's and the vectorised engine's, to the last bit."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF
from shared_data import read_lines, references, system_output

import mtscore
from mtscore.metrics.chrf.small import SMALL_SEGMENTS

TRICKY_LINES = [
    "",
    "   ",
    "a",
    "aaaaaaa aaaa",
    "no\u00a0break \u2028line\u2029para \x1cfile\x1dgroup \x85next \u3000ideographic\ttab",
    "lone \ud800 surrogate \udfff",
    "İstanbul ΣΊΣΥΦΟΣ Straße",
    "漢字とかなの文 🙂👍🏽",
]


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output("de-en", "Online-B"))
    return hypotheses, [read_lines(path) for path in references("de-en", "all")]


@pytest.mark.parametrize(
    "options",
    [{}, {"lowercase": True}, {"whitespace": True}, {"beta": 1}, {"beta": 0.5, "char_order": 3}],
)
def test_every_segments_sentence_chrf_is_sacrebleus_with_two_references(corpus, options):
    hypotheses, streams = corpus
    theirs = {"lowercase": False, "whitespace": False, "beta": 2, "char_order": 6} | options
    oracle = SacreCHRF(**theirs)
    for index, hypothesis in enumerate(hypotheses):
        refs = [stream[index] for stream in streams]
        ours = mtscore.sentence_chrf(hypothesis, refs, **options)
        assert ours.score == oracle.sentence_score(hypothesis, refs).score


def test_one_segment_corpus_chrf_is_sacrebleus_with_one_reference(corpus):
    hypotheses, streams = corpus
    for hypothesis, reference in zip(hypotheses, streams[0], strict=True):
        ours = mtscore.corpus_chrf([hypothesis], [[reference]])
        assert ours.score == SacreCHRF().corpus_score([hypothesis], [[reference]]).score


@pytest.mark.parametrize("size", [1, SMALL_SEGMENTS, SMALL_SEGMENTS + 1])
def test_a_few_segments_score_as_the_vectorised_engine(corpus, size):
    """References given at creation take the vectorised path; given with the call, the small one up to
    ``SMALL_SEGMENTS``."""
    hypotheses, streams = corpus
    for start in range(0, 200, size):
        chunk = hypotheses[start : start + size]
        refs = [stream[start : start + size] for stream in streams]
        ours = mtscore.corpus_chrf(chunk, refs)
        engine = mtscore.CHRF(refs).corpus_score(chunk)
        assert (ours.score, str(ours.signature)) == (engine.score, str(engine.signature))
        assert ours.score == SacreCHRF().corpus_score(chunk, refs).score
        assert mtscore.sentence_chrfs(chunk, refs).tolist() == mtscore.CHRF(refs).sentence_scores(chunk).tolist()


def test_missing_references_give_the_vectorised_engines_result_and_signature():
    hypotheses = ["the cat sat on the mat", "a dog barked", "it rained all day"]
    refs = [["the cat sat on a mat", None, "it rained all day long"], [None, "the dog barked", "rain all day"]]
    ours = mtscore.corpus_chrf(hypotheses, refs)
    engine = mtscore.CHRF(refs).corpus_score(hypotheses)
    assert (ours.score, str(ours.signature)) == (engine.score, str(engine.signature))
    assert ours.signature.info["nrefs"] == "var"


def test_a_segment_without_any_reference_is_refused_as_before():
    with pytest.raises(mtscore.InputError, match="segment 0 has no reference"):
        mtscore.corpus_chrf(["a"], [[None]])


@pytest.mark.parametrize("hypothesis", TRICKY_LINES)
@pytest.mark.parametrize("reference", TRICKY_LINES)
def test_tricky_lines_score_as_sacrebleu_and_the_engine(hypothesis, reference):
    for whitespace in (False, True):
        ours = mtscore.sentence_chrf(hypothesis, [reference], whitespace=whitespace)
        assert ours.score == SacreCHRF(whitespace=whitespace).sentence_score(hypothesis, [reference]).score
        engine = mtscore.CHRF([[reference]], whitespace=whitespace).corpus_score([hypothesis])
        assert ours.score == engine.score
