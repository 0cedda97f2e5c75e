"""``mtscore meta-eval`` on the shared WMT22 zh-en data (a representative subset of oracle.json's
figures through the command line) and on small made-up folders (bad input: exit 2 with a message)."""

from __future__ import annotations

import json
import math

import pytest
from helpers import run, write
from shared_data import metaeval_dir

NAMES = {"BLEU": "BLEU", "chrF": "chrF2", "chrF++": "chrF2++"}
STATISTICS = {"pairwise_accuracy": "accuracy", "acc_t": "KendallWithTiesOpt"}


@pytest.mark.parametrize("human", [True, False])
def test_json_reproduces_oracle_figures_of_wmt22(capsys, human):
    root = metaeval_dir()
    oracle = json.loads((root / "oracle.json").read_text(encoding="utf-8"))["index"]
    flags = [] if human else ["--no-human"]  # WMT22's default counts human translations, as mt-metrics-eval's Task
    code, out, err = run(
        capsys, "meta-eval", root, "-t", "wmt22", "-l", "zh-en", "-m", "bleu", "chrf", "chrf++", "-f", "json", *flags
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["selections"]["sys"]["human"] is human
    checked = 0
    for task in result["tasks"]:
        for oracle_name, name in NAMES.items():
            statistic = {v: k for k, v in STATISTICS.items()}.get(task["corr_fcn"], task["corr_fcn"])
            key = f"wmt22/zh-en/human={human}/{task['level']}/{statistic}/{oracle_name}"
            assert math.isclose(task["corr_ranks"][name][0], oracle[key], abs_tol=1e-9), key
            checked += 1
    assert checked == 21


def test_text_table_ranks_metrics_and_marks_clusters(capsys):
    code, out, err = run(capsys, "meta-eval", metaeval_dir(), "-t", "wmt22", "-l", "zh-en", "-m", "bleu", "chrf")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "wmt22 zh-en"
    assert "15 systems (human translations: refB; outliers out: none)" in lines[1]
    start = lines.index("system level, Pearson")
    assert lines[start + 1].split() == ["1", "1", "chrF2", "0.647411"]
    assert lines[start + 2].split() == ["2", "1", "BLEU", "0.579449"]  # not significantly worse: same cluster
    assert "segment level, acc-t (KendallWithTiesOpt, by item)" in lines


def small_folder(tmp_path, systems=("A", "B", "C", "D"), segments=3):
    """A made-up test set ``tst``/``xx-yy`` in mt-metrics-eval's layout with one reference and MQM scores."""
    root = tmp_path / "root"
    base = root / "tst"
    for folder in ("sources", "references", "system-outputs/xx-yy", "human-scores"):
        (base / folder).mkdir(parents=True)
    write(base / "sources" / "xx-yy.txt", [f"source {i}" for i in range(segments)])
    reference = [f"the reference sentence number {i}" for i in range(segments)]
    write(base / "references" / "xx-yy.refA.txt", reference)
    write(base / "system-outputs" / "xx-yy" / "refA.txt", reference)
    seg_lines, sys_lines = [], []
    for rank, system in enumerate(systems):
        write(base / "system-outputs" / "xx-yy" / f"{system}.txt", [" ".join(r.split()[: 6 - rank]) for r in reference])
        seg_lines += [f"{system}\t{-rank - i * 0.5}" for i in range(segments)]
        sys_lines.append(f"{system}\t{-rank}")
    write(base / "human-scores" / "xx-yy.mqm.seg.score", seg_lines)
    write(base / "human-scores" / "xx-yy.mqm.sys.score", sys_lines)
    return root


def meta_eval(capsys, root, *extra):
    return run(capsys, "meta-eval", root, "-t", "tst", "-l", "xx-yy", "-m", "bleu", *extra)


def test_unknown_data_needs_gold_and_reference(capsys, tmp_path):
    root = small_folder(tmp_path)
    code, _, err = meta_eval(capsys, root)
    assert code == 2 and "no defaults for tst/xx-yy" in err and "--gold, --reference" in err
    code, out, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["selections"]["sys"]["systems"] == ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    ("file", "lines", "message"),
    [
        ("xx-yy.mqm.sys.score", ["A\t1", "B\t2", "C\t3", "D\tnan"], "line 4: the score is nan"),
        ("xx-yy.mqm.sys.score", ["A\t1", "B\t2", "C\t3", "D\t1", "D\t2"], "has 2 scores for 'D'"),
        ("xx-yy.mqm.sys.score", ["A\t1", "B\t2", "C\t3", "E\t1"], "has scores for 'E', which has no output"),
        ("xx-yy.mqm.seg.score", ["A\t1", "A\t2", "B\t1", "B\t2", "B\t3"], "has 2 scores for 'A'"),
        ("xx-yy.mqm.sys.score", ["A\t1", "B\tgood"], "line 2: the score 'good' is not a number"),
        ("xx-yy.mqm.sys.score", ["A 1 2"], "line 1: expected '<system> <score>'"),
    ],
)
def test_bad_human_scores_are_input_errors(capsys, tmp_path, file, lines, message):
    root = small_folder(tmp_path)
    write(root / "tst" / "human-scores" / file, lines)
    code, out, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA")
    assert (code, out) == (2, "")
    assert message in err and "Traceback" not in err


def test_unrated_systems_are_left_out_and_fewer_than_three_is_an_error(capsys, tmp_path):
    root = small_folder(tmp_path)
    write(root / "tst" / "human-scores" / "xx-yy.mqm.sys.score", ["A\t1", "B\t2", "C\tNone", "D\tNone"])
    code, _, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA")
    assert code == 2 and "only 2 system(s) with mqm scores at sys level (A, B); a correlation needs at least 3" in err


def test_output_of_wrong_length_is_an_input_error(capsys, tmp_path):
    root = small_folder(tmp_path)
    write(root / "tst" / "system-outputs" / "xx-yy" / "B.txt", ["only one line"])
    code, _, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA")
    assert code == 2 and "B.txt has 1 line but the source has 3" in err


def test_external_scores_join_and_are_checked(capsys, tmp_path):
    root = small_folder(tmp_path)
    good = write(tmp_path / "Judge-refA.sys.score", ["A\t4", "B\t3", "C\t2", "D\t1"])
    code, out, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA", "--scores", good, "-f", "json")
    assert code == 0, err
    pearson = next(t for t in json.loads(out)["tasks"] if (t["level"], t["corr_fcn"]) == ("sys", "pearson"))
    assert pearson["corr_ranks"]["Judge"][0] == pytest.approx(1.0)  # ranks the systems as the gold does
    for lines, message in [
        (["A\t4", "B\t3", "C\t2"], "Judge has no sys-level scores for D"),
        (["A\t4", "B\t3", "C\t2", "D\t1", "X\t0"], "has scores for 'X', which has no output"),
        (["A\t4", "B\t3", "C\t2", "D\tNone"], "None (not rated) is for human scores"),
    ]:
        bad = write(tmp_path / "Judge-refA.sys.score", lines)
        code, _, err = meta_eval(capsys, root, "--gold", "mqm", "--reference", "refA", "--scores", bad)
        assert code == 2 and message in err, err


def test_usage_errors(capsys, tmp_path):
    root = small_folder(tmp_path)
    code, _, err = run(capsys, "meta-eval", root, "-t", "tst", "-l", "xx-yy")
    assert code == 1 and "give metrics to score (-m) or score files (--scores)" in err
    code, _, err = meta_eval(capsys, root, "-m", "nosuchmetric")
    assert code == 1 and "unknown metric 'nosuchmetric'" in err


def test_svg_draws_each_metric_against_the_human_scores(capsys, tmp_path):
    """A panel per metric, a point per rated system at its (metric, human) scores, and the system-level
    Pearson correlation the JSON reports in the panel's title."""
    from xml.etree import ElementTree

    figure = tmp_path / "figure.svg"
    code, out, err = run(
        capsys,
        "meta-eval",
        str(metaeval_dir()),
        "-t",
        "wmt22",
        "-l",
        "zh-en",
        "-m",
        "bleu",
        "chrf",
        "-k",
        "0",
        "-f",
        "json",
        "--svg",
        str(figure),
    )
    assert code == 0, err
    tasks = {(task["level"], task["corr_fcn"]): task for task in json.loads(out)["tasks"]}
    pearson = tasks[("sys", "pearson")]
    tree = ElementTree.parse(figure)
    svg = "{http://www.w3.org/2000/svg}"
    titles = [element.text for element in tree.iter(f"{svg}text") if element.get("class") == "title"]
    for name, (value, _) in pearson["corr_ranks"].items():
        assert f"{name}: r = {value:.3f}" in titles
    points = list(tree.iter(f"{svg}circle"))
    assert len(points) == 2 * len(pearson["systems"])
    assert {point.find(f"{svg}title").text.split(":")[0] for point in points} == set(pearson["systems"])
