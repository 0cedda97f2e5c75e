"""Every figure of ``../shared/data/metaeval/oracle.json`` (computed by mt-metrics-eval's own code on
WMT23 en-de and zh-en and WMT22 zh-en) reproduced through ``mtscore.metaeval``; mtscore's BLEU and chrF
checked against the official WMT23 ``BLEU-refA``/``chrF-refA`` score files.

Deterministic figures must agree to 1e-9; PERM-BOTH p-values are random, so they are checked by their
decision at 0.05 and against the band the data's README states across seeds and system orders. Each
metric is scored once per data set (module fixture): TER on the paragraph-long en-de segments dominates.
"""

from __future__ import annotations

import json
import math

import pytest
from shared_data import metaeval_dir

from mtscore.metaeval import evaluate, read_eval_set, score_metric, select

pytestmark = pytest.mark.slow  # tens of thousands of segments, four metrics

TOLERANCE = 1e-9
# oracle.json's metric names -> mtscore's (chrF's beta 2 is in mtscore's name, as in sacrebleu's).
METRICS = {"BLEU": "bleu", "chrF": "chrf", "chrF++": "chrf++", "TER": "ter"}
NAMES = {"BLEU": "BLEU", "chrF": "chrF2", "chrF++": "chrF2++", "TER": "TER"}
# oracle.json's statistic names -> (level, mt-metrics-eval's corr_fcn) as mtscore names them.
STATISTICS = {
    ("sys", "pearson"): "pearson",
    ("sys", "spearman"): "spearman",
    ("sys", "kendall"): "kendall",
    ("sys", "pairwise_accuracy"): "accuracy",
    ("seg", "pearson"): "pearson",
    ("seg", "kendall"): "kendall",
    ("seg", "acc_t"): "KendallWithTiesOpt",
}
# The README's spread of PERM-BOTH p-values (BLEU against chrF, system-level Pearson) across 18
# seed/order combinations; the decision at 0.05 never changed.
PVALUE_BANDS = {
    ("wmt23", "en-de", False): (0.010, 0.041),
    ("wmt23", "zh-en", False): (0.000, 0.013),
    ("wmt22", "zh-en", False): (0.246, 0.284),
    ("wmt22", "zh-en", True): (0.211, 0.253),
}
GROUPS = list(PVALUE_BANDS)


@pytest.fixture(scope="module")
def oracle():
    return json.loads((metaeval_dir() / "oracle.json").read_text(encoding="utf-8"))


_SCORES: dict = {}


def scored(test_set: str, lp: str):
    """The data and the four metrics' scores of every system any group of this data set counts."""
    if (test_set, lp) not in _SCORES:
        evs = read_eval_set(metaeval_dir(), test_set, lp)
        systems: set[str] = set()
        for level in ("sys", "seg"):
            for human in (False, True):
                systems |= set(select(evs, level, include_human=human, include_outliers=True).systems)
        reference = select(evs, "sys").reference
        metrics = [score_metric(name, {}, evs, reference, sorted(systems)) for name in METRICS.values()]
        _SCORES[(test_set, lp)] = evs, metrics
    return _SCORES[(test_set, lp)]


@pytest.fixture(scope="module")
def evaluations():
    results = {}

    def result(test_set: str, lp: str, human: bool):
        if (test_set, lp, human) not in results:
            evs, metrics = scored(test_set, lp)
            results[(test_set, lp, human)] = evaluate(evs, metrics, include_human=human, seed=0)
        return results[(test_set, lp, human)]

    yield result
    _SCORES.clear()


def figures(oracle, test_set: str, lp: str, human: bool) -> list[dict]:
    prefix = f"{test_set}/{lp}/human={human}/"
    return [figure for figure in oracle["figures"] if figure["id"].startswith(prefix)]


@pytest.mark.parametrize(("test_set", "lp", "human"), GROUPS)
def test_deterministic_figures_equal_mt_metrics_eval(oracle, evaluations, test_set, lp, human):
    result = evaluations(test_set, lp, human)
    checked, wrong = 0, []
    for figure in figures(oracle, test_set, lp, human):
        if figure["statistic"] == "perm_both_pvalue":
            continue
        ranking = result.ranking(figure["level"], STATISTICS[(figure["level"], figure["statistic"])])
        name = NAMES[figure["metric"]]
        value = ranking.values[name]
        assert oracle["index"][figure["id"]] == figure["value"]
        if not math.isclose(value, figure["value"], rel_tol=0, abs_tol=TOLERANCE):
            wrong.append((figure["id"], value, figure["value"]))
        assert list(ranking.systems) == figure["settings"]["systems"], figure["id"]
        if figure["statistic"] == "acc_t":
            expected = figure["optimal_epsilon"]
            assert math.isclose(ranking.epsilons[name], expected, rel_tol=1e-12, abs_tol=TOLERANCE), figure["id"]
        checked += 1
    assert not wrong
    assert checked == 28  # 7 statistics x 4 metrics


@pytest.mark.parametrize(("test_set", "lp", "human"), GROUPS)
def test_perm_both_decision_and_band_match_mt_metrics_eval(oracle, test_set, lp, human):
    (figure,) = [f for f in figures(oracle, test_set, lp, human) if f["statistic"] == "perm_both_pvalue"]
    # The oracle's task: system-level Pearson with BLEU and chrF as the only metrics, k=1000, blocks of 100.
    evs, metrics = scored(test_set, lp)
    pair = [metric for metric in metrics if metric.name in ("BLEU", "chrF2")]
    result = evaluate(evs, pair, include_human=human, statistics=[("sys", "pearson")], seed=0)
    ranking = result.ranking("sys", "pearson")
    order = list(ranking.values)
    better, worse = sorted(["BLEU", "chrF2"], key=order.index)
    assert NAMES[figure["higher_pearson"]] == better
    pvalue = ranking.pvalues[order.index(better)][order.index(worse)]
    assert (pvalue < 0.05) == (figure["value"] < 0.05)
    low, high = PVALUE_BANDS[(test_set, lp, human)]
    assert low <= pvalue <= high, pvalue
    assert ranking.draws[order.index(better)][order.index(worse)] in range(100, 1001, 100)


def test_every_oracle_figure_is_checked(oracle):
    groups = {"/".join(key.split("/")[:3]) for key in oracle["index"]}
    assert groups == {f"{test_set}/{lp}/human={human}" for test_set, lp, human in GROUPS}
    assert len(oracle["index"]) == len(GROUPS) * 29  # 28 deterministic figures and one p-value each


@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
@pytest.mark.parametrize(("metric", "official"), [("BLEU", "BLEU-refA"), ("chrF2", "chrF-refA")])
def test_scores_equal_the_official_wmt23_files(lp, metric, official):
    evs, metrics = scored("wmt23", lp)
    (ours,) = [m for m in metrics if m.name == metric]
    system_scores = evs.metric_scores[(official.split("-")[0], "refA", "sys")]
    segment_scores = evs.metric_scores[(official.split("-")[0], "refA", "seg")]
    # Every system with MQM scores (the official files also score synthetic_ref, which MQM did not rate).
    assert set(ours.sys) == set(system_scores) - {"synthetic_ref"}
    for system, value in ours.sys.items():
        assert value == system_scores[system][0], system
        assert ours.seg[system].tolist() == segment_scores[system], system
