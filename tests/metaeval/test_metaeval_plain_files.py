"""``mtscore meta-eval`` from plain files (a TSV of human scores, a reference, system files), TSV metric
scores, and ``--domain``: the WMT23 en-de figures of oracle.json and of mt-metrics-eval's own code,
and each kind of bad input refused with exit 2 and a message naming it."""

from __future__ import annotations

import json
import math
import shutil

import pytest
from helpers import run, write
from shared_data import metaeval_dir

# The WMT23 en-de systems mt-metrics-eval's default task counts: every output but the standard
# reference refA and the outlier synthetic_ref.
WMT23_EN_DE_SYSTEMS = [
    "AIRC", "GPT4-5shot", "Lan-BridgeMT", "NLLB_Greedy", "NLLB_MBR_BLEU", "ONLINE-A",
    "ONLINE-B", "ONLINE-G", "ONLINE-M", "ONLINE-W", "ONLINE-Y", "ZengHuiMT",
]  # fmt: skip
ORACLE_NAMES = {"BLEU": "BLEU", "chrF": "chrF2", "chrF++": "chrF2++", "TER": "TER"}
ORACLE_STATISTICS = {"accuracy": "pairwise_accuracy", "KendallWithTiesOpt": "acc_t"}


def wmt23_en_de_plain_files(tmp_path, empty_for_none=False):
    """WMT23 en-de as plain files: a TSV of the MQM segment scores (unrated as None, or empty), the
    reference, and the twelve systems' outputs. Returns the arguments of meta-eval."""
    folder = metaeval_dir() / "wmt23"
    lines = ["system\tsegment\tscore"]
    counters: dict[str, int] = {}
    for line in (folder / "human-scores" / "en-de.mqm.seg.score").read_text(encoding="utf-8").splitlines():
        system, score = line.split()
        counters[system] = counters.get(system, 0) + 1
        if system in WMT23_EN_DE_SYSTEMS:
            lines.append(f"{system}\t{counters[system]}\t{'' if empty_for_none and score == 'None' else score}")
    human = write(tmp_path / "mqm.tsv", lines)
    systems = [str(folder / "system-outputs" / "en-de" / f"{system}.txt") for system in WMT23_EN_DE_SYSTEMS]
    return ["--human-scores", human, "-r", str(folder / "references" / "en-de.refA.txt"), "-i", *systems]


@pytest.mark.parametrize("empty_for_none", [False, True])
def test_plain_files_reproduce_oracle_figures_of_wmt23_en_de(capsys, tmp_path, empty_for_none):
    """The same systems, segments and MQM scores as plain files give oracle.json's figures (computed by
    mt-metrics-eval's code): the system-level MQM score is the mean of the rated segments, as WMT23's is."""
    root = metaeval_dir()
    oracle = json.loads((root / "oracle.json").read_text(encoding="utf-8"))["index"]
    arguments = wmt23_en_de_plain_files(tmp_path, empty_for_none)
    code, out, err = run(
        capsys, "meta-eval", *arguments, "-m", "bleu", "chrf", "chrf++", "ter", "-k", "0", "-f", "json"
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["selections"]["sys"]["systems"] == WMT23_EN_DE_SYSTEMS
    checked = 0
    for task in result["tasks"]:
        statistic = ORACLE_STATISTICS.get(task["corr_fcn"], task["corr_fcn"])
        for oracle_name, name in ORACLE_NAMES.items():
            key = f"wmt23/en-de/human=False/{task['level']}/{statistic}/{oracle_name}"
            assert math.isclose(task["corr_ranks"][name][0], oracle[key], abs_tol=1e-9), key
            checked += 1
    assert checked == 28


def test_tsv_metric_scores_equal_the_official_score_files(capsys, tmp_path):
    """The official BLEU-refA scores rewritten as TSV files (system, segment, score and system, score)
    are one metric with the very values of the .seg.score/.sys.score files they came from."""
    root = metaeval_dir()
    scores = root / "wmt23" / "metric-scores" / "en-de"
    seg_lines, counters = [], {}
    for line in (scores / "BLEU-refA.seg.score").read_text(encoding="utf-8").splitlines():
        system, score = line.split()
        counters[system] = counters.get(system, 0) + 1
        seg_lines.append(f"{system}\t{counters[system]}\t{score}")
    seg_tsv = write(tmp_path / "official.seg.tsv", seg_lines)
    sys_lines = [line.replace(" ", "\t") for line in (scores / "BLEU-refA.sys.score").read_text().splitlines()]
    sys_tsv = write(tmp_path / "official.sys.tsv", ["system\tscore", *sys_lines])
    common = ["meta-eval", root, "-t", "wmt23", "-l", "en-de", "-k", "0", "-f", "json"]
    code, out, err = run(capsys, *common, "--scores", seg_tsv, sys_tsv)
    assert code == 0, err
    from_tsv = json.loads(out)["tasks"]
    code, out, err = run(capsys, *common, "--scores", scores / "BLEU-refA.seg.score", scores / "BLEU-refA.sys.score")
    assert code == 0, err
    from_score_files = json.loads(out)["tasks"]
    assert [task["corr_ranks"]["official"] for task in from_tsv] == [
        task["corr_ranks"]["BLEU"] for task in from_score_files
    ]


def test_plain_files_take_names_svg_and_tsv_scores(capsys, tmp_path):
    arguments = small_plain_files(tmp_path)
    lines = (tmp_path / "mqm.tsv").read_text().splitlines()
    write(tmp_path / "mqm.tsv", [line.replace("A\t", "first\t", 1) for line in lines])
    judge = write(tmp_path / "judge.tsv", ["system\tscore", "first\t4", "B\t3", "C\t2", "D\t1"])
    figure = tmp_path / "figure.svg"
    code, out, err = run(
        capsys, "meta-eval", *arguments, "--names", "first", "B", "C", "D", "-m", "bleu", "--scores", judge,
        "-k", "0", "--svg", figure, "-l", "xx-yy", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert (result["test_set"], result["lang"]) == ("mqm.tsv", "xx-yy")
    pearson = next(t for t in result["tasks"] if (t["level"], t["corr_fcn"]) == ("sys", "pearson"))
    assert pearson["systems"] == ["B", "C", "D", "first"]
    assert pearson["corr_ranks"]["judge"][0] == pytest.approx(1.0)  # ranks the systems as the gold does
    assert figure.read_text(encoding="utf-8").lstrip().startswith("<")


# mt-metrics-eval's GetCorrelations(evs, level, {"refA"}, set(), False, False, "mqm", False, domain=...) on
# ../shared/data/metaeval/wmt23 en-de, run outside the repository (/tmp/mme3-src at the commit oracle.json
# names, scipy 1.x): .Pearson()[0] and .Kendall()[0]. Its system level reads domain-level files, so
# metric-scores/en-de/{BLEU,chrF}-refA.domain.score were first written with sacrebleu's corpus_bleu and
# corpus_chrf on each domain's segments (what mt-metrics-eval's data holds); the human ones are the data's.
DOMAIN_ORACLE = {
    "news/sys/chrF2/pearson": 0.8052428604031726,
    "news/sys/chrF2/kendall": 0.606060606060606,
    "news/sys/BLEU/pearson": 0.8801831549893426,
    "news/sys/BLEU/kendall": 0.7575757575757575,
    "news/seg/chrF2/pearson": 0.2134050438123411,
    "news/seg/chrF2/kendall": 0.13712975441492828,
    "news/seg/BLEU/pearson": 0.09570396965440628,
    "news/seg/BLEU/kendall": 0.055954999890614796,
    "social/sys/chrF2/pearson": 0.8090607372249196,
    "social/sys/chrF2/kendall": 0.4848484848484848,
    "social/sys/BLEU/pearson": 0.8561499861174621,
    "social/sys/BLEU/kendall": 0.5454545454545454,
    "social/seg/chrF2/pearson": 0.20665821864157613,
    "social/seg/chrF2/kendall": 0.17109262855749335,
    "social/seg/BLEU/pearson": 0.16134233948739476,
    "social/seg/BLEU/kendall": 0.11471935090226248,
}


@pytest.mark.parametrize("domain", ["news", "social"])
def test_domain_reproduces_mt_metrics_eval(capsys, domain):
    code, out, err = run(
        capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "en-de", "-m", "bleu", "chrf", "-k", "0",
        "--domain", domain, "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert result["domain"] == domain and all(task["domain"] == domain for task in result["tasks"])
    checked = 0
    for task in result["tasks"]:
        for name, (value, _) in task["corr_ranks"].items():
            key = f"{domain}/{task['level']}/{name}/{task['corr_fcn']}"
            if key in DOMAIN_ORACLE:
                assert math.isclose(value, DOMAIN_ORACLE[key], abs_tol=1e-9), key
                checked += 1
    assert checked == 8


def test_domain_of_plain_files_equals_that_of_the_folder(capsys, tmp_path):
    """Plain files with the .docs file: their domain-level human score is the mean of the domain's rated
    segments, which is exactly what WMT23's en-de.mqm.domain.score holds."""
    folder = metaeval_dir() / "wmt23"
    arguments = wmt23_en_de_plain_files(tmp_path)
    flags = ["-m", "bleu", "-k", "0", "--domain", "speech", "-f", "json"]
    code, out, err = run(capsys, "meta-eval", *arguments, "--documents", folder / "documents" / "en-de.docs", *flags)
    assert code == 0, err
    plain = [task["corr_ranks"]["BLEU"][0] for task in json.loads(out)["tasks"]]
    code, out, err = run(capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "en-de", *flags)
    assert code == 0, err
    assert plain == pytest.approx([task["corr_ranks"]["BLEU"][0] for task in json.loads(out)["tasks"]], abs=1e-12)


def test_domain_text_report_names_it(capsys):
    code, out, err = run(
        capsys, "meta-eval", metaeval_dir(), "-t", "wmt23", "-l", "en-de", "-m", "bleu", "-k", "0", "--domain", "news"
    )
    assert code == 0, err
    assert out.splitlines()[0] == "wmt23 en-de, domain news"


def small_plain_files(tmp_path, systems=("A", "B", "C", "D"), segments=3):
    """A reference, a file per system and a TSV of their human scores, each as long."""
    reference = [f"the reference sentence number {i}" for i in range(segments)]
    write(tmp_path / "ref.txt", reference)
    lines = []
    for rank, system in enumerate(systems):
        write(tmp_path / f"{system}.txt", [" ".join(r.split()[: 6 - rank]) for r in reference])
        lines += [f"{system}\t{i + 1}\t{-rank - i * 0.5}" for i in range(segments)]
    write(tmp_path / "mqm.tsv", lines)
    return ["--human-scores", tmp_path / "mqm.tsv", "-r", tmp_path / "ref.txt", "-i"] + [
        tmp_path / f"{system}.txt" for system in systems
    ]


def test_small_plain_files_work(capsys, tmp_path):
    code, out, err = run(capsys, "meta-eval", *small_plain_files(tmp_path), "-m", "bleu", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["selections"]["sys"]["systems"] == ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    ("human_lines", "message"),
    [
        (["A\t1\tnan"], "line 1: the score is nan"),
        (["A\t1\tgood"], "line 1: the score 'good' is not a number (or None: not rated)"),
        (["A\t1\t1", "A\t1\t2"], "line 2: segment 1 of 'A' is given twice"),
        (["A\t1\t1", "A\t2"], "line 2: expected 'system<TAB>segment<TAB>score' as on the lines before"),
        (["A\t0\t1"], "line 1: segment 0; segments count from 1"),
        (["A\t1\t1", "A\t3\t1"], "'A' has scores up to segment 3 but none for 1 segment (2)"),
        (["E\t1\t1"], "has scores for 'E', which has no output among the system files"),
        (["A\t1\t1", "A\t2\t1", "A\t3\t1", "A\t4\t1"], "has scores up to segment 4 for 'A', but its output has 3"),
        (["A\t1\t1", "A\t2\t1"], "has scores up to segment 2 for 'A', but its output has 3"),
        (["A\t1", "B\t2", "C\t3", "D\t4"], "holds one score per system; give each segment's human score"),
        (["A\t1\t2\t3"], "expected 'system<TAB>segment<TAB>score' or 'system<TAB>score'"),
        ([], "is empty: no human scores"),
    ],
)
def test_bad_human_score_files_are_input_errors(capsys, tmp_path, human_lines, message):
    """Each bad human-score file is refused with its file and line; the other systems' lines are
    well-formed, so the message is about the line shown (a system-level or empty file is the whole file)."""
    arguments = small_plain_files(tmp_path)
    others = [line for line in (tmp_path / "mqm.tsv").read_text().splitlines() if not line.startswith("A\t")]
    whole_file = all(line.count("\t") == 1 for line in human_lines)
    write(tmp_path / "mqm.tsv", human_lines if whole_file else [*human_lines, *others])
    code, out, err = run(capsys, "meta-eval", *arguments, "-m", "bleu")
    assert (code, out) == (2, ""), err
    assert message in err and "Traceback" not in err


def test_system_without_human_scores_is_an_input_error(capsys, tmp_path):
    arguments = small_plain_files(tmp_path)
    others = [line for line in (tmp_path / "mqm.tsv").read_text().splitlines() if not line.startswith("B\t")]
    write(tmp_path / "mqm.tsv", others)
    code, _, err = run(capsys, "meta-eval", *arguments, "-m", "bleu")
    assert code == 2 and "mqm.tsv has no scores for 'B'" in err


def test_unrated_system_is_left_out_and_fewer_than_three_is_an_error(capsys, tmp_path):
    """A system with no rated segment is left out, as mt-metrics-eval leaves it out; with fewer than
    three systems left there is no correlation: an input error."""
    arguments = small_plain_files(tmp_path)
    lines = (tmp_path / "mqm.tsv").read_text().splitlines()
    write(
        tmp_path / "mqm.tsv",
        [line if not line.startswith("D\t") else line.rsplit("\t", 1)[0] + "\tNone" for line in lines],
    )
    code, out, err = run(capsys, "meta-eval", *arguments, "-m", "bleu", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["selections"]["sys"]["unrated_systems"] == ["D"]
    write(
        tmp_path / "mqm.tsv",
        [line if line.startswith(("A\t", "B\t")) else line.rsplit("\t", 1)[0] + "\t" for line in lines],
    )
    code, _, err = run(capsys, "meta-eval", *arguments, "-m", "bleu")
    assert code == 2 and "only 2 system(s) with mqm scores at sys level (A, B); a correlation needs at least 3" in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("duplicate file name", "two system files have the name 'A': name them apart (--names)"),
        ("system named like the reference", "a system is named 'ref', like the reference"),
        ("short output", "has 1 line but the reference"),
        ("names with a space", "the system name 'A A' (of"),
    ],
)
def test_bad_system_files_are_input_errors(capsys, tmp_path, change, message):
    arguments = small_plain_files(tmp_path)
    extra: list = []
    if change == "duplicate file name":
        (tmp_path / "other").mkdir()
        shutil.copy(tmp_path / "A.txt", tmp_path / "other" / "A.txt")
        extra = [tmp_path / "other" / "A.txt"]
    elif change == "system named like the reference":
        shutil.copy(tmp_path / "A.txt", tmp_path / "ref.tx")
        extra = ["--names", "A", "B", "C", "ref", "E"]
        arguments = [*arguments, tmp_path / "ref.tx"]
    elif change == "short output":
        write(tmp_path / "B.txt", ["one line"])
    else:
        extra = ["--names", "A A", "B", "C", "D"]
    code, out, err = run(capsys, "meta-eval", *arguments, *extra, "-m", "bleu")
    assert (code, out) == (2, ""), err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["A\t1", "B\t2", "C\t3"], "judge has no sys-level scores for D"),
        (["A\t1", "B\t2", "C\t3", "D\t4", "X\t5"], "has scores for 'X', which has no output"),
        (["A\t1", "B\t2", "C\t3", "D\tnan"], "line 4: the score is nan"),
        (["A\t1", "B\t2", "C\t3", "D\tNone"], "None (not rated) is for human scores"),
        (["A\t1", "B\t2", "C\t3", "D\t"], "the score '' is not a number"),
        (["A\t1", "A\t2", "B\t2", "C\t3", "D\t4"], "line 2: the system 'A' is given twice"),
        (["A\t1\t1", "A\t2\t1", "B\t1\t1", "B\t2\t1", "B\t3\t1"], "has 2 scores for 'A'; expected 3 at seg level"),
    ],
)
def test_bad_tsv_metric_scores_are_input_errors(capsys, tmp_path, lines, message):
    arguments = small_plain_files(tmp_path)
    judge = write(tmp_path / "judge.tsv", lines)
    code, out, err = run(capsys, "meta-eval", *arguments, "--scores", judge)
    assert (code, out) == (2, ""), err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--human-scores", "h.tsv"], "give an mt-metrics-eval folder (ROOT -t TEST_SET -l LP) or plain files"),
        (["ROOT", "-t", "wmt23"], "ROOT needs the test set and the language pair"),
        (["ROOT", "-t", "wmt23", "-l", "en-de", "-i", "a.txt"], "-i are for plain files, without ROOT"),
        (["--human-scores", "h.tsv", "-r", "r.txt", "-i", "a.txt", "--names", "a", "b"], "--names gives 2 names"),
        (["--human-scores", "h.tsv", "-r", "r.txt", "-i", "a.txt", "-t", "wmt23"], "plain files have none"),
        (["ROOT", "-t", "wmt23", "-l", "en-de", "-l", "zh-en", "--domain", "news"], "--domain is for one language"),
    ],
)
def test_plain_file_usage_errors(capsys, arguments, message):
    code, _, err = run(capsys, "meta-eval", *arguments, "-m", "bleu")
    assert code == 1 and message in err, err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--domain", "poetry"], "has no domain 'poetry'; domains: news, social, speech, user_review"),
        (["--domain", "news", "-t", "wmt22", "-l", "zh-en"], "wmt22/zh-en has no documents file"),
        (["--domain", "news", "--scores", "SYS"], "system-level scores of BLEU are over every segment"),
    ],
)
def test_domain_errors(capsys, flags, message):
    scores = metaeval_dir() / "wmt23" / "metric-scores" / "en-de" / "BLEU-refA.sys.score"
    flags = [str(scores) if flag == "SYS" else flag for flag in flags]
    where = ["-t", "wmt23", "-l", "en-de"] if "-t" not in flags else []
    code, out, err = run(capsys, "meta-eval", metaeval_dir(), *where, "-m", "chrf", *flags)
    assert (code, out) == (2, ""), err
    assert message in err
