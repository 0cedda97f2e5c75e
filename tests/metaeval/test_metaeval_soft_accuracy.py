"""Soft pairwise accuracy (mt-metrics-eval's ``pce``, WMT24): against its definition on small made-up
scores, and against mt-metrics-eval's own code on the shared WMT23 data.

``MT_METRICS_EVAL`` was computed outside this repository by google-research/mt-metrics-eval @ 68a481aea1a7
(unpatched; numpy 2.4, scipy 1.17, in a scratch environment):
``stats.PairwiseConfidenceError(gold, metric, num_sys=len(systems), filter_nones=True)[0]`` with gold the
``mqm.seg.score`` and metric the official ``BLEU-refA``/``chrF-refA`` ``.seg.score`` files, packed system by
system in sorted order, for the systems its ``pce`` task selects (``GetCorrelations`` at segment level: refA
and the outlier ``synthetic_ref`` left out, no human translations). The same call through
``data.GetCorrelations`` (systems in set order) gave the same figures but zh-en BLEU, 0.7967238095238095.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from helpers import run
from shared_data import metaeval_dir

from mtscore.errors import InputError
from mtscore.metaeval import EvalSet, MetricScores, PermutationSettings, evaluate, read_eval_set
from mtscore.metaeval.soft_accuracy import pairwise_pvalues, sign_flips, soft_accuracy_rows, soft_pairwise_accuracy

MT_METRICS_EVAL = {
    "en-de/BLEU": 0.8571969696969697,
    "en-de/chrF": 0.8366363636363636,
    "zh-en/BLEU": 0.7967238095238096,
    "zh-en/chrF": 0.7977142857142857,
}


def score_files(lp):
    folder = metaeval_dir() / "wmt23" / "metric-scores" / lp
    return [folder / "BLEU-refA.seg.score", folder / "chrF-refA.seg.score"]


def test_pvalues_are_the_share_of_sign_flips_with_a_difference_at_least_the_observed():
    scores = np.array([[3.0, 1.0, 4.0, 1.0, 5.0], [2.0, 7.0, 1.0, 8.0, 2.0], [0.0, 0.0, 1.0, 0.0, 0.0]])
    flips = sign_flips(5, permutations=64)
    assert set(np.unique(flips)) <= {-1.0, 1.0}
    expected = []
    for first, second in itertools.combinations(range(3), 2):
        observed = sum(scores[first]) - sum(scores[second])
        at_least = 0
        for row in flips.tolist():
            flipped = sum(sign * (a - b) for sign, a, b in zip(row, scores[first], scores[second], strict=True))
            at_least += flipped >= observed
        expected.append(at_least / len(flips))
    assert pairwise_pvalues(scores, flips).tolist() == expected


def test_a_metric_that_scores_as_the_humans_do_has_soft_accuracy_one():
    gold = np.array([[1.0, 2.0, np.nan], [0.5, 3.0, np.nan], [2.0, 2.5, np.nan]])
    assert soft_pairwise_accuracy(gold, np.nan_to_num(gold, nan=99.0)) == 1.0


def test_systems_rated_on_different_segments_are_an_input_error():
    gold = np.array([[1.0, 2.0, np.nan], [0.5, np.nan, 1.0], [2.0, 2.5, np.nan]])
    with pytest.raises(InputError, match="every system needs human scores for the same segments"):
        soft_pairwise_accuracy(gold, np.zeros((3, 3)))


def test_evaluate_refuses_unevenly_rated_systems_with_a_message():
    outputs = {name: ["a", "b"] for name in ("A", "B", "C")}
    evs = EvalSet("tst", "xx-yy", ["s1", "s2"], {"refA": ["a", "b"]}, outputs)
    evs.human_scores[("mqm", "seg")] = {"A": [1.0, None], "B": [None, 2.0], "C": [1.0, 2.0]}
    scores = MetricScores("M", seg={name: np.array([1.0, 2.0]) for name in outputs})
    with pytest.raises(InputError, match="here the systems have 1, 2 rated segments"):
        evaluate(evs, [scores], gold="mqm", reference="refA", statistics=[("sys", "pce")])


@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_soft_pairwise_accuracy_equals_mt_metrics_eval_on_wmt23(lp):
    evs = read_eval_set(metaeval_dir(), "wmt23", lp)
    result = evaluate(evs, scores=score_files(lp), statistics=[("sys", "pce")], permutation=PermutationSettings(k=0))
    ranking = result.ranking("sys", "pce")
    for metric in ("BLEU", "chrF"):
        expected = MT_METRICS_EVAL[f"{lp}/{metric}"]
        assert math.isclose(ranking.values[metric], expected, rel_tol=0, abs_tol=1e-9), metric
    assert ranking.systems == result.selections["seg"].systems  # the systems with segment-level gold


def test_command_line_reports_soft_pairwise_accuracy_as_mt_metrics_eval_names_it(capsys):
    root = metaeval_dir()
    code, out, err = run(
        capsys, "meta-eval", root, "-t", "wmt23", "-l", "en-de", "--scores", *score_files("en-de"),
        "--statistics", "sys:pce", "-k", "0", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    (task,) = json.loads(out)["tasks"]
    assert (task["level"], task["corr_fcn"], task["avg_by"], task["corr_fcn_args"]) == ("sys", "pce", "none", {})
    assert task["systems"] == json.loads(out)["selections"]["seg"]["systems"]
    for metric in ("BLEU", "chrF"):
        assert math.isclose(task["corr_ranks"][metric][0], MT_METRICS_EVAL[f"en-de/{metric}"], abs_tol=1e-9)
    code, out, err = run(capsys, "meta-eval", root, "-t", "wmt23", "-l", "en-de", "--scores", *score_files("en-de"),
                         "--statistics", "sys:pce", "-k", "0")  # fmt: skip
    assert code == 0 and "system level, soft pairwise accuracy (pce)" in out.splitlines()


def test_rows_of_the_permutation_test_equal_soft_pairwise_accuracy_one_by_one():
    rng = np.random.default_rng(1)
    gold = rng.normal(size=(4, 30))
    rows = rng.normal(size=(5, 4 * 30))
    values = soft_accuracy_rows(gold.ravel(), rows, systems=4)
    expected = [soft_pairwise_accuracy(gold, row.reshape(4, 30)) for row in rows]
    assert values.tolist() == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_soft_accuracy_significance_agrees_with_mt_metrics_eval():
    """mt-metrics-eval's ``CompareMetricsWithPairwiseConfidenceError`` (k 1,000, blocks of 100, early stop;
    BLEU against chrF from the official files, WMT23 en-de, systems as above) gave p-values 0.122 to 0.154
    over ``np.random.seed`` 0 to 5, both metrics in cluster 1. One p-value's standard deviation at 1,000
    draws is about 0.011, so the band is that range widened by three of them."""
    evs = read_eval_set(metaeval_dir(), "wmt23", "en-de")
    ranking = evaluate(evs, scores=score_files("en-de"), statistics=[("sys", "pce")], seed=0).ranking("sys", "pce")
    assert list(ranking.values) == ["BLEU", "chrF"]
    assert ranking.ranks == {"BLEU": 1, "chrF": 1}
    assert 0.122 - 0.033 <= ranking.pvalues[0][1] <= 0.154 + 0.033
    assert ranking.draws[0][1] == 1000
