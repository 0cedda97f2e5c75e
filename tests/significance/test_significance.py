"""Paired bootstrap, approximate randomization and confidence intervals against sacrebleu 2.6.0."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
import sacrebleu
from helpers import run, sacrebleu_cli
from sacrebleu.significance import PairedTest, _bootstrap_resample
from shared_data import read_lines, references, system_output

from mtscore import BLEU
from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from mtscore.progress import Progress
from mtscore.significance import paired_test, paired_test_statistics
from mtscore.significance import resampling as significance
from mtscore.significance.resampling import holm
from mtscore.significance.results import to_latex, to_text

SYSTEMS = ["Online-A", "Online-B", "PROMT", "JDExploreAcademy"]


@pytest.fixture(scope="module")
def data():
    hyps = {name: read_lines(system_output("en-de", name)) for name in SYSTEMS}
    refs = {
        "A": [read_lines(p) for p in references("en-de", "A")],
        "all": [read_lines(p) for p in references("en-de", "all")],
    }
    return hyps, refs


def sacrebleu_paired(hyps, refs, names, test, n_samples, **metric_options):
    metric = sacrebleu.BLEU(references=refs, **metric_options)
    _, scores = PairedTest([(n, hyps[n]) for n in names], {"BLEU": metric}, None, test_type=test, n_samples=n_samples)()
    return scores["BLEU"]


def assert_same(ours, theirs):
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    assert ours.p_value == theirs.p_value  # same draws, same counts: exactly equal
    for name in ("mean", "ci"):
        expected = getattr(theirs, name)
        assert getattr(ours, name) == (None if expected is None else pytest.approx(expected, abs=1e-9))


@pytest.mark.parametrize("refs_name", ["A", "all"])
@pytest.mark.parametrize("test, n_samples", [("bs", 1000), ("ar", 10000), ("ar", 2000), ("bs", 300)])
def test_paired_tests_equal_sacrebleu(data, monkeypatch, refs_name, test, n_samples):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    hyps, refs = data
    names = SYSTEMS[:3]
    ours = paired_test({n: hyps[n] for n in names}, refs[refs_name], test=test, n_samples=n_samples)
    theirs = sacrebleu_paired(hyps, refs[refs_name], names, test, n_samples)
    for mine, expected in zip(ours.results["BLEU"], theirs, strict=False):
        assert_same(mine, expected)


@pytest.mark.parametrize("seed", ["7", "2024"])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_seed_from_option_and_environment(data, monkeypatch, seed, test):
    hyps, refs = data
    names = SYSTEMS[1:3]
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    theirs = sacrebleu_paired(hyps, refs["A"], names, test, 500)
    monkeypatch.delenv("SACREBLEU_SEED")
    by_option = paired_test({n: hyps[n] for n in names}, refs["A"], test=test, n_samples=500, seed=int(seed))
    monkeypatch.setenv("MTSCORE_SEED", seed)
    by_variable = paired_test({n: hyps[n] for n in names}, refs["A"], test=test, n_samples=500)
    for result in (by_option, by_variable):
        assert result.seed == int(seed)
        for mine, expected in zip(result.results["BLEU"], theirs, strict=False):
            assert_same(mine, expected)


def test_sacrebleu_seed_variable_is_honoured_and_ours_wins(monkeypatch):
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    monkeypatch.setenv("SACREBLEU_SEED", "11")
    assert significance.resolve_seed() == 11
    monkeypatch.setenv("MTSCORE_SEED", "12")
    assert significance.resolve_seed() == 12
    assert significance.resolve_seed(5) == 5
    assert significance.resolve_seed("None") is None
    monkeypatch.delenv("MTSCORE_SEED")
    monkeypatch.delenv("SACREBLEU_SEED")
    assert significance.resolve_seed() == 12345


def test_unseeded_runs_differ(data):
    hyps, refs = data
    systems = {n: hyps[n][:300] for n in SYSTEMS[:2]}
    refs_a = [stream[:300] for stream in refs["A"]]
    means = {paired_test(systems, refs_a, n_samples=200, seed="none").results["BLEU"][1].mean for _ in range(3)}
    assert len(means) > 1


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_single_system_confidence_equals_sacrebleu(data, monkeypatch, smooth):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    hyps, refs = data
    metric = BLEU(refs["all"], smooth=smooth)
    mean, ci = significance.bootstrap_confidence(metric, metric.segment_statistics(hyps["PROMT"]), 1000)
    expected = sacrebleu.BLEU(smooth_method=smooth).corpus_score(hyps["PROMT"], refs["all"], n_bootstrap=1000)
    assert (mean, ci) == (pytest.approx(expected._mean, abs=1e-9), pytest.approx(expected._ci, abs=1e-9))


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_float32_resample_scores_equal_sacrebleu(data, smooth):
    """sacrebleu scores resamples from float32 sums: our float32 path reproduces that arithmetic."""
    hyps, refs = data
    ours = BLEU(refs["A"], smooth=smooth)
    theirs = sacrebleu.BLEU(references=refs["A"], smooth_method=smooth)
    stats = ours.segment_statistics(hyps["Online-B"])
    _, expected = _bootstrap_resample(theirs._extract_corpus_statistics(hyps["Online-B"], None), theirs, 200)
    rng = np.random.default_rng(12345)
    sums = significance.bootstrap_sums(stats.astype(np.float64), 200, rng)
    np.testing.assert_allclose(
        ours.scores_of_sums(sums.astype(np.float32)), [s.score for s in expected], rtol=0, atol=1e-9
    )


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_identical_systems_have_p_value_one(data, test):
    hyps, refs = data
    result = paired_test({"a": hyps["PROMT"], "b": list(hyps["PROMT"])}, refs["A"], test=test, n_samples=500)
    assert result.results["BLEU"][1].p_value == 1.0
    comparison = result.comparison("BLEU", 1, 0)
    assert (comparison.delta, comparison.lower, comparison.upper) == (0.0, 0.0, 0.0)


def test_systems_differing_in_one_segment_are_not_significant(data):
    """Every trial then swaps that segment or not: ties with the observed difference count."""
    hyps, refs = data
    changed = list(hyps["PROMT"])
    changed[10] = "completely different words here"
    result = paired_test({"a": hyps["PROMT"], "b": changed}, refs["A"], test="ar", n_samples=1000)
    assert result.results["BLEU"][1].p_value == 1.0


def test_holm_against_a_hand_computation():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> monotone 0.06
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])  # capped at 1
    np.testing.assert_allclose(holm([0.02]), [0.02])


def test_all_pairs_equal_tests_with_each_system_as_baseline(data, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    hyps, refs = data
    for test, n in (("bs", 1000), ("ar", 3000)):
        result = paired_test({n_: hyps[n_] for n_ in SYSTEMS}, refs["A"], test=test, n_samples=n, all_pairs=True)
        assert len(result.comparisons) == 6
        for c in result.comparisons:
            expected = sacrebleu_paired(hyps, refs["A"], [SYSTEMS[c.against], SYSTEMS[c.system]], test, n)[1]
            assert c.p_value == expected.p_value
        np.testing.assert_allclose(
            [c.p_holm for c in result.comparisons], holm([c.p_value for c in result.comparisons])
        )


def test_difference_interval_from_the_same_resamples(data, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    hyps, refs = data
    result = paired_test({n: hyps[n] for n in SYSTEMS[:2]}, refs["A"], test="bs")
    metric = sacrebleu.BLEU(references=refs["A"])
    scores = {}
    for name in SYSTEMS[:2]:
        _, resampled = _bootstrap_resample(metric._extract_corpus_statistics(hyps[name], None), metric, 1000)
        scores[name] = np.array([s.score for s in resampled])
    differences = np.sort(scores[SYSTEMS[1]] - scores[SYSTEMS[0]])
    c = result.comparison("BLEU", 1, 0)
    assert c.lower == pytest.approx(differences[25], abs=1e-9) and c.upper == pytest.approx(differences[974], abs=1e-9)
    assert c.delta == pytest.approx(result.results["BLEU"][1].score - result.results["BLEU"][0].score)
    assert c.lower < c.delta < c.upper


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_chunked_draws_equal_one_draw(data, monkeypatch, test):
    """Memory stays bounded: drawing in small chunks gives the very draws of one call."""
    hyps, refs = data
    systems = {n: hyps[n] for n in SYSTEMS[:3]}
    whole = paired_test(systems, refs["A"], test=test, n_samples=999)
    monkeypatch.setattr(significance, "_CHUNK_BYTES", 8 * 2037 * 3)  # a few rows at a time
    chunked = paired_test(systems, refs["A"], test=test, n_samples=999)
    assert whole.results == chunked.results and whole.comparisons == chunked.comparisons


@pytest.mark.parametrize("scale", [1, 1 << 22, 0.5], ids=["float32", "large-float64", "fractional-float64"])
def test_sums_are_exact_resample_and_trial_sums(scale):
    """Small integer statistics are summed in float32 (exact below 2**24), others in float64."""
    stats = np.arange(60).reshape(20, 3) * scale
    rng = np.random.default_rng(3)
    drawn = np.random.default_rng(3).choice(20, size=(7, 20), replace=True)
    np.testing.assert_array_equal(significance.bootstrap_sums(stats, 7, rng), stats[drawn].sum(axis=1))
    selected = np.random.default_rng(4).integers(2, size=(40, 20), dtype=bool)
    np.testing.assert_array_equal(
        significance.randomization_sums(stats, 40, np.random.default_rng(4)), selected @ stats
    )


def test_input_errors(data):
    hyps, refs = data
    one = {"a": hyps["PROMT"]}
    with pytest.raises(significance.InputError, match="two or more"):
        paired_test(one, refs["A"])
    two = {n: hyps[n] for n in SYSTEMS[:2]}
    for bad in (0, -3, 1.5, True):
        with pytest.raises(significance.InputError, match="positive integer"):
            paired_test(two, refs["A"], n_samples=bad)
    with pytest.raises(significance.InputError, match="unknown test"):
        paired_test(two, refs["A"], test="t")
    with pytest.raises(significance.InputError, match="unknown metric"):
        paired_test(two, refs["A"], metrics=["nosuchmetric"])
    with pytest.raises(significance.InputError, match="seed"):
        paired_test(two, refs["A"], seed="abc")
    with pytest.raises(significance.InputError, match="sacrebleu's smoothing"):
        paired_test(two, metrics=[BLEU(refs["A"], smooth="nltk-method3")])
    metric = BLEU(refs["A"])
    stats = [metric.segment_statistics(h) for h in two.values()]
    with pytest.raises(significance.InputError, match="same number of segments"):
        paired_test_statistics({"BLEU": metric}, {"BLEU": [stats[0], stats[1][:5]]}, ["a", "b"])


def test_metric_objects_with_options(data):
    hyps, refs = data
    two = {n: hyps[n] for n in SYSTEMS[:2]}
    result = paired_test(two, metrics=[BLEU(refs["A"], tokenize="intl", lowercase=True)], n_samples=200)
    expected = sacrebleu.BLEU(tokenize="intl", lowercase=True).corpus_score(hyps[SYSTEMS[1]], refs["A"])
    assert result.results["BLEU"][1].score == pytest.approx(expected.score, abs=1e-9)
    assert "tok:intl" in str(result.signatures["BLEU"]) and "bs:200|seed:12345" in str(result.signatures["BLEU"])


def test_reports(data):
    hyps, refs = data
    result = paired_test(
        {"sys_a": hyps["PROMT"], "sys&b": hyps["Online-B"], "c%": hyps["Online-A"]},
        refs["A"],
        n_samples=200,
        all_pairs=True,
    )
    text = to_text(result)
    assert "Baseline: sys_a" in text and "p (Holm)" in text and "nrefs:1|bs:200|seed:12345" in text
    latex = to_latex(result)
    assert r"sys\_a" in latex and r"sys\&b" in latex and r"c\%" in latex and "$\\pm$" in latex
    assert latex.count(r"\toprule") == 2 and "μ" not in latex


def test_progress_bar_only_on_a_terminal():
    stream = io.StringIO()
    bar = Progress("test:", 10, stream=stream, delay=0)
    bar.advance(5)
    bar.close()
    assert stream.getvalue() == ""  # not a terminal
    stream = io.StringIO()
    with Progress("test:", 10, stream=stream, delay=0, force=True) as bar:
        bar.advance(5)
        bar.advance(5)
    assert "test:  50%" in stream.getvalue() and stream.getvalue().endswith("10/10\n")


# --- command line ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_cli_json_equals_sacrebleu(capsys, test):
    refs = references("en-de", "all")
    systems = [system_output("en-de", n) for n in SYSTEMS[:3]]
    code, out, err = run(capsys, *refs, "-i", *systems, test, "-f", "json")
    assert code == EXIT_OK and err == ""
    ours, theirs = json.loads(out), json.loads(sacrebleu_cli(*refs, "-i", *systems, test, "-f", "json"))
    assert [row["system"] for row in ours] == [row["system"] for row in theirs]
    for mine, expected in zip(ours, theirs, strict=False):
        for key, value in expected["BLEU"].items():
            assert mine["BLEU"][key] == (value if value is None else pytest.approx(value, abs=1e-9))


def test_cli_confidence_equals_sacrebleu(capsys):
    refs = references("en-de", "A")
    hyp = system_output("en-de", "Online-B")
    code, out, _ = run(capsys, *refs, "-i", hyp, "--confidence", "-w", "4")
    theirs = json.loads(sacrebleu_cli(*refs, "-i", hyp, "--confidence", "-w", "4"))
    ours = json.loads(out)
    assert code == EXIT_OK
    assert list(ours) == list(theirs)
    assert {k: v for k, v in ours.items() if k not in ("signature", "version")} == {
        k: v for k, v in theirs.items() if k not in ("signature", "version")
    }
    code, out, _ = run(capsys, *refs, "-i", hyp, "--confidence", "-f", "text", "--seed", "3", "-cin", "200")
    assert "(μ = " in out and "bs:200|seed:3|" in out


def test_cli_text_latex_all_pairs(capsys):
    refs = references("en-de", "A")
    systems = [system_output("en-de", n) for n in SYSTEMS[:3]]
    code, out, err = run(capsys, *refs, "-i", *systems, "--paired-bs", "--all-pairs", "-f", "text", "-pbsn", "100")
    assert code == EXIT_OK and err == "" and "every pair of systems" in out and out.count("p (Holm)") == 2
    code, out, _ = run(capsys, *refs, "-i", *systems, "--paired-ar", "-f", "latex", "-parn", "100", "--comparisons")
    assert (
        code == EXIT_OK and out.startswith(r"\begin{tabular}") and "nrefs:1|bs:1000|ar:100|seed:12345|" in out
    )  # sacrebleu's field order
    code, out, _ = run(capsys, *refs, "-i", *systems, "--paired-bs", "-b", "-f", "tsv", "-pbsn", "50")
    assert code == EXIT_OK and len(out.split()) == 3


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--paired-bs"], "two or more systems"),
        (["SECOND", "--all-pairs"], "--all-pairs goes with"),
        (["SECOND", "--paired-bs", "--confidence"], "--confidence goes with"),
        (["--comparisons"], "--comparisons goes with"),
        (["SECOND", "--paired-ar", "--seed", "x"], "seed must be"),
        (["SECOND", "--paired-bs", "-pbsn", "0"], "--paired-bs-n must be 1 or more"),
        (["-sl", "--confidence"], "not -sl"),
        (["SECOND", "--paired-bs", "--paired-ar"], "not allowed with"),
        (["SECOND", "--paired-bs", "-s", "nltk-method2"], None),
    ],
)
def test_cli_usage_errors(capsys, argv, message):
    refs = references("en-de", "A")
    first, second = system_output("en-de", "PROMT"), system_output("en-de", "Online-A")
    argv = [second if a == "SECOND" else a for a in argv]
    code, out, err = run(capsys, *refs, "-i", first, *argv)
    if message is None:  # NLTK smoothing needs per-segment statistics: an input error, not a traceback
        assert code == EXIT_INPUT and "sacrebleu's smoothing" in err
    else:
        assert code == EXIT_USAGE and message in err and out == ""
