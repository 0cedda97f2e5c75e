"""The meta-eval page in a real browser (Debian's Chromium, driven by Playwright, as tests/report does):
it renders at 1400 and 420 pixels wide without reaching past the window, makes no request beyond its own
file and logs no error. Skips without Chromium or Playwright, and fails instead when ``CI`` is set."""

from __future__ import annotations

import pytest
from test_metaeval_html import hostile_plain_files

from mtscore.cli import main

pytestmark = pytest.mark.browser


# Elements that reach past the window's right edge, other than those inside a box that scrolls sideways
OUTSIDE = """() => Array.from(document.querySelectorAll('body *')).filter(element =>
    element.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !element.closest('.scroll')
).map(element => element.tagName + '.' + element.className)"""


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    """A page with long hostile names, a score file's metric and p-values, written by the command line."""
    folder = tmp_path_factory.mktemp("metaeval-page")
    out = folder / "page.html"
    assert main(["meta-eval", *hostile_plain_files(folder), "chrf", "ter", "-k", "20", "--html", str(out)]) == 0
    return out


@pytest.mark.parametrize("width", [1400, 420])
def test_page_renders_without_horizontal_overflow(browser, page_file, width, tmp_path):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        problems, requests = [], []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_file.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(OUTSIDE) == []
        assert page.locator("figure.scatter svg").count() == 1
        assert page.evaluate("document.querySelectorAll('script').length") == 0
        screenshot = tmp_path / f"meta-eval-{width}.png"
        page.screenshot(path=str(screenshot), full_page=True)
        assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert problems == [] and requests == [page_file.as_uri()]
    finally:
        context.close()
