"""A call of a few segments of chrF is counted in plain Python (``metrics.chrf.small``): its statistics,
scores and signature are sacrebleu's and the vectorised engine's, to the last bit."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics.helpers import extract_all_char_ngrams
from shared_data import read_lines, references, system_output

import mtscore
from mtscore.metrics.chrf.small import ARRAY_PAIR_CHARS, SMALL_SEGMENTS, array_statistics, pair_statistics

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


def sacrebleu_statistics(hypothesis: str, reference: str, order: int, whitespace: bool) -> list[int]:
    """sacrebleu's own [hypothesis n-grams, reference n-grams, matches] per order of one pair."""
    hyp = extract_all_char_ngrams(hypothesis, order, whitespace)
    ref = extract_all_char_ngrams(reference, order, whitespace)
    return [value for pair in zip(hyp, ref, strict=True) for value in SacreCHRF._get_match_statistics(*pair)]


@pytest.mark.parametrize("whitespace", [False, True])
def test_every_segment_pairs_statistics_are_sacrebleus_for_every_order(corpus, whitespace):
    """Most WMT22 pairs are long enough for the NumPy count; every order from 1 to 8 is checked."""
    hypotheses, streams = corpus
    for stream in streams:
        for hypothesis, reference in zip(hypotheses, stream, strict=True):
            for order in (1, 2, 6, 8):
                expected = sacrebleu_statistics(hypothesis, reference, order, whitespace)
                assert pair_statistics(hypothesis, reference, order, whitespace) == expected


@pytest.mark.parametrize("hypothesis", TRICKY_LINES)
@pytest.mark.parametrize("reference", TRICKY_LINES)
def test_long_tricky_pairs_are_counted_as_sacrebleu_counts_them(hypothesis, reference):
    """Each line written several times over, so that the pair takes the NumPy count."""
    hypothesis, reference = (line * (1 + ARRAY_PAIR_CHARS // max(len(line), 1)) for line in (hypothesis, reference))
    for whitespace in (False, True):
        expected = sacrebleu_statistics(hypothesis, reference, 6, whitespace)
        assert pair_statistics(hypothesis, reference, 6, whitespace) == expected


def test_a_pair_with_more_characters_than_an_int64_code_holds_is_counted_with_dictionaries():
    """1,100 distinct characters need 11 bits each, 66 bits for a 6-gram: no NumPy count, same numbers."""
    hypothesis = "".join(map(chr, range(0x4E00, 0x4E00 + 1100)))
    reference = hypothesis[::-1] + hypothesis[:300]
    assert array_statistics(hypothesis, reference, 6) is None
    assert pair_statistics(hypothesis, reference, 6, False) == sacrebleu_statistics(hypothesis, reference, 6, False)
    assert array_statistics(hypothesis, reference, 5) is not None  # 55 bits fit
    assert pair_statistics(hypothesis, reference, 5, False) == sacrebleu_statistics(hypothesis, reference, 5, False)


def test_an_order_longer_than_both_lines_counts_nothing_for_it():
    """Two distinct characters take 2 bits: order 31 still fits in 62 bits, and lines of 30 have none of it."""
    hypothesis, reference = "a" * 30, "ab" * 15
    expected = sacrebleu_statistics(hypothesis, reference, 31, False)
    assert array_statistics(hypothesis, reference, 31) == expected
    assert expected[-3:] == [0, 0, 0]
