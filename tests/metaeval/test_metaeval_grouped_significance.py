"""PERM-BOTH for grouped segment-level statistics and for acc-t, and the task set's average rank.

mt-metrics-eval's figures were computed outside this repository by its own code (google-research/
mt-metrics-eval @ 68a481aea1a7, unpatched; numpy 2.4, scipy 1.17; its imports of apache_beam and dacite
stubbed) on the shared WMT23 data with the official ``BLEU-refA``/``chrF-refA`` files: ``data.GetCorrelations
(evs, 'seg', {'refA'}, set(), False, False, 'mqm', False)`` then ``data.CompareMetrics`` with k 1,000,
``PermutationSigDiffParams(100, 0.02, 0.5)`` and ``np.random.seed`` 0, 1, ... (one p-value per seed).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import run
from shared_data import metaeval_dir

from mtscore.errors import InputError
from mtscore.metaeval import PermutationSettings, acc_t, evaluate, evaluate_tasks, read_eval_set
from mtscore.metaeval.correlations import (
    group_sizes,
    grouped_rows,
    kendall_variant,
    kendall_variant_rows,
    pair_agreement,
    pearson_rows,
)
from mtscore.metaeval.significance import _draw, perm_both_pairs
from mtscore.metaeval.tasksets import average_ranks

SCORE_FILES = [f"{metric}-refA.{level}.score" for metric in ("BLEU", "chrF") for level in ("sys", "seg")]


def score_files(lp: str) -> list:
    return [metaeval_dir() / "wmt23" / "metric-scores" / lp / name for name in SCORE_FILES]


@pytest.mark.parametrize("variant", ["b", "c", "23", "acc23"])
@pytest.mark.parametrize("length", [6, 250])  # all rows at once from pair signs; a row at a time
def test_kendall_variant_rows_equal_kendall_variant_row_by_row(variant, length):
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 4, size=length).astype(float)  # many ties
    rows = rng.integers(0, 5, size=(7, length)).astype(float)
    rows[0] = 1.0  # a constant row: NaN for b and c
    values = kendall_variant_rows(gold, rows, variant)
    expected = [kendall_variant(gold, row, variant) for row in rows]
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12, equal_nan=True)


def test_groups_pack_rated_entries_by_item_and_by_system():
    nan = math.nan
    gold = np.array([[1.0, nan, 3.0], [4.0, 5.0, nan]])  # systems x items
    assert [list(v) for v in group_sizes(gold, "item")] == [[0, 3, 4, 2], [2, 1, 1]]
    assert [list(v) for v in group_sizes(gold, "sys")] == [[0, 2, 3, 4], [2, 2]]
    assert [list(v) for v in group_sizes(gold, "none")] == [[0, 2, 3, 4], [4]]


def test_grouped_rows_average_the_groups_leaving_out_short_and_undefined_ones():
    gold = np.array([1.0, 2.0, 3.0, 5.0, 1.0, 2.0, 7.0])
    rows = np.array([[1.0, 2.0, 4.0, 9.0, 2.0, 1.0, 3.0], [3.0, 2.0, 1.0, 1.0, 1.0, 1.0, 3.0]])
    statistic = grouped_rows(pearson_rows, [3, 1, 2, 1])  # groups of 1 are left out
    # Row 1: r(1,2,3; 1,2,4) and r(1,2; 2,1) = -1. Row 2: -1 and an undefined group (constant 1,1), left out.
    first = np.corrcoef([1.0, 2.0, 3.0], [1.0, 2.0, 4.0])[0, 1]
    np.testing.assert_allclose(statistic(gold, rows), [(first - 1) / 2, -1.0], atol=1e-15)
    assert grouped_rows(pearson_rows, [1, 1])(gold[:2], rows[:, :2]).tolist() == [0.0, 0.0]  # none left: 0


def test_pair_agreement_counts_differences_up_to_epsilon_as_ties():
    gold = np.array([[1.0, 2.0], [1.0, math.nan], [3.0, 1.0]])  # systems x items
    metric = np.array([[0.5, 0.5], [0.6, 9.0], [0.9, 0.2]])
    agrees, items = pair_agreement(gold, metric, 0.15)
    # Item 0: (S0,S1) gold tie, metric 0.1 <= 0.15 a tie: right; (S0,S2) both S2 ahead; (S1,S2) likewise.
    # Item 1: only (S0,S2) is rated: gold S0 ahead, metric S0 ahead by 0.3: right.
    assert agrees.tolist() == [True, True, True, True] and items.tolist() == [0, 0, 1, 0]
    agrees, _ = pair_agreement(gold, metric, 0.0)
    assert agrees.tolist() == [False, True, True, True]


def test_pair_test_of_a_metric_against_itself_finds_no_difference():
    agrees = np.array([True, False, True, True])
    result = perm_both_pairs(
        agrees, agrees, np.array([0, 0, 1, 1]), PermutationSettings(k=300), np.random.default_rng(0)
    )
    # Nothing can move: every draw reaches the observed difference 0; early stop at the first block (p > 0.5).
    assert (result.pvalue, result.delta, result.draws) == (1.0, 0.0, 100)


def test_pair_test_p_value_is_the_chance_that_no_disagreeing_pair_is_swapped():
    """Better agrees on every pair, worse on none: a draw reaches the observed difference only when
    it swaps no pair (any swap lowers the difference), probability 2**-pairs."""
    better, worse = np.ones(3, dtype=bool), np.zeros(3, dtype=bool)
    result = perm_both_pairs(better, worse, np.array([0, 0, 1]), PermutationSettings(k=4000, block_size=4000),
                             np.random.default_rng(1))  # fmt: skip
    assert result.delta == pytest.approx((1.0 + 1.0) / 2)
    assert abs(result.pvalue - 1 / 8) < 4 * math.sqrt(1 / 8 * 7 / 8 / 4000)


def test_pairs_test_checks_early_stopping_only_after_a_block_ending_in_a_hit():
    """As ``PairwisePermutationSigDiff``, whose check sits inside ``if c2 - c1 >= delta``; the scores test
    checks at every block's end."""
    blocks = iter([np.array([False, False]), np.array([True, False]), np.array([False, True])])
    settings = PermutationSettings(k=10, block_size=2, early_min=0.4, early_max=0.9)
    assert _draw(lambda size: next(blocks), settings, stop_after_a_hit_only=True) == (2 / 6, 6)
    blocks = iter([np.array([False, False])])
    assert _draw(lambda size: next(blocks), settings, stop_after_a_hit_only=False) == (0.0, 2)


def test_acc_t_sample_rate_one_is_every_pair_and_out_of_range_is_refused():
    rng = np.random.default_rng(0)
    gold, metric = rng.integers(0, 3, size=(5, 40)).astype(float), rng.normal(size=(5, 40))
    assert acc_t(gold, metric, 1.0, rng) == acc_t(gold, metric)
    sampled = acc_t(gold, metric, 0.5, np.random.default_rng(2))
    assert sampled == acc_t(gold, metric, 0.5, np.random.default_rng(2))  # the seed decides the draw
    assert sampled.items <= 40
    for rate in (0.0, 1.5):
        with pytest.raises(InputError, match="sample rate of acc-t must be in"):
            acc_t(gold, metric, rate, rng)
    with pytest.raises(InputError, match="needs a random generator"):
        acc_t(gold, metric, 0.5)


# Task -> (statistic, mt-metrics-eval's p-values BLEU vs chrF over seeds, its draws, its clusters).
MT_METRICS_EVAL_PVALUES = {
    "acc-t (pairs test)": (("seg", "KendallWithTiesOpt"), (0.439, 0.423), 1000, {"BLEU": 1, "chrF": 1}),
}


@pytest.mark.parametrize("task", list(MT_METRICS_EVAL_PVALUES))
def test_significance_agrees_with_mt_metrics_eval_on_wmt23_en_de(task):
    """p-values within mt-metrics-eval's range over its seeds widened by three standard deviations of one
    p-value at 1,000 draws (sqrt(p(1-p)/1000)); the same clusters and draws."""
    statistic, pvalues, draws, clusters = MT_METRICS_EVAL_PVALUES[task]
    evs = read_eval_set(metaeval_dir(), "wmt23", "en-de")
    ranking = evaluate(evs, scores=score_files("en-de"), statistics=[statistic], seed=0).rankings[0]
    assert ranking.ranks == clusters
    spread = 3 * math.sqrt(max(pvalues) * (1 - min(pvalues)) / 1000)
    assert min(pvalues) - spread <= ranking.pvalues[0][1] <= max(pvalues) + spread
    assert ranking.draws[0][1] == draws


# Grouped statistic -> mt-metrics-eval's p-values BLEU vs chrF for seeds 0, 1, 2 (each stopped early after
# 100 draws) and its clusters: ``CompareMetrics`` with ``scipy.stats.pearsonr`` averaged by item, and with
# ``stats.KendallVariants`` (variant acc23) averaged by system, ``perm_test='scores'``.
MT_METRICS_EVAL_GROUPED = {
    ("seg", "pearson", "item"): ((0.01, 0.0, 0.01), {"chrF": 1, "BLEU": 2}),
    ("seg", "KendallVariants", "sys", "acc23"): ((0.0, 0.0, 0.0), {"chrF": 1, "BLEU": 2}),
}


@pytest.mark.parametrize("statistic", list(MT_METRICS_EVAL_GROUPED), ids=":".join)
def test_grouped_significance_agrees_with_mt_metrics_eval_on_wmt23_en_de(statistic):
    """Over seeds 0-2, the same clusters on every seed, and a median p-value within mt-metrics-eval's range
    over its seeds widened by three standard deviations of one p-value at 100 draws."""
    pvalues, clusters = MT_METRICS_EVAL_GROUPED[statistic]
    evs = read_eval_set(metaeval_dir(), "wmt23", "en-de")
    ours = []
    for seed in range(3):
        ranking = evaluate(evs, scores=score_files("en-de"), statistics=[statistic], seed=seed).rankings[0]
        assert ranking.ranks == clusters
        ours.append(ranking.pvalues[0][1])
    bound = max(max(pvalues), 0.01)
    spread = 3 * math.sqrt(bound * (1 - bound) / 100)
    assert min(pvalues) - spread <= float(np.median(ours)) <= max(pvalues) + spread


def test_average_ranks_with_k_0_are_positional_as_mt_metrics_eval():
    """mt-metrics-eval's ``TaskSetResults.AverageRanks(weights)`` for ``tasks.WMT23(['en-de', 'zh-en'],
    primary=False, k=0)`` on the same data and files: BLEU 1.375, chrF 1.625 (k 0: each task ranks by
    position; BLEU is first in the pooled accuracy (0.25), en-de's two system-level and acc-t tasks and
    zh-en's segment-level Pearson (0.125 each): 0.25 + 4 x 0.125 + 2 x 0.125 x 2 = 1.375)."""
    eval_sets = [read_eval_set(metaeval_dir(), "wmt23", lp) for lp in ("en-de", "zh-en")]
    scores = {lp: score_files(lp) for lp in ("en-de", "zh-en")}
    result = evaluate_tasks(eval_sets, scores=scores, permutation=PermutationSettings(k=0))
    assert result.average_ranks == pytest.approx({"BLEU": 1.375, "chrF": 1.625}, abs=1e-12)
    assert list(result.average_ranks) == ["BLEU", "chrF"]


def test_average_ranks_with_1000_draws_equal_mt_metrics_eval():
    """mt-metrics-eval's ``tasks.WMT23(['en-de', 'zh-en'], primary=False, k=1000)`` run with ``np.random.seed(0)``
    on the same data and files: every task's clusters and ``AverageRanks`` chrF 1.25, BLEU 1.375."""
    eval_sets = [read_eval_set(metaeval_dir(), "wmt23", lp) for lp in ("en-de", "zh-en")]
    scores = {lp: score_files(lp) for lp in ("en-de", "zh-en")}
    result = evaluate_tasks(eval_sets, scores=scores, permutation=PermutationSettings(k=1000), seed=0)
    clusters = [(1, 1), (1, 2), (2, 1), (1, 1), (2, 1), (1, 2), (2, 1)]  # (BLEU, chrF) per task, in its order
    assert [(ranking.ranks["BLEU"], ranking.ranks["chrF"]) for _, ranking in result.tasks] == clusters
    assert result.average_ranks == pytest.approx({"chrF": 1.25, "BLEU": 1.375}, abs=1e-12)


def test_average_ranks_weigh_each_tasks_cluster_for_metrics_of_every_task():
    from mtscore.metaeval import Ranking

    first = Ranking("sys", "pearson", "none", {"A": 0.9, "B": 0.8, "C": 0.1}, {"A": 1, "B": 1, "C": 2})
    second = Ranking("seg", "pearson", "none", {"B": 0.5, "A": 0.4}, {"B": 1, "A": 2})
    untested = Ranking("seg", "kendall", "none", {"A": 0.3, "B": 0.2}, {"A": None, "B": None})
    tasks = [("x", first), ("x", second), ("x", untested)]
    # C is missing from two tasks: left out. Without a test, the position counts.
    assert average_ranks(tasks, [0.5, 0.25, 0.25]) == {"A": 0.5 + 0.5 + 0.25, "B": 0.5 + 0.25 + 0.5}
    with pytest.raises(InputError, match="3 tasks but 2 weights"):
        average_ranks(tasks, [0.5, 0.5])


def test_task_set_json_records_the_seed_given(capsys):
    """The JSON of several pairs gives the seed the user gave (each pair's draws use one drawn from it)."""
    root = metaeval_dir()
    pattern = [str(root / "wmt23" / "metric-scores" / "{lp}" / name) for name in SCORE_FILES]
    args = ["meta-eval", root, "-t", "wmt23", "-l", "en-de,zh-en", "--scores", *pattern, "-k", "0", "-f", "json"]
    for seed in (7, 12345):
        code, out, err = run(capsys, *args, "--seed", str(seed))
        assert code == 0, err
        assert json.loads(out)["seed"] == seed


def test_command_line_task_set_shows_the_average_ranks(capsys):
    root = metaeval_dir()
    pattern = [str(root / "wmt23" / "metric-scores" / "{lp}" / name) for name in SCORE_FILES]
    args = ["meta-eval", root, "-t", "wmt23", "-l", "en-de,zh-en", "--scores", *pattern, "-k", "0"]
    code, out, err = run(capsys, *args, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["average_ranks"] == pytest.approx({"BLEU": 1.375, "chrF": 1.625})
    code, out, err = run(capsys, *args)
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("weighted average rank (each task's significance cluster; without a test, its position)")
    assert lines[start + 1].split() == ["1", "BLEU", "1.375000"]
    assert lines[start + 2].split() == ["2", "chrF", "1.625000"]


@pytest.mark.parametrize(("rate", "message"), [("0", "--sample-rate must be in (0, 1], got 0"), ("2", "got 2")])
def test_command_line_refuses_a_sample_rate_out_of_range(capsys, rate, message):
    code, out, err = run(capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "en-de", "-m", "bleu",
                         "--sample-rate", rate)  # fmt: skip
    assert (code, out) == (1, "") and message in err and "Traceback" not in err
