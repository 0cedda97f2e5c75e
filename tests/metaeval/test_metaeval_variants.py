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

import numpy as np
import pytest
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
