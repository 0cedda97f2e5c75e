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
    ``kind``: ``bool`` for a switch, else the type of one value (``nargs="+"``: several);
    ``bounds``: for a whole-number option, the lowest and highest value allowed (``None``: no highest),
    checked by the metric's constructor before it runs (``check_integers``).

    A switch's flag turns it away from its default: ``--chrf-lowercase`` sets ``lowercase`` (default
    False) to True, ``--ter-case-sensitive`` sets ``lowercase`` (default True) to False."""

    name: str
    flags: tuple[str, ...]
    help: str
    kind: type = bool
    default: Any = None
    choices: Sequence[Any] | Callable[[], Sequence[Any]] | None = None
    metavar: str | None = None
    nargs: str | None = None
    bounds: tuple[int, int | None] | None = None

    def choice_list(self) -> list[Any] | None:
        """The allowed values (a callable is asked, so registries are read when the parser is built)."""
        return list(self.choices() if callable(self.choices) else self.choices) if self.choices else None

    def switch_value(self, flag_given: bool) -> bool:
        """The value of this switch when its flag is given or not: the flag turns it away from its default."""
        return not self.default if flag_given else bool(self.default)


class RenamedOption(NamedTuple):
    """A keyword a metric took before one of its options had its present name, still taken for one
    release with a ``DeprecationWarning``: ``old`` given is ``new`` given, negated when ``inverted``
    (``case_sensitive=True`` is ``lowercase=False``)."""

    old: str
    new: str
    inverted: bool = False

    def new_value(self, old_value: Any) -> Any:
        """The value of ``new`` that ``old_value`` of ``old`` stands for."""
        return (not old_value) if self.inverted else old_value

    def help(self) -> str:
        """What the old keyword means, for docstrings."""
        meaning = f"``{self.old}=X`` is ``{self.new}=not X``" if self.inverted else f"the same as ``{self.new}``"
        return f"deprecated, use ``{self.new}`` ({meaning}); ``None``: not given"


def replace_renamed(renamed: Sequence[RenamedOption], values: dict[str, Any], owner: str) -> dict[str, Any]:
    """``values`` (a constructor's keywords) with each renamed keyword given replaced by its new name,
    warning that the old one is deprecated. An old switch given anything but True or False, or an old
    keyword given with its new name at another value, is refused with an ``InputError``."""
    if not any(option.old in values for option in renamed):
        return values
    if all(values[option.old] is None for option in renamed if option.old in values):  # none given: all at None
        return {name: value for name, value in values.items() if name not in {option.old for option in renamed}}
    from .deprecation import warn_renamed_keyword

    values = dict(values)
    for option in renamed:
        old_value = values.pop(option.old, None)
        if old_value is None:
            continue
        if not is_switch_value(old_value):
            raise InputError(f"{owner}: {option.old} must be True or False, got {old_value!r}")
        new_value = option.new_value(bool(old_value))
        if option.new in values and bool(values[option.new]) != new_value:
            raise InputError(
                f"{owner}: {option.old}={old_value!r} and {option.new}={values[option.new]!r} contradict each "
                f"other; give only {option.new} ({option.old} is deprecated)"
            )
        warn_renamed_keyword(owner, option.old, option.new, old_value, new_value)
        values[option.new] = new_value
    return values


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


def check_integers(options: Sequence[Option], values: Mapping[str, Any]) -> None:
    """Refuse a value of a whole-number option (one that declares ``bounds``) that is not an integer
    within them."""
    for option in options:
        if option.bounds is not None and option.name in values:
            check_integer(values[option.name], option.name, *option.bounds)


def check_integer(value: Any, name: str, lowest: int, highest: int | None = None) -> None:
    """Raise ``InputError`` unless ``value`` is an integer (a Python or NumPy integer, not a truth
    value) from ``lowest`` to ``highest`` (``None``: no highest).

    Args:
        value: The value given.
        name: How the message names the option.
        lowest: The lowest value allowed.
        highest: The highest value allowed, or ``None``.

    Raises:
        InputError: ``NAME must be a positive integer up to 9, got 10`` (the range said as
            ``integer_range`` says it).
    """
    whole = not isinstance(value, bool) and hasattr(value, "__index__")
    if not whole or value < lowest or (highest is not None and value > highest):
        raise InputError(f"{name} must be {integer_range(lowest, highest)}, got {value!r}")


def integer_range(lowest: int, highest: int | None) -> str:
    """How a message says the range: ``an integer >= 1``, ``a non-negative integer up to 32``,
    ``a positive integer up to 100`` or ``an integer from 2 to 5``."""
    if highest is None:
        return f"an integer >= {lowest}"
    if lowest in (0, 1):
        return f"a {'non-negative' if lowest == 0 else 'positive'} integer up to {highest}"
    return f"an integer from {lowest} to {highest}"
