"""The comparison report's analyses against independent computations: clipped n-gram counts
against plain Counters, bucket scores against the metrics' own corpus scores of the same
segments, word F-measure against a per-word loop, the fate of each n-gram against the explain
tables' Count and Max_Ref_Count; characteristic n-grams listed without their own pieces, chart
axes that show small differences, and examples that show each distinct text once."""

from __future__ import annotations

import re
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
from mtscore.report.compare.svg import axis, grouped_bars
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


def test_contrast_lists_no_ngram_inside_a_longer_listed_one():
    """System 0 alone gets the phrase "we have contacted you" right, so every piece of it is
    characteristic; listed once, as the longest n-gram, with no piece of it beside it."""
    phrase = "we have contacted you".split()
    references = [[[*phrase, "today"], ["the", "cat"], ["a", "dog", "sat"]]]
    systems = [
        [[*phrase, "today"], ["the", "dog"], ["a", "cat", "sat"]],
        [["they", "had", "called", "us", "today"], ["the", "cat"], ["a", "dog", "sat"]],
    ]
    counts = clipped_counts(encode([*systems, *references]), 2, 4)
    more = [row[0] for row in contrast(counts, 0, 1, top=15).more]
    assert more[0] == "we have contacted you"
    for shorter in more:
        for longer in more:
            assert shorter == longer or f" {shorter} " not in f" {longer} ", (shorter, longer)
    assert not {"we", "have contacted", "we have contacted", "contacted you"} & set(more)


def test_contrast_keeps_ranking_order_and_length():
    rng = np.random.default_rng(3)
    vocabulary = list("abcdefgh")
    references = [[list(rng.choice(vocabulary, 8)) for _ in range(40)]]
    systems = [[list(rng.choice(vocabulary, 8)) for _ in range(40)] for _ in range(2)]
    counts = clipped_counts(encode([*systems, *references]), 2, 4)
    result = contrast(counts, 0, 1, top=6)
    for rows in (result.more, result.fewer):
        assert len(rows) == 6 and len({text for text, _, _ in rows}) == 6
        texts = [f" {text} " for text, _, _ in rows]
        assert not any(a != b and a in b for a in texts for b in texts)
    ratios = [(a + 1) / (a + b + 2) for _, a, b in result.more]
    assert ratios == sorted(ratios, reverse=True)


def test_axis_starts_near_close_scores_and_says_so():
    ticks = axis(47.5, 53.1)  # 52.3 against 48.4 with their intervals
    assert 40 < ticks[0] < 47.5 <= 53.1 <= ticks[-1] and len(ticks) <= 8
    chart = grouped_bars(["BLEU"], ["a", "b"], np.array([[48.4], [52.3]]), np.array([[47.5], [51.4]]),
                         np.array([[49.3], [53.1]]), "BLEU")  # fmt: skip
    assert f"axis starts at {ticks[0]:g}, not 0" in chart
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([0-9.]+)"', chart)]
    assert heights[1] > 2 * heights[0]  # a 4-point difference is visible


def test_axis_starts_at_zero_when_the_data_reach_down_to_it():
    assert axis(10.0, 60.0)[0] == 0 and axis(0.0, 0.4)[0] == 0
    assert axis(-3.0, 5.0)[0] <= -3 and axis(-3.0, 5.0)[-1] >= 5
    assert "axis starts at" not in grouped_bars(["x"], ["a"], np.array([[12.0]]), label="F")


def _inputs(sources, references, hypotheses):
    from mtscore.report.compare.analysis import Inputs

    return Inputs(["base", "other"], hypotheses, [references], sources)


def test_examples_show_each_text_once_with_where_it_recurs():
    from mtscore import BLEU
    from mtscore.report.compare.analysis import analyse

    long_ref = "the cat sat on the mat near the door"
    references = [long_ref, "a b c d e f", long_ref, "tiny", long_ref, "one two three four five six"]
    base = ["the cat sat on a mat by the door", "a b x d e f", "the cat sat on a mat by the door", "tiny",
            "the cat sat on a mat by the door", "one two three four five six"]  # fmt: skip
    other = ["a dog sat on the mat near the door", "a b c d e f", "a dog sat on the mat near the door", "big",
             "a dog sat on the mat near the door", "one two three"]  # fmt: skip
    sources = [f"source {i}" if i not in (0, 2, 4) else "same source" for i in range(6)]
    bleu = BLEU([references])
    analysis = analyse(_inputs(sources, references, [base, other]), [bleu], bleu, 20, 1, False, 10)
    shown = [(e.index, e.repeats) for e in analysis.examples]
    assert (0, [2, 4]) in shown and not {2, 4} & {index for index, _ in shown}  # one of three alike segments
    assert len(shown) == 4  # six segments, of which three alike
    # "tiny" (one token) and the 3-token hypothesis (no 4-gram) come after the others, whatever their spread
    assert [index for index, _ in shown][-2:] in ([3, 5], [5, 3])
