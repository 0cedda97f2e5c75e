"""``Option``: one option of a metric, declared once for its constructor, the command line and the docs.

Declarations are plain data in each metric package's ``options`` module (no NumPy), so the command
line builds its parser from them without loading any metric. ``Option`` is a named tuple rather than
a dataclass so that ``mtscore --help`` starts without importing ``dataclasses`` (and ``inspect``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple


class Option(NamedTuple):
    """``name``: the constructor's keyword; ``flags``: its command-line spellings (sacrebleu's);
    ``kind``: ``bool`` for a switch, else the type of one value (``nargs="+"``: several)."""

    name: str
    flags: tuple[str, ...]
    help: str
    kind: type = bool
    default: Any = None
    choices: Sequence[Any] | Callable[[], Sequence[Any]] | None = None
    metavar: str | None = None
    nargs: str | None = None

    def choice_list(self) -> list[Any] | None:
        """The allowed values (a callable is asked, so registries are read when the parser is built)."""
        return list(self.choices() if callable(self.choices) else self.choices) if self.choices else None
