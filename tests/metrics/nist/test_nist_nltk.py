"""The ``nltk`` variant against NLTK 3.10's ``corpus_nist`` and ``sentence_nist`` (the oracle, fed
our tokens): every WMT22 en-de system with two references, generated corpora with repeated tokens,
the token ``0``, empty lines and several references, and references that tie as real numbers but
not in NLTK's float arithmetic, to 1e-9."""

from __future__ import annotations

import math

import numpy as np
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


EN_DE = [
    "JDExploreAcademy",
    "Lan-Bridge",
    "Online-A",
    "Online-B",
    "Online-G",
    "Online-W",
    "Online-Y",
    "OpenNMT",
    "PROMT",
]


@pytest.fixture(scope="module")
def en_de():
    """WMT22 en-de's two references, the metric on them (case kept: NLTK gets our 13a tokens as they
    are), and the references' tokens per segment as NLTK takes them."""
    streams = [read_lines(path) for path in references("en-de", "all")]
    metric = NIST(streams, variant="nltk", lowercase=False)
    tokenized = [metric.tokenizer.batch(stream) for stream in streams]
    return streams, metric, tokenized


@pytest.mark.parametrize("system", EN_DE)
def test_wmt22_en_de_every_system(en_de, system: str) -> None:
    """JDExploreAcademy, Online-B and PROMT have references whose information sums are equal as
    real numbers and differ only in NLTK's float rounding (segments 1191, 1413, 1427; 628): NLTK's
    pick follows that rounding, and so must ours."""
    _, metric, tokenized = en_de
    hypotheses = read_lines(system_output("en-de", system))
    expected = _nltk_corpus(metric.tokenizer.batch(hypotheses), tokenized)
    assert metric.corpus_score(hypotheses).score == pytest.approx(expected, abs=TOLERANCE)


def test_wmt22_en_de_sentence_nist(en_de) -> None:
    streams, metric, tokenized = en_de
    hypotheses = read_lines(system_output("en-de", "Online-A"))
    for i in range(0, len(hypotheses), 101):  # sentence_nist: a corpus of one segment
        if len(metric.tokenizer(hypotheses[i]).split()) < metric.max_order:
            continue  # NLTK divides by zero without 5-grams
        ours = metric.sentence_score(hypotheses[i], [stream[i] for stream in streams]).score
        theirs = nist_score.sentence_nist(
            [stream[i].split() for stream in tokenized], metric.tokenizer(hypotheses[i]).split()
        )
        assert ours == pytest.approx(theirs, abs=TOLERANCE)


# Two references overlapping the hypothesis in different words whose information sums are equal as
# reals: a, b, c (counts 1, 2, 4 of 20 reference words) in the first, d, e, f (counts 2, 4, 1) in
# the second. NLTK adds log2(20) + log2(10) + log2(5) for the first and log2(10) + log2(5) + log2(20)
# for the second (the hypothesis's order), which differ in the last bit; the reference NLTK picks
# changes the reference length and so the brevity penalty. A tolerance that calls them tied (and
# prefers the longer reference) gives 0.0805 instead of 0.1336.
NEAR_TIE_HYPS = ["a b c d e f", ""]
NEAR_TIE_REFS = [["a b c g g h", "b c c c d e e e"], ["d e f g g", "i"]]


def test_references_tied_as_reals_but_not_as_floats() -> None:
    first = math.log(20 / 1, 2) + math.log(20 / 2, 2) + math.log(20 / 4, 2)
    second = math.log(20 / 2, 2) + math.log(20 / 4, 2) + math.log(20 / 1, 2)
    assert first != second and abs(first - second) < 1e-12 * first  # a tie within 1e-12, not a float tie
    # Both reference orders, and the hypothesis both ways round (which reverses NLTK's sums).
    for streams in (NEAR_TIE_REFS, NEAR_TIE_REFS[::-1]):
        for hyps in (NEAR_TIE_HYPS, ["f e d c b a", ""]):
            theirs = nist_score.corpus_nist(
                [[r.split() for r in refs] for refs in zip(*streams, strict=True)], [h.split() for h in hyps], n=1
            )
            ours = corpus_nist(hyps, streams, variant="nltk", lowercase=False, tokenize="none", max_order=1)
            assert ours.score == pytest.approx(theirs, abs=TOLERANCE)


@fixed(max_examples=300)
@given(st.data())
def test_generated_corpora(data) -> None:
    n = data.draw(st.integers(1, 4))
    k = data.draw(st.integers(1, 3))
    hypotheses = data.draw(st.lists(WORDS, min_size=n, max_size=n))
    streams = [data.draw(st.lists(WORDS, min_size=n, max_size=n)) for _ in range(k)]
    expected = _nltk_corpus(hypotheses, streams)
    score = corpus_nist(hypotheses, streams, variant="nltk", lowercase=False, tokenize="none").score
    if expected is None:  # NLTK divides by zero; we count an order without n-grams as 0 (mteval's rule)
        assert score == score and score >= 0
    else:
        assert score == pytest.approx(expected, abs=TOLERANCE)


def test_sentence_nist_is_a_corpus_of_one() -> None:
    refs = ["the cat sat on the mat", "a cat was on the mat"]
    score = sentence_nist("the cat sat on a mat", refs, variant="nltk", lowercase=False).score
    expected = nist_score.sentence_nist([r.split() for r in refs], "the cat sat on a mat".split())
    assert score == pytest.approx(expected, abs=TOLERANCE)
    # The segment scores of sentence_nists use the whole corpus's weights instead.
    streams = [[refs[0], "something else entirely"], [refs[1], "else"]]
    segment = sentence_nists(["the cat sat on a mat", "else"], streams, variant="nltk")[0]
    assert segment != pytest.approx(score)


def _nltk_choices(hypotheses, streams, n: int = 5) -> list:
    """Per order and segment, the (precision, numerator, denominator, reference length) that NLTK's
    ``corpus_nist`` picks (its ``max`` over the segment's references; ``None`` marks a missing one)."""
    chosen: list = []

    def recording_max(*args, **kwargs):
        result = max(*args, **kwargs)
        if isinstance(args[0], list):  # not the brevity penalty's max of two numbers
            chosen.append(result)
        return result

    references = [[r.split() for r in refs if r is not None] for refs in zip(*streams, strict=True)]
    nist_score.max = recording_max  # a module global shadows the builtin inside corpus_nist
    try:
        nist_score.corpus_nist(references, [h.split() for h in hypotheses], n=n)
    except ZeroDivisionError:  # an order without n-grams, after every choice was made
        pass
    finally:
        del nist_score.max
    return chosen


def _check_choices(hypotheses, streams, **options) -> None:
    """Our rows hold, per segment and order, the numerator of NLTK's pick (to 1e-12), and the sum of
    its picks' reference lengths (exactly): a wrong pick among near-ties changes the length."""
    metric = NIST(streams, variant="nltk", lowercase=False, **options)
    rows = np.asarray(metric.segment_statistics(hypotheses))
    n, big_n = len(hypotheses), metric.max_order
    chosen = np.array(_nltk_choices(hypotheses, streams, big_n), dtype=np.float64).reshape(big_n, n, 4)
    np.testing.assert_allclose(rows[:, 2 * big_n : 3 * big_n], chosen[:, :, 1].T, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(rows[:, -1], chosen[:, :, 3].sum(axis=0))


@pytest.mark.parametrize("system", ["JDExploreAcademy", "Online-B", "PROMT"])
def test_wmt22_en_de_picks_nltks_reference_in_every_cell(en_de, system: str) -> None:
    """Each (segment, order)'s pick among two references, near-ties included (most add the same
    non-zero terms in the same order: other n-grams of equal weights, or of weight 0)."""
    _, metric, tokenized = en_de
    hypotheses = [" ".join(line.split()) for line in metric.tokenizer.batch(read_lines(system_output("en-de", system)))]
    _check_choices(hypotheses, [[" ".join(line.split()) for line in stream] for stream in tokenized], tokenize="none")


# Few words and short lines: references overlap a hypothesis in other n-grams of equal weight, or of
# weight 0 (an n-gram as frequent as its prefix), in the same or another order, very often.
TIE_WORDS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=7).map(" ".join)


@fixed(max_examples=300)
@given(st.data())
def test_generated_near_ties_pick_nltks_reference(data) -> None:
    n = data.draw(st.integers(1, 5))
    k = data.draw(st.integers(1, 4))
    hypotheses = data.draw(st.lists(TIE_WORDS, min_size=n, max_size=n))
    streams = [data.draw(st.lists(TIE_WORDS | st.none(), min_size=n, max_size=n)) for _ in range(k)]
    for i in range(n):  # every segment keeps one reference at least
        if all(stream[i] is None for stream in streams):
            streams[0][i] = data.draw(TIE_WORDS)
    _check_choices(hypotheses, streams, tokenize="none")
