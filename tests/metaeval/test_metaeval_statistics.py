"""The statistics against their textbook definitions (plain Python over every pair) and against
counts stated by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtscore.metaeval import acc_t, assign_ranks, kendall_tau_b
from mtscore.metaeval.correlations import accuracy_rows, kendall_rows, pearson_rows, spearman_rows


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    covariance = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    return covariance / math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))


def average_ranks(values):
    """Rank from 1; equal values share the mean of the ranks they occupy."""
    return [sum(v < w for v in values) + (sum(v == w for v in values) + 1) / 2 for w in values]


def tau_b(x, y):
    """(concordant - discordant) / sqrt(pairs untied in x * pairs untied in y)."""
    pairs = [(i, j) for i in range(len(x)) for j in range(i + 1, len(x))]
    sign = [np.sign(x[i] - x[j]) * np.sign(y[i] - y[j]) for i, j in pairs]
    untied_x = sum(x[i] != x[j] for i, j in pairs)
    untied_y = sum(y[i] != y[j] for i, j in pairs)
    return sum(sign) / math.sqrt(untied_x * untied_y)


@pytest.mark.parametrize("seed", range(5))
def test_correlations_equal_their_definitions_with_ties(seed):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 6, 120).astype(float)  # many ties
    metric = np.round(gold + rng.normal(0, 2, 120), 1)
    rows = metric[None, :]
    assert pearson_rows(gold, rows)[0] == pytest.approx(pearson(gold.tolist(), metric.tolist()), abs=1e-12)
    expected_rho = pearson(average_ranks(gold.tolist()), average_ranks(metric.tolist()))
    assert spearman_rows(gold, rows)[0] == pytest.approx(expected_rho, abs=1e-12)
    expected_tau = tau_b(gold.tolist(), metric.tolist())
    assert kendall_rows(gold, rows)[0] == pytest.approx(expected_tau, abs=1e-12)
    assert kendall_tau_b(gold, metric) == pytest.approx(expected_tau, abs=1e-12)


def test_pairwise_accuracy_counts_a_metric_tie_as_right_only_on_a_gold_tie():
    gold = np.array([1.0, 2.0, 2.0])
    metric = np.array([[5.0, 5.0, 7.0]])
    # pairs (1,2): gold <, metric tie -> wrong; (1,3): both < -> right; (2,3): gold tie, metric < -> wrong
    assert accuracy_rows(gold, metric)[0] == pytest.approx(1 / 3)


def test_acc_t_optimises_the_tie_threshold():
    # One item, three systems. Gold ties systems 0 and 1; the metric separates them by 0.5.
    gold = np.array([[1.0], [1.0], [3.0]])
    metric = np.array([[2.0], [2.5], [9.0]])
    result = acc_t(gold, metric)
    # epsilon 0: pairs right are (0,2), (1,2) -> 2/3; epsilon 0.5 ties (0,1) as the gold does -> 3/3.
    assert (result.accuracy, result.epsilon, result.items) == (1.0, 0.5, 1)


def test_acc_t_leaves_out_unrated_entries_and_items_without_pairs():
    gold = np.array([[1.0, np.nan], [2.0, 1.0], [3.0, np.nan]])
    metric = np.array([[3.0, 1.0], [2.0, 2.0], [1.0, 3.0]])
    result = acc_t(gold, metric)  # the second item has one rated system: no pair
    assert result.items == 1
    assert result.accuracy == 0.0 and result.epsilon == 0.0  # every pair reversed; no tie helps


def test_clusters_start_where_a_metric_of_the_cluster_is_significantly_better():
    pvalues = np.array([[0, 0.3, 0.01, 0.0], [0, 0, 0.2, 0.01], [0, 0, 0, 0.5], [0, 0, 0, 0]])
    assert assign_ranks(pvalues, 0.05) == [1, 1, 2, 2]
