"""``mtscore report`` end to end: the page's structure and numbers (against the library's own
API), Markdown and LaTeX tables, names, determinism, and every user mistake as a message and an
exit code."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import run, write
from shared_data import read_lines, references, system_output, wmt22_dir

from mtscore import BLEU, CHRF, TER
from mtscore.cli.report import display_names

SYSTEMS = ["JDExploreAcademy", "Online-A", "Online-B"]
LINES = 300


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The first 300 segments of WMT22 en-de: 3 systems, 2 references, the source."""
    wmt22_dir()
    folder = tmp_path_factory.mktemp("report")
    refs = [write(folder / f"ref.{n}.de", read_lines(references("en-de", n)[0])[:LINES]) for n in "AB"]
    systems = [write(folder / f"sys.{s}.de", read_lines(system_output("en-de", s))[:LINES]) for s in SYSTEMS]
    source = wmt22_dir() / "txt" / "sources" / "generaltest2022.en-de.src.en"
    src = write(folder / "src.en", read_lines(source)[:LINES])
    return refs, systems, src


class Page(HTMLParser):
    """The parts of the page the tests look at: element ids, section ids, scripts and outside links."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: list[str] = []
        self.scripts = 0
        self.outside: list[str] = []
        self.score_cells: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "script":
            self.scripts += 1
            assert "src" not in attributes
        for name in ("src", "href", "xlink:href", "action"):
            value = attributes.get(name) or ""
            if value and not value.startswith("#"):
                self.outside.append(value)


def test_page_sections_and_scores_match_the_api(files, tmp_path, capsys):
    refs, systems, src = files
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "report", *refs, "-i", *systems, "--src", src, "-o", out, "-n", "200")
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    page = Page(text)
    assert {"scores", "buckets", "ngrams", "examples", "filter-box"} <= set(page.ids)
    assert page.scripts == 1 and page.outside == []
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)  # nothing fetched; the SVG namespace is a name
    assert len([i for i in page.ids if i.startswith("segment-")]) == 30
    reference_lines = [Path(r).read_text(encoding="utf-8").splitlines() for r in refs]
    for metric in (BLEU(reference_lines), CHRF(reference_lines), TER(reference_lines)):
        for system in systems:
            score = metric.corpus_score(Path(system).read_text(encoding="utf-8").splitlines()).score
            assert f'data-v="{score:.6g}">{score:.1f}<' in text
    assert "<pre><code>mtscore report " in text  # the command
    assert text.count("nrefs:2|bs:200|seed:12345|") == 3  # each metric's signature


def test_markdown_and_latex_tables(files, capsys):
    refs, systems, _ = files
    code, markdown, _ = run(capsys, "report", *refs, "-i", *systems, "--format", "md", "-n", "100", "-m", "bleu")
    assert code == 0
    lines = markdown.splitlines()
    assert lines[0] == "| System | BLEU [95% CI] p |"
    reference_lines = [Path(r).read_text(encoding="utf-8").splitlines() for r in refs]
    for line, system in zip(lines[2:5], systems, strict=True):
        score = BLEU(reference_lines).corpus_score(Path(system).read_text(encoding="utf-8").splitlines()).score
        assert line.startswith(f"| {Path(system).name[4:-3]}") and f"| {score:.1f} [" in line
    assert "(baseline)" in lines[2] and "p = " in lines[3]
    code, latex, _ = run(capsys, "report", *refs, "-i", *systems, "--format", "latex", "-n", "100")
    assert code == 0 and "\\begin{tabular}" in latex and "\\toprule" in latex


def test_same_seed_same_page(files, tmp_path, capsys):
    refs, systems, _ = files
    pages = []
    for name in ("a.html", "b.html"):
        assert (
            run(capsys, "report", *refs, "-i", *systems[:2], "-n", "50", "--seed", "7", "-o", tmp_path / name)[0] == 0
        )
        pages.append((tmp_path / name).read_text(encoding="utf-8").replace(name, "NAME"))  # the command names it
    assert pages[0] == pages[1]


def test_all_pairs_lists_every_pair(files, tmp_path, capsys):
    refs, systems, _ = files
    out = tmp_path / "pairs.html"
    assert run(capsys, "report", *refs, "-i", *systems, "-n", "50", "--all-pairs", "-m", "bleu", "-o", out)[0] == 0
    text = out.read_text(encoding="utf-8")
    assert "Every pair (Holm-corrected)" in text
    assert text.count("against") >= 3  # three n-gram contrasts: every pair of three systems


def test_display_names():
    assert display_names(["d/newstest.hyp.A-1.de", "d/newstest.hyp.B_2.de"]) == ["A-1", "B_2"]
    assert display_names(["sys1.txt", "sys2.txt"]) == ["sys1", "sys2"]
    assert display_names(["x/hyp", "y/hyp"]) == ["x/hyp", "y/hyp"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-i", "{s0}"], "two or more systems"),
        (["-i", "{s0}", "{s0}"], "given twice"),
        (["-i", "{s0}", "{s1}", "--names", "one"], "1 names for 2 systems"),
        (["-i", "{s0}", "{s1}", "-n", "0"], "--resamples"),
        (["-i", "{s0}", "{s1}", "--examples", "-1"], "--examples"),
        (["-i", "{s0}", "{s1}", "--seed", "x"], "seed"),
        (["-i", "{s0}", "{s1}", "-m", "nope"], "invalid choice"),
        (["-i", "{s0}", "-"], "standard input"),
    ],
)
def test_usage_errors(files, capsys, arguments, message):
    refs, systems, _ = files
    argv = [a.format(s0=systems[0], s1=systems[1]) for a in arguments]
    code, out, err = run(capsys, "report", *refs, *argv)
    assert code == 1 and out == "" and message in err and "Traceback" not in err


def test_input_errors(files, tmp_path, capsys):
    refs, systems, _ = files
    short = write(tmp_path / "short.de", ["one line"])
    code, _, err = run(capsys, "report", *refs, "-i", systems[0], short, "-o", tmp_path / "x.html")
    assert code == 2 and "has 1 line" in err
    code, _, err = run(capsys, "report", *refs, "-i", systems[0], tmp_path / "missing.de")
    assert code == 2 and "missing.de" in err
    code, _, err = run(capsys, "report", *refs, "-i", *systems[:2], "--src", short)
    assert code == 2 and "short.de" in err
    assert not (tmp_path / "x.html").exists()


def test_unwritable_output_is_an_output_error(files, tmp_path, capsys):
    refs, systems, _ = files
    code, _, err = run(capsys, "report", *refs, "-i", *systems[:2], "-n", "10", "-o", tmp_path / "no" / "r.html")
    assert code == 3 and "cannot write" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_score_intervals_hold_the_score_nist_included(files, capsys):
    """NIST's bootstrap mean lies below its corpus score (a resample repeats segments, which makes its
    n-grams less informative), so an interval centred on the mean misses the score; the report's
    interval is the score plus and minus sacrebleu's half-width (the same ``ci`` as --paired-bs)."""
    import mtscore

    refs, systems, _ = files
    code, markdown, _ = run(capsys, "report", *refs, "-i", *systems, "-f", "md", "-n", "100", "-m", "nist", "bleu")
    assert code == 0
    reference_lines = [Path(r).read_text(encoding="utf-8").splitlines() for r in refs]
    hypotheses = {Path(s).name: Path(s).read_text(encoding="utf-8").splitlines() for s in systems}
    expected = mtscore.paired_test(hypotheses, reference_lines, ["nist", "bleu"], n_samples=100, seed=12345)
    for index, row in enumerate(markdown.splitlines()[2:5]):
        cells = [cell.strip() for cell in row.split("|")[2:4]]
        for metric, cell in zip(expected.metrics, cells, strict=True):
            result = expected.results[metric][index]
            score, low, high = (float(x) for x in re.match(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", cell).groups())
            assert low <= score <= high
            assert (low, high) == (round(result.score - result.ci, 1), round(result.score + result.ci, 1))
            if metric == "NIST":
                assert result.mean < result.score - result.ci  # the bootstrap mean is outside the interval
    assert "95% CI: the corpus score plus and minus half" in markdown  # the convention, stated


def test_markdown_names_the_metric_of_each_signature_and_latex_shows_the_same_intervals(files, capsys):
    refs, systems, _ = files
    arguments = [*refs, "-i", *systems[:2], "-n", "100", "-m", "bleu", "chrf"]
    code, markdown, _ = run(capsys, "report", *arguments, "-f", "md")
    assert code == 0
    signatures = [line for line in markdown.splitlines() if line.startswith("- ")]
    assert [line.split(":")[0] for line in signatures] == ["- BLEU", "- chrF2"]
    assert "|tok:13a|" in signatures[0] and "|nc:6|" in signatures[1]
    code, latex, _ = run(capsys, "report", *arguments, "-f", "latex")
    assert code == 0 and "\\pm" not in latex and "95\\% CI]" in latex
    intervals_md = re.findall(r"\d+\.\d \[\d+\.\d, \d+\.\d\]", markdown)
    intervals_latex = re.findall(r"\d+\.\d \[\d+\.\d, \d+\.\d\]", latex)
    assert len(intervals_md) == 4 and intervals_md == intervals_latex
    assert "% BLEU signature: nrefs:2|bs:100|seed:12345|" in latex and "\\Delta" in latex


def test_histogram_cells_give_the_count_once(files, tmp_path, capsys):
    refs, systems, _ = files
    out = tmp_path / "report.html"
    assert run(capsys, "report", *refs, "-i", *systems[:2], "-n", "20", "-m", "bleu", "-o", out)[0] == 0
    text = out.read_text(encoding="utf-8")
    histogram = text[text.index("BLEU sentence scores") : text.index("by reference length")]
    cells = re.findall(r'<td data-v="(\d+)">(\d+) <span class="ci">\[[\d.]+, [\d.]+\]</span></td>', histogram)
    assert len(cells) == 2 * 10 and all(value == shown for value, shown in cells)  # 2 systems, 10 buckets
    assert "n=" not in histogram
    by_length = text[text.index("by reference length") : text.index("by length ratio")]
    assert len(re.findall(r'<span class="n">n=\d+</span>', by_length)) == 2 * 6  # sizes where the value is a score
