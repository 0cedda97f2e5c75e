"""Reproducibility signatures in sacrebleu's format and field order, naming this tool."""

from __future__ import annotations

from functools import cache


@cache
def tool_version() -> str:
    """``mtscore-VERSION``, every signature's ``version`` field: the installed version, read from
    the package metadata when a signature is first made (not when this module loads)."""
    from ..version import __version__

    return f"mtscore-{__version__}"


def __getattr__(name: str) -> str:
    """``TOOL_VERSION``: ``tool_version()`` as a module constant, read on first use."""
    if name == "TOOL_VERSION":
        return tool_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Field name -> short name (sacrebleu's abbreviations) for every metric's fields.
_SHORT = {
    "nrefs": "#",
    "bs": "bs",  # bootstrap resamples
    "ar": "ar",  # approximate randomization trials
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "ngram": "n",  # extension: only when the max order is not 4
    "weights": "w",  # extension: only when the weights are not uniform
    "nc": "nc",
    "nw": "nw",
    "space": "s",
    "norm": "nr",
    "punct": "pn",
    "asian": "as",
    "version": "v",
}
# Printed first, in this order, as sacrebleu does; the metric's own fields follow, version comes last.
_LEADING = ("nrefs", "bs", "ar", "seed")


class Signature:
    """``nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:mtscore-0.1.0``: fields in sacrebleu's order
    (nrefs, test settings, the metric's fields as given, version)."""

    def __init__(self, info: dict[str, str], short: dict[str, str] | None = None):
        middle = [name for name in info if name not in _LEADING and name != "version"]
        order = [name for name in _LEADING if name in info] + middle + (["version"] if "version" in info else [])
        self.info = {name: info[name] for name in order}
        self.short = short or {}  # a metric's own short names (TER's "tok" is "t")

    def with_fields(self, **fields: str) -> Signature:
        """A copy with fields added or replaced (e.g. ``bs="1000", seed="12345"``)."""
        return Signature({**self.info, **fields}, self.short)

    def format(self, short: bool = False) -> str:
        names = {**_SHORT, **self.short}
        return "|".join(f"{names.get(name, name) if short else name}:{value}" for name, value in self.info.items())

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Signature({self.format()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Signature) and self.info == other.info


def tool_signature(fields: dict[str, str], short: dict[str, str] | None = None) -> Signature:
    """A built-in metric's signature: its ``fields``, then this tool's version (``tool_version``),
    last as sacrebleu prints it.

    Args:
        fields: The metric's fields, ``nrefs`` first, in the order they are printed.
        short: The metric's own short names for ``--short`` (TER's ``tok`` is ``t``).

    Returns:
        The signature, ``...|version:mtscore-X.Y.Z``.
    """
    return Signature({**fields, "version": tool_version()}, short)
