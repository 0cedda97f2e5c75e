"""Every code example in README.md and docs/**/*.md runs and shows what the page says it shows.

- ```python blocks: the blocks of one page run in order in one namespace, with the repository root
  as the working directory. A line ``print(...)   # text`` promises that this print writes the line
  ``text``; each promise is checked against what that very print call wrote.
- ```sh blocks directly followed by a ```text block: each ``mtscore ...`` command of the sh block
  runs as ``python -m mtscore ...`` (``cat FILE | mtscore ...`` feeds FILE on standard input) and
  their standard output together must be the text block. A text line ``...`` stands for any lines.
- A block whose fence has ``<!-- no-test -->`` on the line just before it is not run (for the few
  examples that need a network or an optional package).
"""

from __future__ import annotations

import builtins
import io
import itertools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NO_TEST = "<!-- no-test -->"
OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)[^\n]*$")
PROMISE = re.compile(r"^[ \t]*print\(.*\)[ \t]+#[ \t](?P<text>.+?)[ \t]*$")


@dataclass
class Block:
    page: Path
    lang: str
    code: str
    line: int  # the line of the page where the code starts (1-based)
    skip: bool
    end: int  # the line of the closing fence (1-based)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks_of(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, indented ones (in lists, tabs, admonitions) too."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence = match["indent"], match["fence"]
        close = re.compile(rf"^{re.escape(indent)}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = i + 1
        while end < len(lines) and not close.match(lines[end]):
            end += 1
        body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : end]]
        skip = i > 0 and lines[i - 1].strip() == NO_TEST
        blocks.append(Block(page, match["lang"].lower(), "\n".join(body) + "\n", i + 2, skip, end + 1))
        i = end + 1
    return blocks


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def python_pages() -> list[Path]:
    return [page for page in PAGES if any(b.lang in ("python", "py") and not b.skip for b in blocks_of(page))]


def shell_examples() -> list[tuple[Block, Block]]:
    """(sh block, text block) pairs: an sh block whose next non-blank line opens a text block."""
    pairs = []
    for page in PAGES:
        blocks = blocks_of(page)
        lines = page.read_text(encoding="utf-8").splitlines()
        for first, second in itertools.pairwise(blocks):
            between = lines[first.end : second.line - 2]
            if (
                first.lang in ("sh", "bash", "shell", "console")
                and second.lang == "text"
                and not any(line.strip() for line in between)
                and not first.skip
            ):
                pairs.append((first, second))
    return pairs


# Python examples.


@pytest.mark.parametrize("page", python_pages(), ids=_name)
def test_python_examples_print_what_they_promise(page: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    for variable in ("MTSCORE_SEED", "SACREBLEU_SEED"):
        monkeypatch.delenv(variable, raising=False)
    written: dict[tuple[str, int], list[str]] = {}

    def recording_print(*args, sep=" ", end="\n", file=None, flush=False):
        if file not in (None, sys.stdout):
            return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        text = io.StringIO()
        builtins.print(*args, sep=sep, end=end, file=text)
        caller = sys._getframe(1)
        written.setdefault((caller.f_code.co_filename, caller.f_lineno), []).append(text.getvalue())
        sys.stdout.write(text.getvalue())

    namespace: dict = {"__name__": "__doc_example__", "print": recording_print}
    promises = []
    for block in blocks_of(page):
        if block.lang not in ("python", "py") or block.skip:
            continue
        filename = str(block.page)
        source = "\n" * (block.line - 1) + block.code  # line numbers are the page's
        for number, line in enumerate(block.code.splitlines(), block.line):
            match = PROMISE.match(line)
            if match:
                promises.append((filename, number, match["text"]))
        try:
            exec(compile(source, filename, "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"the example at {block.where} raised {error!r}") from error
    for filename, number, text in promises:
        where = f"{page.relative_to(ROOT)}:{number}"
        calls = written.get((filename, number))
        assert calls is not None, f"{where} promises {text!r}, but its print never ran"
        printed = [line.rstrip() for call in calls for line in call.splitlines()]
        assert text in printed, f"{where} promises {text!r}; that print wrote {printed}"


# Shell examples.


def _commands(block: Block) -> list[tuple[list[str], str | None]]:
    """The block's commands as (arguments after ``mtscore``, file for standard input or None)."""
    commands = []
    for line in re.sub(r"\\\n", " ", block.code).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line, comments=True)
        stdin = None
        if words[:1] == ["cat"] and "|" in words:
            bar = words.index("|")
            assert bar == 2, f"{block.where}: only 'cat FILE | mtscore ...' is supported, got {line!r}"
            stdin, words = words[1], words[3:]
        assert words[:1] == ["mtscore"], f"{block.where}: a shell example with output runs mtscore only, got {line!r}"
        commands.append((words[1:], stdin))
    assert commands, f"{block.where}: no command"
    return commands


def _matches(expected: str, actual: str) -> bool:
    """``actual`` equals ``expected``, where a line ``...`` of ``expected`` stands for any lines."""
    parts = []
    for line in expected.rstrip("\n").split("\n"):
        parts.append(r"(?:[^\n]*\n)*?" if line.strip() == "..." else re.escape(line.rstrip()) + r"[ \t]*\n")
    normalised = "".join(line.rstrip() + "\n" for line in actual.rstrip("\n").split("\n"))
    return re.fullmatch("".join(parts), normalised) is not None


@pytest.mark.parametrize("sh, text", shell_examples(), ids=lambda block: block.where)
def test_shell_examples_print_their_output(sh: Block, text: Block):
    environment = {key: value for key, value in os.environ.items() if key not in ("MTSCORE_SEED", "SACREBLEU_SEED")}
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])
    output = []
    for arguments, stdin in _commands(sh):
        with open(ROOT / stdin, "rb") if stdin else open(os.devnull, "rb") as source:
            run = subprocess.run(
                [sys.executable, "-m", "mtscore", *arguments],
                cwd=ROOT,
                env=environment,
                stdin=source,
                capture_output=True,
                timeout=120,
            )
        assert run.returncode == 0, (
            f"{sh.where}: mtscore {shlex.join(arguments)} exited {run.returncode}: "
            f"{run.stderr.decode(errors='replace')}"
        )
        output.append(run.stdout.decode("utf-8"))
    actual = "".join(output)
    assert _matches(text.code, actual), f"{sh.where}: the output shown at {text.where} is not what runs:\n{actual}"


# The collector itself.


def test_blocks_are_found_indented_and_marked(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n```python\nprint(1)   # 1\n```\n\n- item\n\n    ```sh\n    mtscore a -i b\n    ```\n"
        "\n<!-- no-test -->\n```python\nimport missing\n```\n",
        encoding="utf-8",
    )
    blocks = blocks_of(page)
    assert [(b.lang, b.code, b.line, b.skip) for b in blocks] == [
        ("python", "print(1)   # 1\n", 4, False),
        ("sh", "mtscore a -i b\n", 10, False),
        ("python", "import missing\n", 15, True),
    ]


def test_output_matching_with_ellipsis():
    assert _matches("a\n...\nd\n", "a\nb\nc\nd\n")
    assert _matches("a\n...\nb\n", "a\nb\n")
    assert _matches("a  \nb\n", "a\nb   \n")
    assert not _matches("a\nb\n", "a\nb\nc\n")
    assert not _matches("a\n...\nd\n", "a\nb\nc\n")


def test_promises_are_single_line_prints():
    assert PROMISE.match("print(x.score)   # 82.59")["text"] == "82.59"
    assert PROMISE.match("print(x)#no space") is None
    assert PROMISE.match("x = 1   # not a print") is None
