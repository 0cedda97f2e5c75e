"""The comparison report's analyses against independent computations: clipped n-gram counts
against plain Counters, bucket scores against the metrics' own corpus scores of the same
segments, word F-measure against a per-word loop, the fate of each n-gram against the explain
tables' Count and Max_Ref_Count."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st

from mtscore.metrics import metric_class
from mtscore.report.compare.buckets import (
    Resamples,
    assign,
    histogram,
    labels_of,
    scores_by_bucket,
    word_f_measure,
)
from mtscore.report.compare.ngrams import CLIPPED, MATCHED, UNMATCHED, clipped_counts, contrast, fates
from mtscore.report.compare.tokens import encode

WORDS = st.sampled_from("a b c d the cat , .".split())
LINE = st.lists(WORDS, max_size=9)


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _clipped_oracle(system: list[list[str]], references: list[list[list[str]]], max_order: int) -> Counter:
    total: Counter = Counter()
    for index, hypothesis in enumerate(system):
        for n in range(1, max_order + 1):
            in_refs = [_ngrams(ref[index], n) for ref in references]
            for ngram, count in _ngrams(hypothesis, n).items():
                total[ngram] += min(count, max(ref[ngram] for ref in in_refs))
    return +total


@fixed(max_examples=60)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(*(st.lists(LINE, min_size=n, max_size=n) for _ in range(5)))))
def test_clipped_counts_equal_counters(streams):
    systems, references = list(streams[:3]), list(streams[3:])
    counts = clipped_counts(encode(systems + references), len(systems), 4)
    for index, system in enumerate(systems):
        found = {
            tuple(counts.text(c).split()): int(counts.counts[index, c]) for c in np.flatnonzero(counts.counts[index])
        }
        assert found == _clipped_oracle(system, references, 4)


def test_contrast_ranks_what_one_system_matches_more():
    references = [[["the", "cat", "sat"], ["a", "dog", "ran"]]]
    systems = [[["the", "cat", "sat"], ["a", "cow", "ran"]], [["the", "cow", "sat"], ["a", "dog", "ran"]]]
    counts = clipped_counts(encode(systems + references), len(systems), 2)
    result = contrast(counts, 0, 1, top=2)
    assert result.more[0] in {("cat", 1, 0), ("the cat", 1, 0), ("cat sat", 1, 0)}
    assert {row[0] for row in result.fewer} <= {"dog", "a dog", "dog ran"}
    assert all(a == 0 and b == 1 for _, a, b in result.fewer)


def test_fates_follow_count_and_max_ref_count():
    # "the" three times in the hypothesis, at most twice in a reference: the third is clipped away.
    hypothesis = "the the the cat".split()
    references = ["the cat the".split(), "the the".split()]
    result = fates(hypothesis, references, 2)
    assert result[0] == [MATCHED, MATCHED, CLIPPED, MATCHED]
    # "the the" is in the second reference once; "the cat" once in the first.
    assert result[1] == [MATCHED, CLIPPED, MATCHED]
    assert fates(["dog"], [["cat"]], 1) == [[UNMATCHED]]


@pytest.fixture(scope="module")
def corpus():
    rng = np.random.default_rng(7)
    vocabulary = "the a cat dog sat ran on mat , .".split()
    references = [[" ".join(rng.choice(vocabulary, rng.integers(1, 12))) for _ in range(60)] for _ in range(2)]
    systems = [[" ".join(rng.choice(vocabulary, rng.integers(0, 12))) for _ in range(60)] for _ in range(2)]
    return references, systems


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_bucket_score_is_the_corpus_score_of_its_segments(corpus, name):
    references, systems = corpus
    metric = metric_class(name)(references)
    statistics = metric.systems_statistics(systems)
    buckets = [np.arange(60) % 3, (np.arange(60) // 7) % 3]
    (table,) = scores_by_bucket([metric], [statistics], buckets, ["x", "y", "z"], Resamples(60, 200, 1), "t", "n")
    for system, hypotheses in enumerate(systems):
        for bucket in range(3):
            rows = np.flatnonzero(buckets[system] == bucket)
            expected = metric_class(name)([[ref[i] for i in rows] for ref in references]).corpus_score(
                [hypotheses[i] for i in rows]
            )
            assert table.values[system, bucket] == pytest.approx(expected.score, abs=1e-9)
            assert table.counts[system, bucket] == len(rows)
            assert table.lower[system, bucket] <= table.upper[system, bucket]


def test_resamples_drawn_again_equal_resamples_kept(monkeypatch):
    matrix = np.arange(40.0).reshape(20, 2)
    kept = Resamples(20, 50, 3).sums(matrix)
    monkeypatch.setattr(Resamples, "KEEP_BYTES", 0)
    assert np.array_equal(Resamples(20, 50, 3).sums(matrix), kept)
    assert kept.shape == (50, 2) and np.all(kept.sum(axis=1) > 0)


def test_histogram_counts_each_segment_once():
    scores = [np.array([0.0, 9.9, 10.0, 55.0, 100.0, 95.0]), np.array([50.0] * 6)]
    table = histogram(scores, (10, 50, 90), Resamples(6, 100, 0), "h")
    assert table.labels == labels_of((10, 50, 90)) == ["<10", "10-50", "50-90", ">=90"]
    assert table.counts.tolist() == [[2, 1, 1, 2], [0, 0, 6, 0]]
    assert np.all(table.lower <= table.upper)
    # every resample of the second system has its six segments in one bucket
    assert table.lower[1].tolist() == table.upper[1].tolist() == [0, 0, 6, 0]


def test_assign_puts_edges_in_the_upper_bucket():
    assert assign(np.array([0, 9.99, 10, 19, 20, 1000]), (10, 20)).tolist() == [0, 0, 1, 1, 2, 2]


def _word_f_oracle(hypotheses, reference, low, high):
    """F-measure in percent of words whose reference-corpus frequency is in [low, high)."""
    frequency = Counter(word for line in reference for word in line)
    matches = hyp = ref = 0
    for h, r in zip(hypotheses, reference, strict=True):
        in_ref = Counter(r)
        for word in h:
            if low <= frequency[word] < high:
                hyp += 1
                if in_ref[word] > 0:
                    in_ref[word] -= 1
                    matches += 1
        ref += sum(1 for word in r if low <= frequency[word] < high)
    return 200 * matches / (hyp + ref) if hyp + ref else float("nan")


@fixed(max_examples=40)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(*(st.lists(LINE, min_size=n, max_size=n) for _ in range(3)))))
def test_word_f_measure_equals_a_word_loop(streams):
    reference, systems = streams[0], list(streams[1:])
    table = word_f_measure(encode([*systems, reference]), len(systems), Resamples(len(reference), 20, 0))
    bounds = [(0, 1), (1, 2), (2, 3), (3, 5), (5, 10), (10, 100), (100, 1000), (1000, 10**9)]
    for system, hypotheses in enumerate(systems):
        for bucket, (low, high) in enumerate(bounds):
            expected = _word_f_oracle(hypotheses, reference, low, high)
            got = table.values[system, bucket]
            assert (np.isnan(expected) and np.isnan(got)) or got == pytest.approx(expected, abs=1e-9)
