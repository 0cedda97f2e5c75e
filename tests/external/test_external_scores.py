"""Segment scores computed elsewhere as a metric (``--scores-file``, ``mtscore.external``): read from
mt-metrics-eval's ``.seg.score`` files and TSV files, averaged over the rated segments, and taken by
``--confidence``, the paired tests and ``mtscore report``; bad files are input errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import run, write
from shared_data import metaeval_dir

from mtscore.errors import InputError
from mtscore.external import ExternalScores, read_segment_scores
from mtscore.report.compare.svg import grouped_bars
from mtscore.significance.paired import paired_test

SYSTEMS = {"A": [0.5, 0.25, None], "B": [0.75, 0.5, 1.0], "C": [-1.0, 0.0, 0.5]}


def seg_score_file(tmp_path, scores=SYSTEMS, name="judge.seg.score"):
    lines = [f"{system}\t{value}" for system, values in scores.items() for value in values]
    return write(tmp_path / name, lines)


def outputs(tmp_path, systems=("A", "B", "C")):
    """A reference and one output file per system, named ``<system>.txt`` as in mt-metrics-eval."""
    reference = write(tmp_path / "ref.txt", ["one", "two", "three"])
    files = [write(tmp_path / f"{system}.txt", [f"{system} {i}" for i in range(3)]) for system in systems]
    return reference, files


def test_tsv_and_seg_score_files_read_alike(tmp_path):
    lines = ["system\tsegment\tscore"] + [
        f"{system}\t{segment}\t{value}"
        for system, values in SYSTEMS.items()
        for segment, value in reversed(list(enumerate(values, 1)))  # any order
    ]
    tsv = write(tmp_path / "judge.tsv", lines)
    assert read_segment_scores(tsv) == SYSTEMS == read_segment_scores(seg_score_file(tmp_path))


@pytest.mark.parametrize(
    ("name", "lines", "message"),
    [
        ("x.sys.score", ["A\t1"], "holds one score per system"),
        ("x.seg.score", ["A\t1", "A\tnan"], "line 2: the score is nan"),
        ("x.seg.score", ["A\t1", "A"], "line 2: expected '<system> <score>'"),
        ("x.seg.score", ["A\tNone", "B\t1"], "no segment of A has a score"),
        ("x.tsv", ["A\t1\t0.5", "A\t3\t0.5"], "none for 1 segment (2)"),
        ("x.tsv", ["A\t1\t0.5", "A\t1\t0.7"], "segment 1 of 'A' is given twice"),
        ("x.tsv", ["A\t0\t0.5"], "segments count from 1"),
        ("x.tsv", ["A\tfirst\t0.5"], "the segment 'first' is not a number (counted from 1)"),
        ("x.tsv", ["A 1 0.5"], "expected 'system<TAB>segment<TAB>score'"),
        ("x.tsv", ["A\t1\tgood"], "the score 'good' is not a number"),
    ],
)
def test_bad_score_files_are_input_errors(tmp_path, name, lines, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_segment_scores(write(tmp_path / name, lines))


def test_corpus_score_is_the_mean_of_the_rated_segments(tmp_path):
    metric = ExternalScores(seg_score_file(tmp_path))
    hypotheses = {system: [f"{system} {i}" for i in range(3)] for system in SYSTEMS}
    metric.name_systems(hypotheses)
    score = metric.corpus_score(hypotheses["A"])
    assert (score.name, score.score, score.rated, score.segments) == ("judge", 0.375, 2, 3)  # (0.5 + 0.25) / 2
    assert metric.corpus_score(list(hypotheses["C"])).score == pytest.approx(-0.5 / 3)  # equal lines, another list
    with pytest.raises(InputError, match="not the output of a system named"):
        metric.corpus_score(["x", "y", "z"])
    with pytest.raises(InputError, match="has no scores for the system 'D'"):
        metric.name_systems({"D": ["x", "y", "z"]})
    with pytest.raises(InputError, match="has 3 segment scores for 'A', but its output has 2 lines"):
        metric.name_systems({"A": ["x", "y"]})


def test_means_of_wmt23_mqm_segments_are_the_official_system_scores():
    """The official WMT23 ``mqm.sys.score`` is the mean of each system's rated ``mqm.seg.score``
    values (the data's README): the metric's corpus scores must be those numbers."""
    folder = metaeval_dir() / "wmt23" / "human-scores"
    metric = ExternalScores(folder / "en-de.mqm.seg.score")
    official = read_lines_scores(folder / "en-de.mqm.sys.score")
    for system, expected in official.items():
        if expected is None:
            continue
        score = metric.score_statistics(metric.system_statistics(system))
        assert math.isclose(score.score, expected, rel_tol=1e-12), system
        assert (score.rated, score.segments) == (460, 557)  # 97 of 557 segments were not rated


def read_lines_scores(path):
    pairs = (line.split() for line in path.read_text(encoding="utf-8").splitlines())
    return {system: None if value == "None" else float(value) for system, value in pairs}


def test_confidence_of_constant_scores_is_that_score_with_no_spread(capsys, tmp_path):
    """Every resample of three segments scored 2 has the mean 2: the interval is 2 +- 0."""
    reference, files = outputs(tmp_path, ("A", "B"))
    scores = seg_score_file(tmp_path, {"A": [2.0, 2.0, 2.0], "B": [1.0, 3.0, 5.0]})
    code, out, err = run(capsys, reference, "-i", *files, "--scores-file", scores, "-ci", "-f", "json", "-w", "4")
    assert code == 0, err
    first, second = json.loads(out)
    assert (first["judge"], first["judge confidence"]) == ("2.0000", "μ = 2.0000 ± 0.0000")
    assert second["judge"] == "3.0000"  # (1 + 3 + 5) / 3
    assert "bs:1000|seed:12345|file:judge.seg.score|sha256:" in first["judge signature"]


@pytest.mark.parametrize("test", [["-ci"], ["-pbs", "-pbsn", "200"], ["-par", "-parn", "200"]], ids=" ".join)
def test_resamples_without_a_rated_segment_are_refused_not_printed_as_nan(capsys, tmp_path, test):
    """One rated segment of four: (3/4)^4 of the resamples draw none, and their mean is undefined; the
    command refuses instead of printing an interval or p-value of NaN."""
    scores = seg_score_file(tmp_path, {"A": [0.5, None, None, None], "B": [0.1, None, None, None]})
    reference = write(tmp_path / "ref4", ["r 0", "r 1", "r 2", "r 3"])
    files = [write(tmp_path / name, [f"{name} {i}" for i in range(4)]) for name in ("A", "B")]
    code, out, err = run(capsys, reference, "-i", *files, "--scores-file", scores, *test, "--no-progress")
    assert code == 2 and out == "" and "nan" not in err.lower(), err
    assert "resampled scores are undefined" in err and "too few such segments to resample" in err


def test_paired_tests_of_equal_scores_find_no_difference(capsys, tmp_path):
    """Two systems with the same segment scores: every randomization trial's difference is 0, at least
    the observed 0, so p = (trials + 1) / (trials + 1) = 1."""
    reference, files = outputs(tmp_path, ("A", "B", "C"))
    scores = seg_score_file(tmp_path, {"A": [0.1, 0.5, 0.9], "B": [0.1, 0.5, 0.9], "C": [0.9, 0.8, 1.0]})
    code, out, err = run(
        capsys, reference, "-i", *files, "--scores-file", scores, "-par", "-parn", "99", "-f", "json", "--no-progress"
    )
    assert code == 0, err
    assert '"p_value": 1.0' in out
    result = paired_test(
        {name: [f"{name} {i}" for i in range(3)] for name in "ABC"},
        metrics=[ExternalScores(scores)],
        test="ar",
        n_samples=99,
        seed=1,
    )
    baseline, equal, other = result.results["judge"]
    assert (baseline.score, equal.score, equal.p_value) == (0.5, 0.5, 1.0)
    assert other.score == pytest.approx(0.9)  # (0.9 + 0.8 + 1.0) / 3
    code, out, err = run(capsys, reference, "-i", *files, "--scores-file", scores, "-pbs", "--all-pairs", "-f", "text")
    assert code == 0, err
    assert "judge:" in out


def test_report_shows_external_scores(capsys, tmp_path):
    """Every segment rated: a resample of three segments that drew only an unrated one would have no
    mean (which the report refuses, as the resampling test above checks)."""
    reference, files = outputs(tmp_path, ("A", "B", "C"))
    scores = seg_score_file(tmp_path, {"A": [0.5, 0.25, 0.0], "B": [0.75, 0.5, 1.0], "C": [-1.0, 0.0, 0.5]})
    code, out, err = run(capsys, "report", reference, "-i", *files, "--scores-file", scores, "-f", "md", "-n", "50")
    assert code == 0, err
    header = out.splitlines()[0]
    assert header.endswith("| judge [95% CI] p |")
    assert "file:judge.seg.score|sha256:" in out
    html = tmp_path / "report.html"
    code, _, err = run(capsys, "report", reference, "-i", *files, "--scores-file", scores, "-o", html, "-n", "50")
    assert code == 0, err
    assert "judge (higher is better)" in html.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("lines", "code", "message"),
    [
        (["A\t1", "A\t1", "A\t1", "B\t1", "B\t1", "B\t1"], 2, "has no scores for the system"),
        (["A\t1", "A\t1", "B\t1", "B\t1", "C\t1", "C\t1"], 2, "has 2 segment scores for 'A', but its output has 3"),
    ],
)
def test_command_line_refuses_scores_that_do_not_fit(capsys, tmp_path, lines, code, message):
    reference, files = outputs(tmp_path, ("A", "B", "C"))
    scores = write(tmp_path / "judge.seg.score", lines)
    result, out, err = run(capsys, reference, "-i", *files, "--scores-file", scores)
    assert (result, out) == (code, "")
    assert message in err and "Traceback" not in err


def test_command_line_refuses_a_system_score_file_and_a_file_twice(capsys, tmp_path):
    reference, files = outputs(tmp_path, ("A", "B"))
    sys_file = write(tmp_path / "judge.sys.score", ["A\t1", "B\t2"])
    code, _, err = run(capsys, reference, "-i", *files, "--scores-file", sys_file)
    assert code == 2 and "give the .seg.score file" in err
    seg_file = seg_score_file(tmp_path)
    code, _, err = run(capsys, reference, "-i", *files, "--scores-file", seg_file, seg_file)
    assert code == 1 and "the same file or metric name twice" in err


def test_bars_of_negative_values_go_down_from_zero():
    # values -10 and 50: ticks -10..50 by 10, the plot 198 units high (260 - 40 - 22), 3.3 a unit; 0 is
    # 33 units above the bottom (y = 22 + 198 - 33 = 187).
    svg = grouped_bars(["g"], ["neg", "pos"], np.array([[-10.0], [50.0]]))
    assert 'y="187.0" width=' in svg and 'height="33.0"' in svg  # the negative bar: from 0 down 33 units
    assert 'y="22.0" width=' in svg and 'height="165.0"' in svg  # the positive bar: from 0 up to the top
    # without negative values the axis starts at 0: 50 fills the plot (y = 22, height 198)
    svg = grouped_bars(["g"], ["pos"], np.array([[50.0]]))
    assert 'y="22.0" width=' in svg and 'height="198.0"' in svg


def test_scores_on_the_unit_scale_show_four_decimals_unless_width_is_given(capsys, tmp_path):
    """A mean of 0.65625 shown with one decimal would read 0.7; scores in [-1, 1] show 4 unless -w says."""
    reference = write(tmp_path / "ref.txt", ["a b c", "d e f", "g h"])
    output = write(tmp_path / "A.txt", ["a b c", "d e", "g"])
    judge = write(tmp_path / "judge.tsv", ["A\t1\t0.8125", "A\t2\tNone", "A\t3\t0.5"])
    code, out, err = run(capsys, reference, "-i", output, "-m", "bleu", "--scores-file", judge, "-b")
    assert code == 0, err
    assert json.loads(out) == [0.0, 0.6562] and "0.0000" in out
    code, out, err = run(capsys, reference, "-i", output, "-m", "bleu", "--scores-file", judge, "-b", "-w", "1")
    assert code == 0, err
    assert json.loads(out) == [0.0, 0.7]
    wide = write(tmp_path / "mqm.tsv", ["A\t1\t-5", "A\t2\t", "A\t3\t-2"])  # empty: not rated, as None
    code, out, err = run(capsys, reference, "-i", output, "-m", "bleu", "--scores-file", wide, "-b")
    assert code == 0, err
    assert json.loads(out) == [0.0, -3.5] and "-3.5\n" in out


def test_system_level_tsv_is_refused_for_segment_scores(capsys, tmp_path):
    reference = write(tmp_path / "ref.txt", ["a b c"])
    output = write(tmp_path / "A.txt", ["a b c"])
    judge = write(tmp_path / "judge.tsv", ["system\tscore", "A\t0.5"])
    code, out, err = run(capsys, reference, "-i", output, "--scores-file", judge)
    assert (code, out) == (2, "")
    assert "holds one score per system (system<TAB>score)" in err


def test_scores_of_a_whole_test_set_give_the_kept_segments_of_a_subset(tmp_path):
    """Outputs cut to some segments of a test set (``-t ... --origlang``) take, from a file that scores
    every segment of the whole test set, the scores of the segments kept; a file of neither length is
    refused with a message that names the filter and both counts."""
    from mtscore.external import ExternalScores

    scores = seg_score_file(tmp_path, {"A": [0.1, 0.2, 0.3, 0.4]})
    kept = [True, False, True, False]
    metric = ExternalScores(scores)
    metric.name_systems({"A": ["one", "three"]}, kept, "--origlang de")
    assert metric.corpus_score(["one", "three"]).score == pytest.approx((0.1 + 0.3) / 2)
    cut = ExternalScores(scores)
    cut.name_systems({"A": ["one", "two", "three", "four"]})  # every segment kept: the file as it is
    assert cut.corpus_score(["one", "two", "three", "four"]).score == pytest.approx(0.25)
    with pytest.raises(InputError, match=r"has 4 segment scores for 'A', but its output has 3 lines \(--origlang de "
                       r"keeps 3 of the test set's 5 segments"):  # fmt: skip
        ExternalScores(scores).name_systems({"A": ["x", "y", "z"]}, [True, True, True, False, False], "--origlang de")
