"""``Stats``: additive, sliceable, serialisable, and the same score however it is split."""

from __future__ import annotations

import numpy as np
import pytest

import mtscore
from mtscore import BLEU, Stats

HYP = ["the cat sat on the mat", "a dog barked at the moon loudly", "", "one two three four five"]
REFS = [["the cat is on the mat", "the dog barked at the moon", "nothing", "one two three four"]]


@pytest.fixture
def metric():
    return BLEU(REFS)


@pytest.fixture
def stats(metric):
    return metric.statistics(HYP)


def test_shape_and_values(stats):
    assert len(stats) == 4 and stats.max_order == 4
    assert stats.hyp_len.tolist() == [6, 7, 0, 5]
    assert stats.ref_len.tolist() == [6, 6, 1, 4]
    assert stats.totals[0].tolist() == [6, 5, 4, 3]
    assert stats.matches[0].tolist() == [5, 3, 1, 0]


def test_corpus_score_is_the_formula_over_summed_rows(metric, stats):
    assert metric.score_statistics(stats).score == metric.corpus_score(HYP).score
    assert metric.score_statistics(stats.total()).score == metric.corpus_score(HYP).score


def test_shards_merge_with_plus(metric, stats):
    assert stats[:2] + stats[2:] == stats
    assert sum([stats[:1], stats[1:3], stats[3:]]) == stats
    assert metric.score_statistics(stats[:1] + stats[1:]).score == metric.corpus_score(HYP).score


def test_slicing(stats):
    assert stats[1] == stats[1:2]
    assert stats[-1] == stats[3:]
    assert stats[np.array([0, 2])] == stats[0] + stats[2]
    assert stats[np.array([True, False, False, True])] == stats[0] + stats[3]


def test_json_and_numpy_round_trip(stats, tmp_path):
    assert Stats.from_json(stats.to_json()) == stats
    path = tmp_path / "stats.npz"
    stats.save(path)
    assert Stats.load(path) == stats


def test_empty_and_validation():
    assert len(Stats.empty()) == 0
    with pytest.raises(ValueError):
        Stats(np.ones((2, 4)), np.zeros((2, 4)), np.zeros(2), np.zeros(2))  # matches > totals
    with pytest.raises(ValueError):
        Stats(np.zeros((2, 4)), np.zeros((2, 3)), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError):
        Stats.empty(4) + Stats.empty(3)


def test_stats_are_read_only(stats):
    with pytest.raises(ValueError):
        stats.matches[0, 0] = 99


def test_references_prepared_once_serve_many_systems():
    metric = BLEU(REFS)
    for system in (HYP, list(reversed(HYP)), ["x"] * 4):
        assert metric.corpus_score(system).score == mtscore.corpus_bleu(system, REFS).score


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sorted_query_search_gives_the_same_statistics(monkeypatch, seed):
    """Large lookups search their queries in sorted order (backend.NumpyOps.searchsorted); forcing
    that path on every lookup changes no statistic."""
    from mtscore.engine import backend

    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(40)]
    refs = [[" ".join(rng.choice(words, size=rng.integers(0, 30))) for _ in range(300)] for _ in range(2)]
    hyps = [" ".join(rng.choice(words, size=rng.integers(0, 30))) for _ in range(300)]
    direct = BLEU(refs).statistics(hyps)
    monkeypatch.setattr(backend, "_SORT_QUERIES_FROM", 1)
    assert BLEU(refs).statistics(hyps) == direct
