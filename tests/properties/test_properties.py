"""Properties every metric keeps, on generated adversarial text: corpus statistics are the
sum of any split into shards, the corpus score depends neither on the order of the segments nor
(where the metric's rule says so) on the order of the reference streams, and the same input gives
the same score across runs and across threads calling the API at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from helpers import corpora as shared_corpora
from helpers import fixed, references_taken
from hypothesis import given
from hypothesis import strategies as st

from mtscore.metrics import METRICS, metric_class

WORDS = ["the", "The", "cat", "cats", "sat", "on", "mat", ".", ",", "!", "über", "猫", "ab\u0301", "don't", "1.5", "&"]
# Streams are compared one by one and the best kept; on a tie the first stream's statistics stay,
# so only the scores (not the corpus statistics) are independent of the streams' order.
FIRST_OF_TIES = {"chrf", "google_bleu"}


def lines(min_size: int = 0, max_size: int = 12):
    return st.lists(st.sampled_from(WORDS), min_size=min_size, max_size=max_size).map(" ".join)


def corpora(max_segments: int = 8):
    """2 to ``max_segments`` segments and 1-3 reference streams, every reference with a word."""
    return shared_corpora(lines(), max_segments, min_segments=2, missing=False, reference_lines=lines(min_size=1))


def make(name: str):
    return metric_class(name)()


def streams_for(name: str, streams: list[list[str]]) -> list[list[str]]:
    return references_taken(name, streams)


def segment_scores(metric, hypotheses: list[str], streams: list[list[str]]) -> np.ndarray:
    """Every segment's score as floats (BLEU's ``sentence_scores`` gives a result holding them)."""
    result = metric.sentence_scores(hypotheses, streams)
    return np.asarray(getattr(result, "scores", result), dtype=np.float64)


def assert_same_score(got: float, expected: float, integer: bool) -> None:
    if integer:
        assert got == expected
    else:  # float statistics (METEOR's scores, TER's average lengths) summed in another order
        assert got == pytest.approx(expected, rel=0, abs=1e-9)


@pytest.mark.parametrize("name", list(METRICS))
@fixed(max_examples=25)
@given(corpus=corpora(), data=st.data())
def test_statistics_are_the_sum_of_any_split(name, corpus, data):
    """Shards scored against their slice of the references merge into the whole corpus's statistics,
    for every metric whose rows are additive; NIST's rows depend on the whole reference corpus and
    merge only when computed against the same one (its ``aggregation`` is not additive)."""
    hypotheses, streams = corpus[0], streams_for(name, corpus[1])
    metric = make(name)
    k = data.draw(st.integers(1, len(hypotheses) - 1))
    if not metric.aggregation.additive:  # shards against their own references carry other weights: refused
        first = metric.statistics(hypotheses[:k], [s[:k] for s in streams])
        second = metric.statistics(hypotheses[k:], [s[k:] for s in streams])
        if first.references != second.references:
            with pytest.raises(ValueError, match="different reference corpora"):
                first + second
        whole = metric.statistics(hypotheses, streams)  # rows against the full references do merge
        assert whole[:k] + whole[k:] == whole
        return
    whole = metric.statistics(hypotheses, streams)
    shards = metric.statistics(hypotheses[:k], [s[:k] for s in streams]) + metric.statistics(
        hypotheses[k:], [s[k:] for s in streams]
    )
    assert shards == whole
    integer = whole.matrix.dtype.kind == "i"
    assert_same_score(metric.score_statistics(shards).score, metric.corpus_score(hypotheses, streams).score, integer)


@pytest.mark.parametrize("name", list(METRICS))
@fixed(max_examples=25)
@given(corpus=corpora(), seed=st.integers(0, 2**32 - 1))
def test_corpus_score_does_not_depend_on_segment_order(name, corpus, seed):
    hypotheses, streams = corpus[0], streams_for(name, corpus[1])
    order = np.random.default_rng(seed).permutation(len(hypotheses))
    metric = make(name)
    expected = metric.corpus_score(hypotheses, streams).score
    shuffled = metric.corpus_score([hypotheses[i] for i in order], [[s[i] for i in order] for s in streams])
    integer = metric.segment_statistics(hypotheses, streams).dtype.kind == "i"
    assert_same_score(shuffled.score, expected, integer)


@pytest.mark.parametrize("name", [name for name in METRICS if metric_class(name).max_references is None])
@fixed(max_examples=25)
@given(corpus=corpora(), seed=st.integers(0, 2**32 - 1))
def test_scores_do_not_depend_on_reference_stream_order(name, corpus, seed):
    """Every segment's score, and (where a tie keeps no stream's statistics over another's) the
    corpus score, are the same whatever the order of the reference streams."""
    hypotheses, streams = corpus
    order = np.random.default_rng(seed).permutation(len(streams))
    reordered = [streams[i] for i in order]
    metric = make(name)
    np.testing.assert_allclose(
        segment_scores(metric, hypotheses, reordered), segment_scores(metric, hypotheses, streams), rtol=0, atol=1e-9
    )
    if name not in FIRST_OF_TIES:
        expected = metric.corpus_score(hypotheses, streams).score
        assert metric.corpus_score(hypotheses, reordered).score == pytest.approx(expected, rel=0, abs=1e-9)


@pytest.mark.parametrize("name", list(METRICS))
def test_same_input_same_score_across_runs_and_threads(name):
    """Bitwise the same score from fresh objects, from one object shared by 4 threads at once,
    and from 4 threads each with its own object."""
    rng = np.random.default_rng(11)
    hypotheses = [" ".join(rng.choice(WORDS, size=rng.integers(0, 15))) for _ in range(300)]
    streams = [[" ".join(rng.choice(WORDS, size=rng.integers(1, 15))) for _ in range(300)] for _ in range(2)]
    streams = streams_for(name, streams)
    expected = make(name).corpus_score(hypotheses, streams)
    assert make(name).corpus_score(hypotheses, streams) == expected
    shared = metric_class(name)(streams)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: shared.corpus_score(hypotheses).score, range(8)))
        separate = list(pool.map(lambda _: make(name).corpus_score(hypotheses, streams).score, range(8)))
    assert together == separate == [expected.score] * 8


@pytest.mark.parametrize("name", list(METRICS))
def test_every_metric_pickles_with_its_references(name):
    """Engines (Ray, Dask, multiprocessing) send metric objects to workers: each pickles, with its
    prepared references, and scores the same after."""
    import pickle

    hypotheses, streams = ["the cat sat on the mat", "a dog ran"], [["the cat sat on a mat", "the dog ran"]]
    metric = metric_class(name)(streams)
    copy = pickle.loads(pickle.dumps(metric))
    assert copy.corpus_score(hypotheses) == metric.corpus_score(hypotheses)
