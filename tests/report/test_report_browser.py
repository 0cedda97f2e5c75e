"""The report in a real browser (Debian's Chromium, driven by Playwright): no console errors, no
network requests, sortable tables, the example filter, a screenshot, the page with JavaScript off,
and hostile text from every input shown as text, never run. Skips without Chromium or Playwright,
and fails instead when ``CI`` is set (CI installs both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write

HOSTILE = [
    "<script>window.__pwned = 1</script> the cat",
    "</style><style>body{display:none}</style> a dog",
    '<img src=x onerror="window.__pwned = 2"> sat on',
    "quotes \" and ' and &amp; &lt; ampersands & < >",
    "\u202eRTL override\u202c and \u200fmark\u200e in עברית ו-العربية",
    "]]> <!-- comment --> ${x} {{y}} `z`",
]


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory):
    """A report whose sources, references, hypotheses and system names are all hostile text."""
    folder = tmp_path_factory.mktemp("hostile")
    rotate = [HOSTILE[i:] + HOSTILE[:i] for i in range(4)]
    ref = write(folder / "ref.txt", rotate[0])
    src = write(folder / "src.txt", rotate[1])
    systems = [write(folder / f"sys{i}.txt", lines) for i, lines in enumerate(rotate[2:])]
    names = ['<b>base</b> & "one"', "\u202etwo</script>"]
    out = folder / "report.html"
    from mtscore.cli import main

    code = main(["report", ref, "-i", *systems, "--src", src, "--names", *names, "-n", "20", "-o", str(out)])
    assert code == 0
    return out, [*HOSTILE, *names]


def _open(browser, path: Path, javascript: bool = True):
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems, requests = [], []
    page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    return context, page, problems, requests


def test_hostile_text_is_shown_as_text_and_never_runs(browser, hostile_report):
    path, inputs = hostile_report
    context, page, problems, requests = _open(browser, path)
    try:
        assert page.evaluate("window.__pwned") is None
        shown = page.eval_on_selector_all(".text", "elements => elements.map(e => e.textContent)")
        assert set(shown) == set(inputs)  # every input appears, and nothing else is shown as input text
        assert page.eval_on_selector_all("script", "s => s.length") == 1
        assert page.is_visible("#examples")  # the hostile </style> did not hide the page
        assert problems == [] and requests == [path.as_uri()]
    finally:
        context.close()


@pytest.fixture(scope="module")
def wmt_report(tmp_path_factory):
    from shared_data import read_lines, references, system_output

    folder = tmp_path_factory.mktemp("wmt")
    refs = [write(folder / f"ref.{n}.de", read_lines(references("en-de", n)[0])[:400]) for n in "AB"]
    systems = [
        write(folder / f"{s}.de", read_lines(system_output("en-de", s))[:400])
        for s in ("Online-A", "Online-B", "PROMT")
    ]
    out = folder / "report.html"
    from mtscore.cli import main

    assert main(["report", *refs, "-i", *systems, "-n", "100", "-o", str(out)]) == 0
    return out


def test_page_works_offline_sorts_filters_and_renders(browser, wmt_report, tmp_path):
    context, page, problems, requests = _open(browser, wmt_report)
    try:
        header = page.locator("#scores table.sortable thead th", has_text="BLEU").first
        column = (
            "Array.from(document.querySelectorAll('#scores tbody tr')).map(r => parseFloat(r.children[1].dataset.v))"
        )
        header.click()
        ascending = page.evaluate(column)
        assert ascending == sorted(ascending) and header.get_attribute("aria-sort") == "ascending"
        header.click()
        assert page.evaluate(column) == sorted(ascending, reverse=True)

        assert page.is_visible("#filter")
        word = page.locator(".example .text").nth(1).text_content().split()[0]
        page.fill("#filter", word)
        visible = page.locator(".example:visible").count()
        expected = page.evaluate(
            "w => Array.from(document.querySelectorAll('.example')).filter("
            "e => e.textContent.toLowerCase().includes(w.toLowerCase())).length",
            word,
        )
        assert 1 <= visible == expected
        page.click(".example .hyp a")  # the link to the n-gram table opens it (on its hash change: waited for)
        page.locator("details[open]").first.wait_for(timeout=10_000)
        assert page.locator("details[open]").count() == 1

        screenshot = tmp_path / "report.png"
        page.screenshot(path=str(screenshot), full_page=False)
        assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and screenshot.stat().st_size > 10_000
        assert page.locator("svg.chart").count() >= 10
        assert problems == [] and requests == [wmt_report.as_uri()]
    finally:
        context.close()


def test_page_reads_without_javascript(browser, wmt_report):
    context, page, problems, _ = _open(browser, wmt_report, javascript=False)
    try:
        assert page.is_visible("#scores table") and page.is_visible(".example")
        assert not page.is_visible("#filter-box")  # the filter needs the script, so it stays hidden
        assert page.locator(".example").count() == 30 and problems == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def five_metric_report(tmp_path_factory):
    """The widest page: five metrics, four systems, every pair compared."""
    from shared_data import read_lines, references, system_output

    folder = tmp_path_factory.mktemp("five")
    ref = write(folder / "ref.A.de", read_lines(references("en-de", "A")[0])[:200])
    systems = [
        write(folder / f"{s}.de", read_lines(system_output("en-de", s))[:200])
        for s in ("JDExploreAcademy", "Online-A", "Online-B", "PROMT")
    ]
    out = folder / "report.html"
    from mtscore.cli import main

    arguments = ["report", ref, "-i", *systems, "--all-pairs", "-m", "bleu", "chrf", "ter", "meteor", "nist"]
    assert main([*arguments, "-n", "50", "-o", str(out)]) == 0
    return out


# Elements that reach past the window's right edge, other than those inside a box that scrolls sideways
OUTSIDE = """() => Array.from(document.querySelectorAll('body *')).filter(element =>
    element.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !element.closest('.scroll')
).map(element => element.tagName + '.' + element.className)"""


@pytest.mark.parametrize("width", [1400, 420])
def test_page_fits_its_window_at_five_metrics(browser, five_metric_report, width, tmp_path):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(five_metric_report.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(OUTSIDE) == []
        assert page.locator("#scores table.scores thead th").count() == 6  # the systems, then one per metric
        assert page.locator("#scores svg.chart").count() == 5
        screenshot = tmp_path / f"report-{width}.png"
        page.screenshot(path=str(screenshot), full_page=True)
        assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        context.close()


@pytest.mark.parametrize("width", [1400, 420])
def test_hostile_page_fits_its_window(browser, hostile_report, width):
    path, _ = hostile_report
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(OUTSIDE) == []
    finally:
        context.close()
