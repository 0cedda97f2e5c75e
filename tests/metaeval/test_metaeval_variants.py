"""Kendall's tau variants (b, c, 23, acc23) and grouping by system and by item, with mt-metrics-eval's
definitions: against counts stated by hand, and against figures of mt-metrics-eval's own code.

``MT_METRICS_EVAL`` was computed outside this repository by google-research/mt-metrics-eval @ 68a481aea1a7
(unpatched ``stats.py``, run with numpy 2.4 and scipy 1.17 in a scratch environment):
``stats.AverageCorrelation(fcn, num_sys, average_by=..., **args)(gold, metric)[0]`` with ``fcn``
``scipy.stats.pearsonr``, ``scipy.stats.spearmanr`` or ``stats.KendallVariants`` (``variant``), on the
shared WMT23 data: gold ``mqm.seg.score``, metric the official ``BLEU-refA``/``chrF-refA`` ``.seg.score``
files, the systems of oracle.json's ``wmt23/<lp>/human=False/seg`` figures, packed system by system.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from helpers import run
from shared_data import metaeval_dir

from mtscore.errors import InputError
from mtscore.metaeval.correlations import grouped, kendall_variant, pair_counts, pearson, spearman

MT_METRICS_EVAL = {
    "en-de/BLEU/none/pearson": 0.19205003142924454,
    "en-de/BLEU/none/spearman": 0.1929189922988815,
    "en-de/BLEU/none/kendall-b": 0.13663986455856558,
    "en-de/BLEU/none/kendall-c": 0.13061987497321462,
    "en-de/BLEU/none/kendall-23": 0.03945658082355814,
    "en-de/BLEU/none/kendall-acc23": 0.519728290411779,
    "en-de/BLEU/sys/pearson": 0.14025097597507413,
    "en-de/BLEU/sys/spearman": 0.1458521811827946,
    "en-de/BLEU/sys/kendall-b": 0.1027487344486901,
    "en-de/BLEU/sys/kendall-c": 0.09883131749484947,
    "en-de/BLEU/sys/kendall-23": 0.001968677970383003,
    "en-de/BLEU/sys/kendall-acc23": 0.5009843389851916,
    "en-de/BLEU/item/pearson": 0.3101111866217155,
    "en-de/BLEU/item/spearman": 0.290416983937915,
    "en-de/BLEU/item/kendall-b": 0.23062224889357236,
    "en-de/BLEU/item/kendall-c": 0.22228292831350852,
    "en-de/BLEU/item/kendall-23": 0.03919631093544136,
    "en-de/BLEU/item/kendall-acc23": 0.5195981554677204,
    "en-de/chrF/none/pearson": 0.23197804538571226,
    "en-de/chrF/none/spearman": 0.2616941823722069,
    "en-de/chrF/none/kendall-b": 0.18602315756027607,
    "en-de/chrF/none/kendall-c": 0.1778386217244913,
    "en-de/chrF/none/kendall-23": 0.086550677370139,
    "en-de/chrF/none/kendall-acc23": 0.5432753386850695,
    "en-de/chrF/sys/pearson": 0.15718248380548364,
    "en-de/chrF/sys/spearman": 0.21488608841848136,
    "en-de/chrF/sys/kendall-b": 0.15247362823240787,
    "en-de/chrF/sys/kendall-c": 0.14665913460702137,
    "en-de/chrF/sys/kendall-23": 0.04939534590003474,
    "en-de/chrF/sys/kendall-acc23": 0.5246976729500173,
    "en-de/chrF/item/pearson": 0.336440284772485,
    "en-de/chrF/item/spearman": 0.3056200228883685,
    "en-de/chrF/item/kendall-b": 0.2411886524094731,
    "en-de/chrF/item/kendall-c": 0.233670614701195,
    "en-de/chrF/item/kendall-23": 0.03847167325428195,
    "en-de/chrF/item/kendall-acc23": 0.5192358366271412,
    "zh-en/BLEU/none/pearson": 0.11937767581631317,
    "zh-en/BLEU/none/spearman": 0.12061875815884417,
    "zh-en/BLEU/none/kendall-b": 0.08470176738554919,
    "zh-en/BLEU/none/kendall-c": 0.08023955549412927,
    "zh-en/BLEU/none/kendall-23": -0.025836982171889195,
    "zh-en/BLEU/none/kendall-acc23": 0.4870815089140554,
    "zh-en/BLEU/sys/pearson": 0.09315899484805355,
    "zh-en/BLEU/sys/spearman": 0.0891096572466532,
    "zh-en/BLEU/sys/kendall-b": 0.06212937681915309,
    "zh-en/BLEU/sys/kendall-c": 0.059568600825997145,
    "zh-en/BLEU/sys/kendall-23": -0.05177485324347808,
    "zh-en/BLEU/sys/kendall-acc23": 0.47411257337826096,
    "zh-en/BLEU/item/pearson": 0.20758119315429363,
    "zh-en/BLEU/item/spearman": 0.1935089564104458,
    "zh-en/BLEU/item/kendall-b": 0.15389839935038077,
    "zh-en/BLEU/item/kendall-c": 0.14623566225461151,
    "zh-en/BLEU/item/kendall-23": -0.056487437795849076,
    "zh-en/BLEU/item/kendall-acc23": 0.47175628110207607,
    "zh-en/chrF/none/pearson": 0.06348204323347544,
    "zh-en/chrF/none/spearman": 0.06477684012148928,
    "zh-en/chrF/none/kendall-b": 0.04521154307783389,
    "zh-en/chrF/none/kendall-c": 0.042855922908474,
    "zh-en/chrF/none/kendall-23": -0.06261388673952505,
    "zh-en/chrF/none/kendall-acc23": 0.46869305663023747,
    "zh-en/chrF/sys/pearson": 0.019893970442013423,
    "zh-en/chrF/sys/spearman": 0.02508271601217442,
    "zh-en/chrF/sys/kendall-b": 0.016534325960805056,
    "zh-en/chrF/sys/kendall-c": 0.016142174346919093,
    "zh-en/chrF/sys/kendall-23": -0.09425592950292551,
    "zh-en/chrF/sys/kendall-acc23": 0.45287203524853725,
    "zh-en/chrF/item/pearson": 0.26284002566214765,
    "zh-en/chrF/item/spearman": 0.23555862057280044,
    "zh-en/chrF/item/kendall-b": 0.1874975877180904,
    "zh-en/chrF/item/kendall-c": 0.17975155139257698,
    "zh-en/chrF/item/kendall-23": -0.030060282396731006,
    "zh-en/chrF/item/kendall-acc23": 0.4849698588016345,
}


def test_variants_from_counted_pairs():
    gold = np.array([1.0, 2.0, 2.0, 3.0])
    metric = np.array([1.0, 1.0, 2.0, 3.0])
    # pairs: (0,1) metric tie only; (0,2) (0,3) (1,3) (2,3) concordant; (1,2) gold tie only
    counts = pair_counts(gold, metric)
    assert (counts.concordant, counts.discordant, counts.metric_ties_only, counts.gold_ties_only) == (4, 0, 1, 1)
    assert counts.both_tied == 0
    assert kendall_variant(gold, metric, "b") == pytest.approx(4 / math.sqrt(5 * 5))
    # 3 distinct values each: 2 * 4 / (16 * 2 / 3)
    assert kendall_variant(gold, metric, "c") == pytest.approx(8 / (16 * 2 / 3))
    assert kendall_variant(gold, metric, "23") == pytest.approx((4 - 1 - 1) / 6)
    assert kendall_variant(gold, metric, "acc23") == pytest.approx(4 / 6)
    assert math.isnan(kendall_variant(gold, np.ones(4), "b")) and math.isnan(kendall_variant(gold, np.ones(4), "c"))
    assert kendall_variant(np.ones(4), np.ones(4), "acc23") == 1.0  # every pair tied by both: all agree
    with pytest.raises(InputError, match="unknown Kendall variant 'd'"):
        kendall_variant(gold, metric, "d")


def test_grouping_averages_rows_or_columns_and_skips_what_is_undefined():
    gold = np.array([[1.0, 2.0, 3.0], [3.0, np.nan, 1.0], [1.0, 1.0, np.nan]])
    metric = np.array([[1.0, 2.0, 3.0], [1.0, 5.0, 3.0], [4.0, 2.0, 9.0]])
    # by system: row 0 r = 1; row 1 rated (3, 1) vs (1, 3): r = -1; row 2 gold constant: left out
    assert grouped(pearson, gold, metric, "sys") == 0.0
    # by item: column 0 gold (1, 3, 1) vs (1, 1, 4); column 1 has one rated pair (2, 1) vs (2, 2): metric tie
    # of two entries -> NaN, left out; column 2 (3, 1) vs (3, 3): metric constant -> left out
    column = pearson(np.array([1.0, 3.0, 1.0]), np.array([1.0, 1.0, 4.0]))
    assert grouped(pearson, gold, metric, "item") == pytest.approx(column)
    assert grouped(pearson, np.full((2, 2), np.nan), metric[:2, :2], "none") == 0.0  # nothing rated
    with pytest.raises(InputError, match="unknown grouping 'lp'"):
        grouped(pearson, gold, metric, "lp")


def read(path):
    scores: dict[str, list[float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        system, value = line.split()
        scores.setdefault(system, []).append(math.nan if value == "None" else float(value))
    return scores


@pytest.mark.slow
@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_variants_and_groupings_equal_mt_metrics_eval_on_wmt23(lp):
    root = metaeval_dir()
    oracle = json.loads((root / "oracle.json").read_text(encoding="utf-8"))
    (figure, *_) = [f for f in oracle["figures"] if f["id"].startswith(f"wmt23/{lp}/human=False/seg/pearson/")]
    systems = figure["settings"]["systems"]
    gold_scores = read(root / "wmt23" / "human-scores" / f"{lp}.mqm.seg.score")
    gold = np.array([gold_scores[system] for system in systems])
    checked = 0
    for key, expected in MT_METRICS_EVAL.items():
        key_lp, metric_name, average_by, statistic = key.split("/")
        if key_lp != lp:
            continue
        metric_scores = read(root / "wmt23" / "metric-scores" / lp / f"{metric_name}-refA.seg.score")
        metric = np.array([metric_scores[system] for system in systems])
        if statistic.startswith("kendall-"):
            variant = statistic.split("-")[1]
            value = grouped(lambda g, m, v=variant: kendall_variant(g, m, v), gold, metric, average_by)
        else:
            value = grouped({"pearson": pearson, "spearman": spearman}[statistic], gold, metric, average_by)
        assert math.isclose(value, expected, rel_tol=0, abs_tol=1e-9), (key, value, expected)
        checked += 1
    assert checked == 2 * 3 * 6  # two metrics, three groupings, six statistics


WMT23_SCORES = {"BLEU": "BLEU-refA.seg.score", "chrF": "chrF-refA.seg.score"}
# The variants as tasks: (corr_fcn, variant) of evaluate and --statistics for the key of MT_METRICS_EVAL.
TASKS = {
    "pearson": ("pearson", None),
    "spearman": ("spearman", None),
    "kendall-b": ("kendall", "b"),
    "kendall-c": ("KendallVariants", "c"),
    "kendall-23": ("KendallVariants", "23"),
    "kendall-acc23": ("KendallVariants", "acc23"),
}


def official_score_files(lp):
    return [metaeval_dir() / "wmt23" / "metric-scores" / lp / name for name in WMT23_SCORES.values()]


@pytest.mark.slow
@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_evaluate_computes_every_grouping_and_variant_as_mt_metrics_eval(lp):
    """``evaluate`` with (level, corr_fcn, avg_by, variant) tasks reproduces ``MT_METRICS_EVAL`` (figures of
    mt-metrics-eval's ``AverageCorrelation``, see the module docstring) from the official score files."""
    from mtscore.metaeval import evaluate, read_eval_set

    evs = read_eval_set(metaeval_dir(), "wmt23", lp)
    wanted = [("seg", fcn, avg_by, variant) for fcn, variant in TASKS.values() for avg_by in ("none", "sys", "item")]
    result = evaluate(evs, scores=official_score_files(lp), statistics=wanted)
    checked = 0
    for key, expected in MT_METRICS_EVAL.items():
        key_lp, metric, avg_by, statistic = key.split("/")
        if key_lp == lp:
            ranking = result.ranking("seg", *TASKS[statistic][:1], avg_by=avg_by, variant=TASKS[statistic][1])
            assert math.isclose(ranking.values[metric], expected, rel_tol=0, abs_tol=1e-9), key
            if avg_by != "none":  # grouped statistics get PERM-BOTH clusters (two metrics: cluster 1 or 2)
                assert ranking.ranks[metric] in (1, 2)
                assert ranking.draws[0][1] > 0
            checked += 1
    assert checked == 36


def test_default_statistics_are_the_seven_ungrouped_tasks():
    from mtscore.metaeval.evaluate import STATISTICS, statistic_task

    assert [statistic_task(pair) for pair in STATISTICS] == [
        ("sys", "pearson", "none", None),
        ("sys", "spearman", "none", None),
        ("sys", "kendall", "none", None),
        ("sys", "accuracy", "none", None),
        ("seg", "pearson", "none", None),
        ("seg", "kendall", "none", None),
        ("seg", "KendallWithTiesOpt", "item", None),
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (("seg", "kendall", "lp"), "no statistic seg:kendall:lp"),
        (("seg", "KendallVariants", "item", "d"), "no statistic seg:KendallVariants:item:d"),
        (("sys", "pearson", "item"), "no statistic sys:pearson:item"),
        (("seg", "KendallWithTiesOpt", "sys"), "no statistic seg:KendallWithTiesOpt:sys"),
        (("seg",), "a statistic is (level, corr_fcn[, avg_by[, variant]])"),
    ],
)
def test_unknown_tasks_are_refused_with_the_known_ones(spec, message):
    from mtscore.metaeval.evaluate import statistic_task

    with pytest.raises(InputError, match=re.escape(message)) as error:
        statistic_task(spec)
    if message.startswith("no statistic"):
        assert "seg:KendallVariants:none|sys|item:b|c|23|acc23" in str(error.value)


def test_command_line_statistics_name_tasks_as_mt_metrics_eval(capsys):
    """--statistics level:corr_fcn:avg_by:variant; the JSON names avg_by, corr_fcn, corr_fcn_args and k as
    mt-metrics-eval's Task does, and the values are MT_METRICS_EVAL's."""
    code, out, err = run(
        capsys,
        "meta-eval",
        metaeval_dir(),
        "-t",
        "wmt23",
        "-l",
        "zh-en",
        "--scores",
        *official_score_files("zh-en"),
        "--statistics",
        "seg:kendall:item:c",
        "seg:KendallVariants:sys:acc23",
        "seg:spearman:item",
        "-f",
        "json",
    )
    assert code == 0, err
    tasks = json.loads(out)["tasks"]
    found = [(t["level"], t["corr_fcn"], t["avg_by"], t["corr_fcn_args"], t["k"]) for t in tasks]
    assert found == [
        ("seg", "kendall", "item", {"variant": "c"}, 1000),
        ("seg", "KendallVariants", "sys", {"variant": "acc23"}, 1000),
        ("seg", "spearman", "item", {}, 1000),
    ]
    expected = ["item/kendall-c", "sys/kendall-acc23", "item/spearman"]
    for task, key in zip(tasks, expected, strict=True):
        for metric in WMT23_SCORES:
            value = MT_METRICS_EVAL[f"zh-en/{metric}/{key}"]
            assert math.isclose(task["corr_ranks"][metric][0], value, rel_tol=0, abs_tol=1e-9), key


def test_command_line_refuses_an_unknown_statistic_as_a_usage_error(capsys):
    code, out, err = run(
        capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "zh-en", "-m", "bleu", "--statistics", "seg:tau"
    )
    assert (code, out) == (1, "")
    assert "--statistics seg:tau: no statistic seg:tau:none" in err and "Traceback" not in err
