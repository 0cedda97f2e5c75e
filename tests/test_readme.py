"""The README's Python examples run, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_print_what_they_say():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict = {}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        for block in blocks:
            exec(compile(block, str(README), "exec"), namespace)
    printed = output.getvalue().splitlines()
    promised = [m.group(1).strip() for m in re.finditer(r"^print\(.*\)[ \t]+# (.+)$", "\n".join(blocks), re.M)]
    assert promised
    for expected in promised:
        assert expected in printed, f"README promises {expected!r}; printed {printed}"
