"""``mtscore meta-eval --html``: the page holds every task, metric, value, cluster and p-value that the
JSON of the same command gives (compared as numbers), one inline SVG figure per language pair, a task
set's weighted average and average ranks, loads nothing from the network, escapes names that come
from files, and an unwritable path is an output error."""

from __future__ import annotations

import contextlib
import io
import json
import re
from html.parser import HTMLParser

import pytest
from helpers import run, write
from shared_data import metaeval_dir

from mtscore.cli import main


class Page(HTMLParser):
    """What the tests read from a page: each ranking table (its attributes, and per row the metric,
    cluster, value and the row's text), p-value cells, averages, SVG figures and every text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rankings: list[dict] = []
        self.pvalues: list[list[float]] = []
        self.average: list[dict] = []
        self.svgs = 0
        self.texts: list[str] = []
        self._table: str | None = None
        self._row: dict | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "svg":
            self.svgs += 1
        elif tag == "table" and "ranking" in classes:
            self._table = "ranking"
            self.rankings.append({"attributes": attributes, "rows": []})
        elif tag == "table" and "pvalues" in classes:
            self._table = "pvalues"
        elif tag == "table" and "average" in classes:
            self._table = "average"
        elif tag == "tr" and self._table in ("ranking", "average") and "data-metric" in attributes:
            self._row = {"metric": attributes["data-metric"], "cluster": attributes.get("data-cluster"), "values": []}
            (self.rankings[-1]["rows"] if self._table == "ranking" else self.average).append(self._row)
        elif tag == "td" and "data-value" in attributes:
            value = float(attributes["data-value"])
            if self._table == "pvalues":
                self.pvalues.append([value])
            elif self._row is not None:
                self._row["values"].append(value)

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        self.texts.append(data)


def run_with_json(*argv) -> tuple[int, dict, str]:
    """``mtscore meta-eval ARGV -f json``: exit code, the JSON, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["meta-eval", *map(str, argv), "-f", "json"])
    return code, json.loads(out.getvalue()) if code == 0 else {}, err.getvalue()


def check_offline(text: str) -> None:
    """Nothing the page names is fetched: no URL in a source or link, no CSS import or url()."""
    for pattern in (r"src\s*=\s*[\"']?\s*(https?:)?//", r"href\s*=\s*[\"']?\s*(https?:)?//", r"@import", r"url\("):
        assert not re.search(pattern, text, re.IGNORECASE), pattern
    assert "<script" not in text.lower()


def check_rankings(page: Page, tasks: list[dict]) -> None:
    """Every task of the JSON has a table with its metrics in its order, their values and clusters."""
    assert len(page.rankings) == len(tasks)
    for table, task in zip(page.rankings, tasks, strict=True):
        attributes = table["attributes"]
        assert (attributes["data-level"], attributes["data-corr-fcn"], attributes["data-avg-by"]) == (
            task["level"],
            task["corr_fcn"],
            task["avg_by"],
        )
        assert attributes["data-lang"] == task["lang"]
        expected = list(task["corr_ranks"].items())
        assert [row["metric"] for row in table["rows"]] == [name for name, _ in expected]
        for row, (_, (value, rank)) in zip(table["rows"], expected, strict=True):
            assert row["values"][0] == value
            assert row["cluster"] == ("" if not task["matrix"] else str(rank))
        if "epsilons" in task:
            assert [row["values"][1] for row in table["rows"]] == [
                task["epsilons"][row["metric"]] for row in table["rows"]
            ]


@pytest.fixture(scope="module")
def wmt22_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "meta-eval.html"
    code, result, err = run_with_json(
        metaeval_dir(), "-t", "wmt22", "-l", "zh-en", "-m", "bleu", "chrf", "ter", "-k", "100", "--html", path
    )
    assert code == 0, err
    return path.read_text(encoding="utf-8"), result


def test_page_holds_every_task_with_the_values_and_clusters_of_the_json(wmt22_page):
    text, result = wmt22_page
    page = Page(text)
    check_rankings(page, result["tasks"])
    clusters = {rank for task in result["tasks"] for _, rank in task["corr_ranks"].values() if task["matrix"]}
    assert clusters >= {1, 2}  # segment-level Pearson separates the metrics: the page must show both clusters
    expected_pvalues = [
        [task["matrix"][i][j]] for task in result["tasks"] for i in range(3) for j in range(i + 1, 3) if task["matrix"]
    ]
    assert page.pvalues == expected_pvalues
    words = " ".join(page.texts)
    for name in result["selections"]["sys"]["systems"]:
        assert name in words
    assert "mqm" in words and "refA" in words and "refB" in words  # gold, reference, the human translation counted


def test_page_has_one_inline_figure_per_pair_and_loads_nothing(wmt22_page):
    text, _ = wmt22_page
    assert Page(text).svgs == 1
    assert text.count("<figure") == 1
    check_offline(text)


def test_task_set_page_shows_each_pair_and_the_weighted_average(tmp_path):
    path = tmp_path / "task-set.html"
    code, result, err = run_with_json(
        metaeval_dir(), "-t", "wmt23", "-l", "en-de,zh-en", "-m", "bleu", "chrf", "-k", "20", "--html", path
    )
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    page = Page(text)
    check_rankings(page, result["tasks"])
    assert [row["metric"] for row in page.average] == list(result["average_corrs"])
    for row in page.average:
        assert row["values"] == [result["average_corrs"][row["metric"]], result["average_ranks"][row["metric"]]]
    weights = re.findall(r"\(weight ([0-9.]+)\)</h2>", text)
    assert [float(weight) for weight in weights] == [task["weight"] for task in result["tasks"]]
    assert page.svgs == 2 and 'data-lang="en-de"' in text and 'data-lang="zh-en"' in text
    check_offline(text)


HOSTILE_METRIC = "<img src=x onerror=alert(1)>&amp;"
HOSTILE_SYSTEM = '<script>alert("s")</script>'


def hostile_plain_files(tmp_path):
    """Plain files of four systems whose names, and a score file's metric name, are markup."""
    reference = [f"the reference sentence number {i} is here" for i in range(6)]
    ref = write(tmp_path / "ref.txt", reference)
    names = [HOSTILE_SYSTEM, "B", "C", "D"]
    systems, human, metric = [], [], []
    for rank, name in enumerate(names):
        systems.append(write(tmp_path / f"sys{rank}.txt", [" ".join(r.split()[: 7 - rank]) for r in reference]))
        human += [f"{name}\t{i + 1}\t{-rank - i * 0.25}" for i in range(6)]
        metric += [f"{name}\t{i + 1}\t{0.9 - rank * 0.1 + i * 0.01}" for i in range(6)]
    scores = write(tmp_path / f"{HOSTILE_METRIC}.tsv", metric)
    return ["--human-scores", write(tmp_path / "human.tsv", human), "-r", ref, "-i", *systems, "--names", *names,
            "--scores", scores, "-m", "bleu"]  # fmt: skip


def test_names_from_files_are_escaped(tmp_path):
    path = tmp_path / "page.html"
    code, result, err = run_with_json(*hostile_plain_files(tmp_path), "-k", "20", "--html", path)
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert HOSTILE_METRIC not in text and HOSTILE_SYSTEM not in text
    assert "<script" not in text.lower() and "<img" not in text.lower()
    page = Page(text)
    assert HOSTILE_METRIC in {row["metric"] for table in page.rankings for row in table["rows"]}
    assert HOSTILE_METRIC in page.texts and HOSTILE_SYSTEM in "".join(page.texts)
    check_rankings(page, result["tasks"])


def test_unwritable_html_path_is_an_output_error(capsys, tmp_path):
    target = tmp_path / "no-such-folder" / "page.html"
    code, out, err = run(capsys, "meta-eval", *hostile_plain_files(tmp_path), "-k", "0", "--html", target)
    assert code == 3
    assert f"cannot write {target}" in err and "Traceback" not in err
    assert out == ""  # nothing printed as if the command had succeeded
