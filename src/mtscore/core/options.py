"""``Option``: one option of a metric, declared once for its constructor, the command line and the docs.

Declarations are plain data in each metric package's ``options`` module (no NumPy), so the command
line builds its parser from them without loading any metric. ``Option`` is a named tuple rather than
a dataclass so that ``mtscore --help`` starts without importing ``dataclasses`` (and ``inspect``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..errors import InputError


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


def check_switches(options: Sequence[Option], values: Mapping[str, Any], owner: str) -> None:
    """Refuse a value of a switch (an option of ``kind`` ``bool``) of ``owner`` that is not True or False
    (or 0 or 1, or a NumPy bool): a string such as ``"no"`` would otherwise be taken as true, or fail deep
    inside the metric."""
    for option in options:
        if option.kind is bool and option.name in values and not is_switch_value(values[option.name]):
            raise InputError(f"{owner}: {option.name} must be True or False, got {values[option.name]!r}")


def is_switch_value(value: Any) -> bool:
    """Whether ``value`` is a truth value: a bool, a NumPy bool, or the integer 0 or 1."""
    kind = type(value)
    if isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):
        return True  # (NumPy's bool, told by its type's names so that the command line need not import NumPy)
    return isinstance(value, int) and value in (0, 1)
