"""chrF and chrF++ counted chunk by chunk stay exact: against sacrebleu 2.6.0 with chunks of any size (many chunk
boundaries, later sorts over the pruned positions of wide vocabularies), on 40,000 WMT22 segments of English,
Chinese and Japanese targets, and with two references of a Chinese target.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
sacrebleu = pytest.importorskip("sacrebleu")

from helpers import corpora as shared_corpora  # noqa: E402
from helpers import fixed  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402
from shared_data import read_lines, references, wmt22_dir  # noqa: E402

from mtscore.errors import InputError  # noqa: E402
from mtscore.metrics.chrf import CHRF, ngrams  # noqa: E402
from mtscore.metrics.chrf.ngrams import key_passes  # noqa: E402

# Letters of a narrow and of a wide alphabet (the wide one takes more than one sort), spaces and punctuation.
PIECES = st.one_of(
    st.sampled_from(list("abcab ")),
    st.sampled_from([chr(code) for code in range(0x4E00, 0x4E00 + 3000, 7)]),
    st.sampled_from(list(".,(!")),
    st.just(" "),
)
LINES = st.lists(PIECES, max_size=30).map("".join)


def sacre_statistics(hypotheses, streams, **options) -> np.ndarray:
    rows = SacreCHRF(**options)._extract_corpus_statistics(hypotheses, streams)
    return np.array(rows, dtype=np.int64).reshape(len(hypotheses), -1)


@st.composite
def corpora(draw):
    """(hypotheses, one or two reference streams), many segments sharing n-grams, some empty."""
    hypotheses, streams = draw(shared_corpora(LINES, max_segments=12, max_streams=2, missing=False))
    n_segments = len(hypotheses)
    copied = [draw(st.lists(st.booleans(), min_size=n_segments, max_size=n_segments)) for _ in streams]
    streams = [
        [hyp if copy else ref for hyp, ref, copy in zip(hypotheses, stream, flags, strict=True)]
        for stream, flags in zip(streams, copied, strict=True)
    ]
    return hypotheses, streams


@fixed(max_examples=150)
@given(
    corpus=corpora(),
    chunk=st.integers(1, 80),
    char_order=st.integers(1, 9),
    word_order=st.sampled_from([0, 2, 3]),
    whitespace=st.booleans(),
)
def test_any_chunk_size_matches_sacrebleu(corpus, chunk, char_order, word_order, whitespace):
    """Chunks of a few positions: every segment boundary is a chunk boundary somewhere."""
    hypotheses, streams = corpus
    options = {"char_order": char_order, "word_order": word_order, "whitespace": whitespace}
    with mock.patch.object(ngrams, "CHUNK_POSITIONS", chunk):
        statistics = CHRF(**options).segment_statistics(hypotheses, streams)
    assert np.array_equal(statistics, sacre_statistics(hypotheses, streams, **options))


def test_key_passes():
    """Narrow symbols take one sort; wide ones (Chinese characters, a large word vocabulary) take more, each
    within 63 bits; symbols too wide for any key are refused."""
    assert key_passes(134, 6, 200, 1 << 15) == [(0, 6)]
    assert key_passes(2233, 6, 500, 1 << 15) == [(0, 3), (3, 6)]
    assert key_passes(40_000, 2, 900, 1 << 15) == [(0, 2)]
    assert len(key_passes(1 << 30, 4, 900, 1 << 15)) == 4
    with pytest.raises(InputError, match="too many"):
        key_passes(1 << 50, 2, 900, 1 << 15)


def _pairs_of(pair: str) -> list[tuple[list[str], list[str]]]:
    """Every system output of ``pair`` with each of its references, as (hypotheses, references)."""
    folder = wmt22_dir() / "txt" / "system-outputs"
    refs = [read_lines(path) for path in references(pair)]
    outputs = sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))
    return [(read_lines(path), ref) for path in outputs for ref in refs]


def _sample(pairs: list[str], size: int, seed: int) -> tuple[list[str], list[str]]:
    """``size`` (hypothesis, reference) segments drawn from every system and reference of ``pairs``."""
    hypotheses, refs = [], []
    for pair in pairs:
        for hyp, ref in _pairs_of(pair):
            hypotheses += hyp
            refs += ref
    chosen = np.random.default_rng(seed).choice(len(hypotheses), size, replace=len(hypotheses) < size)
    return [hypotheses[i] for i in chosen], [refs[i] for i in chosen]


def _into_english() -> list[str]:
    """Every pair into English that has references."""
    names = (wmt22_dir() / "txt" / "references").glob("generaltest2022.*-en.ref.*")
    return sorted({path.name.split(".")[1] for path in names})


@pytest.fixture(scope="module", params=["into-English", "en-zh", "en-ja"])
def sample_40k(request):
    """40,000 segments drawn from every system and reference of the pairs into English (workload B's), of
    en-zh or of en-ja."""
    wmt22_dir()
    return _sample(_into_english() if request.param == "into-English" else [request.param], 40_000, seed=17)


@pytest.mark.parametrize("word_order", [0, 2])
def test_wmt22_40k_segments(sample_40k, word_order):
    """On 40,000 segments (a few hundred chunks) the statistics of 2,000 segments drawn from all of them equal
    sacrebleu's for those segments, and the corpus score is the formula of their sums."""
    hypotheses, refs = sample_40k
    metric = CHRF(word_order=word_order)
    statistics = metric.segment_statistics(hypotheses, [refs])
    rows = np.random.default_rng(word_order).choice(len(hypotheses), 2000, replace=False)
    expected = sacre_statistics([hypotheses[i] for i in rows], [[refs[i] for i in rows]], word_order=word_order)
    assert np.array_equal(statistics[rows], expected)
    theirs = SacreCHRF(word_order=word_order)._compute_score_from_stats(statistics.sum(axis=0).tolist()).score
    assert metric.corpus_score(hypotheses, [refs]).score == theirs


@pytest.mark.parametrize("word_order", [0, 2])
def test_wmt22_chinese_two_references_small_chunks(word_order):
    """Three en-zh systems against both references, in chunks of 2,048 positions: statistics and corpus
    score equal sacrebleu's (the best reference per segment, later sorts over pruned positions)."""
    wmt22_dir()
    folder = wmt22_dir() / "txt" / "system-outputs"
    outputs = sorted(folder.glob("generaltest2022.en-zh.hyp.*"))[:3]
    hypotheses = [line for path in outputs for line in read_lines(path)]
    streams = [read_lines(path) * len(outputs) for path in references("en-zh")]
    with mock.patch.object(ngrams, "CHUNK_POSITIONS", 2048):
        metric = CHRF(word_order=word_order)
        statistics = metric.segment_statistics(hypotheses, streams)
        score = metric.corpus_score(hypotheses, streams).score
    assert np.array_equal(statistics, sacre_statistics(hypotheses, streams, word_order=word_order))
    assert score == SacreCHRF(word_order=word_order).corpus_score(hypotheses, streams).score


@pytest.mark.parametrize("long_words", [False, True])
def test_words_keyed_or_numbered_by_bytes(long_words):
    """chrF++'s words are keyed (short on average) or numbered by their bytes (long on average: a language
    written without spaces); either way hypothesis words, known or not, and split punctuation count as sacrebleu's."""
    if long_words:
        hypotheses = ["今日は良い天気ですね。明日も晴れるでしょう", "(東京都の人口は約千四百万人です).", "x"]
        refs = ["今日は良い天気ですね。明日は雨でしょう", "東京都の人口は約千四百万人です).", "y."]
    else:
        hypotheses = ["the cat sat on the mat.", "(a) dog, barked!", "x"]
        refs = ["the cat sat on a mat.", "a (dog) barked !", "y."]
    metric = CHRF([refs], word_order=2)
    assert metric._references.ngrams[1].vocabulary.by_bytes == long_words
    statistics = metric.segment_statistics(hypotheses)
    assert np.array_equal(statistics, sacre_statistics(hypotheses, [refs], word_order=2))
