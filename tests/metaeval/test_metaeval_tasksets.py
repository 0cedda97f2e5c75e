"""Pairwise accuracy pooled over language pairs and WMT23's task set with its weighted average.

``MT_METRICS_EVAL`` was computed outside this repository by google-research/mt-metrics-eval @ 68a481aea1a7
(unpatched; numpy 2.4, scipy 1.17, in a scratch environment; its imports of apache_beam and dacite, used
only for parallel runs and ratings, stubbed): ``tasks.WMT23(['en-de', 'zh-en'], primary=False, k=0)``
run on ``data.EvalSet('wmt23', lp, True, path=<shared data>)``, whose stored metrics are the official
``BLEU-refA``/``chrF-refA`` files: each task's ``corr_ranks`` values, the weights, and
``TaskSetResults.AverageCorrs(weights)``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import run, write
from shared_data import metaeval_dir

from mtscore.errors import InputError
from mtscore.metaeval import EvalSet, PermutationSettings, evaluate_tasks, read_eval_set

# (language pairs, level, corr_fcn) -> metric -> value, in WMT23's task order.
MT_METRICS_EVAL = [
    ("en-de,zh-en", "sys", "accuracy", {"BLEU": 0.8245614035087719, "chrF": 0.783625730994152}),
    ("en-de", "sys", "pearson", {"BLEU": 0.9165409261353755, "chrF": 0.865726154300167}),
    ("en-de", "seg", "pearson", {"chrF": 0.23197804538571223, "BLEU": 0.19205003142924454}),
    ("en-de", "seg", "KendallWithTiesOpt", {"BLEU": 0.5195981554677204, "chrF": 0.5192358366271412}),
    ("zh-en", "sys", "pearson", {"chrF": 0.8091305504130211, "BLEU": 0.7341240958275811}),
    ("zh-en", "seg", "pearson", {"BLEU": 0.11937767581631314, "chrF": 0.06348204323347545}),
    ("zh-en", "seg", "KendallWithTiesOpt", {"chrF": 0.4849698588016345, "BLEU": 0.4717724642958293}),
]
WEIGHTS = [0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125]
AVERAGE = {"BLEU": 0.7026924739231688, "chrF": 0.6945769442604085}
SCORE_FILES = [f"{metric}-refA.{level}.score" for metric in ("BLEU", "chrF") for level in ("sys", "seg")]


def official_scores(lp: str) -> list:
    return [metaeval_dir() / "wmt23" / "metric-scores" / lp / name for name in SCORE_FILES]


def test_wmt23_task_set_equals_mt_metrics_eval():
    eval_sets = [read_eval_set(metaeval_dir(), "wmt23", lp) for lp in ("zh-en", "en-de")]  # sorted as upstream
    scores = {lp: official_scores(lp) for lp in ("en-de", "zh-en")}
    result = evaluate_tasks(eval_sets, scores=scores, permutation=PermutationSettings(k=0))
    assert result.lps == ("en-de", "zh-en")
    assert len(result.tasks) == len(MT_METRICS_EVAL)
    for (lang, ranking), (lang_expected, level, corr_fcn, values) in zip(result.tasks, MT_METRICS_EVAL, strict=True):
        assert (lang, ranking.level, ranking.statistic) == (lang_expected, level, corr_fcn)
        assert list(ranking.values) == list(values)  # the same order
        for metric, value in values.items():
            assert math.isclose(ranking.values[metric], value, rel_tol=0, abs_tol=1e-9), (lang, corr_fcn, metric)
    assert result.weights == pytest.approx(WEIGHTS, abs=1e-15)
    assert list(result.average) == list(AVERAGE)
    for metric, value in AVERAGE.items():
        assert math.isclose(result.average[metric], value, rel_tol=0, abs_tol=1e-9)
    # The pooled accuracy counts each pair's systems as its own system-level Pearson does.
    for lp in result.lps:
        assert result.accuracy_selections[lp].systems == result.evaluations[lp].ranking("sys", "pearson").systems


def small_set(lp: str, gold: list[float], metric: list[float], tmp_path) -> tuple[EvalSet, list]:
    """A made-up language pair: one system per gold score, two segments each; the metric's system
    scores are ``metric`` and its segment scores twice them."""
    systems = [f"S{i}" for i in range(len(gold))]
    outputs = {name: ["a", "b"] for name in systems}
    evs = EvalSet("tst", lp, ["s1", "s2"], {"refA": ["a", "b"]}, outputs)
    evs.human_scores[("mqm", "sys")] = {name: [value] for name, value in zip(systems, gold, strict=True)}
    evs.human_scores[("mqm", "seg")] = {name: [value, value + 1] for name, value in zip(systems, gold, strict=True)}
    folder = tmp_path / lp
    folder.mkdir(exist_ok=True)
    sys_file = write(folder / "M-refA.sys.score", [f"{n}\t{v}" for n, v in zip(systems, metric, strict=True)])
    seg_file = write(
        folder / "M-refA.seg.score", [f"{n}\t{v * s}" for n, v in zip(systems, metric, strict=True) for s in (1, 2)]
    )
    return evs, [sys_file, seg_file]


def test_pooled_accuracy_counts_the_pairs_of_every_language_pair_together(tmp_path):
    # xx-aa: 3 systems, every pair ordered as the gold does: 3 of 3 pairs right.
    # xx-bb: 4 systems, the metric reverses S0-S1, S0-S2 and S1-S2: 3 of 6 pairs right.
    # Pooled: 6 / 9, not the mean of the two accuracies (0.75).
    first, first_files = small_set("xx-aa", [1.0, 2.0, 3.0], [10.0, 20.0, 30.0], tmp_path)
    second, second_files = small_set("xx-bb", [1.0, 2.0, 3.0, 4.0], [30.0, 20.0, 10.0, 40.0], tmp_path)
    result = evaluate_tasks(
        [first, second],
        scores={"xx-aa": first_files, "xx-bb": second_files},
        gold="mqm",
        reference="refA",
        permutation=PermutationSettings(k=0),
    )
    assert result.accuracy.values == {"M": pytest.approx(6 / 9)}
    assert result.accuracy.systems == (
        "xx-aa/S0",
        "xx-aa/S1",
        "xx-aa/S2",
        "xx-bb/S0",
        "xx-bb/S1",
        "xx-bb/S2",
        "xx-bb/S3",
    )
    # Weights: the pooled accuracy 2 (the number of pairs), the six others 1, normalised.
    assert result.weights == pytest.approx([2 / 8] + [1 / 8] * 6)
    expected = sum(
        weight * ((value + 1) / 2 if ranking.statistic == "pearson" else value)
        for (_, ranking), weight in zip(result.tasks, result.weights, strict=True)
        for value in ranking.values.values()
    )
    assert result.average == {"M": pytest.approx(expected, abs=1e-15)}


def test_task_sets_refuse_one_pair_pairs_twice_and_foreign_score_files(tmp_path):
    first, _ = small_set("xx-aa", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], tmp_path)
    with pytest.raises(InputError, match="needs at least two"):
        evaluate_tasks([first], ["bleu"], gold="mqm", reference="refA")
    with pytest.raises(InputError, match="language pairs given twice: xx-aa"):
        evaluate_tasks([first, first], ["bleu"], gold="mqm", reference="refA")
    second, _ = small_set("xx-bb", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], tmp_path)
    with pytest.raises(InputError, match="score files for language pairs not evaluated: xx-cc"):
        evaluate_tasks([first, second], ["bleu"], scores={"xx-cc": []}, gold="mqm", reference="refA")


def test_command_line_runs_the_task_set_for_several_language_pairs(capsys):
    root = metaeval_dir()
    pattern = [str(root / "wmt23" / "metric-scores" / "{lp}" / name) for name in SCORE_FILES]
    code, out, err = run(capsys, "meta-eval", root, "-t", "wmt23", "-l", "en-de", "-l", "zh-en", "--scores", *pattern,
                         "-k", "0", "-f", "json")  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert (result["langs"], result["task_set"]) == (["en-de", "zh-en"], "wmt23")
    tasks = result["tasks"]
    assert [(t["lang"], t["level"], t["corr_fcn"]) for t in tasks] == [task[:3] for task in MT_METRICS_EVAL]
    assert [t["weight"] for t in tasks] == pytest.approx(WEIGHTS)
    assert tasks[0]["gold"] == ["mqm", "mqm"] and tasks[0]["refs"] == [["refA"], ["refA"]]
    assert tasks[0]["human"] is False  # neither pair has several references (WMT23's rule)
    for task, (*_, values) in zip(tasks, MT_METRICS_EVAL, strict=True):
        for metric, value in values.items():
            assert math.isclose(task["corr_ranks"][metric][0], value, rel_tol=0, abs_tol=1e-9)
    for metric, value in AVERAGE.items():
        assert math.isclose(result["average_corrs"][metric], value, rel_tol=0, abs_tol=1e-9)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scores", "BLEU-refA.sys.score"], "a --scores path names its pair as {lp}"),
        (["-m", "bleu", "--statistics", "sys:pearson"], "--statistics is for one language pair"),
        (["-m", "bleu", "--svg", "x.svg"], "--svg is for one language pair"),
        (["-m", "bleu", "-l", ""], "one here is empty"),
    ],
)
def test_command_line_task_set_usage_errors(capsys, extra, message):
    code, out, err = run(capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "en-de,zh-en", *extra)
    assert (code, out) == (1, "")
    assert message in err and "Traceback" not in err


def test_a_single_metric_gets_no_significance_test_and_its_pooled_accuracy(tmp_path):
    first, first_files = small_set("xx-aa", [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], tmp_path)
    second, second_files = small_set("xx-bb", [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 4.0, 3.0], tmp_path)
    result = evaluate_tasks([first, second], scores={"xx-aa": first_files, "xx-bb": second_files},
                            gold="mqm", reference="refA", permutation=PermutationSettings(k=100))  # fmt: skip
    # One metric: nothing to compare it with, so no test, as with one metric in evaluate.
    assert result.accuracy.ranks == {"M": None} and np.isclose(result.accuracy.values["M"], 11 / 12)


def test_pooled_accuracy_significance_agrees_with_mt_metrics_eval():
    """mt-metrics-eval's ``CompareMetricsWithGlobalAccuracy`` (k 1,000, blocks of 100, early stop; same
    data and stored BLEU/chrF files as above) gave BLEU against chrF p-values 0.143 to 0.176 over
    ``np.random.seed`` 0 to 9, both metrics in cluster 1. One draw's p-value has a standard deviation of
    about 0.012 at 1,000 draws, so the band is that range widened by three of them."""
    eval_sets = [read_eval_set(metaeval_dir(), "wmt23", lp) for lp in ("en-de", "zh-en")]
    result = evaluate_tasks(eval_sets, scores={lp: official_scores(lp) for lp in ("en-de", "zh-en")}, seed=0)
    assert list(result.accuracy.values) == ["BLEU", "chrF"]
    assert result.accuracy.ranks == {"BLEU": 1, "chrF": 1}
    assert 0.143 - 0.036 <= result.accuracy.pvalues[0][1] <= 0.176 + 0.036
    assert result.accuracy.draws[0][1] == 1000  # no early stop between 0.02 and 0.5


def test_the_root_may_follow_the_language_pair(capsys):
    """-l takes one value at a time (several as -l A -l B or A,B), so a ROOT after it stays the root."""
    code, out, err = run(capsys, "meta-eval", "-t", "wmt23", "-l", "en-de", metaeval_dir(), "-m", "bleu", "-k", "0",
                         "--statistics", "sys:pearson")  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0] == "wmt23 en-de"
