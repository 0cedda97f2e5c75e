"""NIST's options as the command line shows them; light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ... import tokenizers
from ...core.options import Option, RenamedOption

if TYPE_CHECKING:
    import numpy as np

    from ...tokenizers.lines import Split

TITLE = "NIST"  # how the command line's help names the metric
VARIANTS = ("mteval", "nltk")
OPTIONS = (
    Option(
        "variant",
        ("--nist-variant",),
        "mteval: Moses mteval-v13a.pl; nltk: NLTK 3.10's corpus_nist rules (default: mteval)",
        str,
        "mteval",
        VARIANTS,
    ),
    Option(
        "lowercase",
        ("--nist-case-sensitive",),
        "lowercase A-Z, as mteval does by default; False (--nist-case-sensitive, mteval's -c): keep case",
        default=True,
    ),
    Option("tokenize", ("--nist-tokenize",), "tokenizer (default: 13a, mteval's)", str, "13a", tokenizers.available),
    Option("max_order", ("--nist-max-order",), "highest n-gram order (default: 5)", int, 5, metavar="N", bounds=(1, 9)),
)

# NIST's case option was ``case_sensitive``.
RENAMED: tuple[RenamedOption, ...] = (RenamedOption("case_sensitive", "lowercase", inverted=True),)


class NISTSettings(Protocol):
    """What NIST's counting modules read of a ``NIST`` metric (a protocol, so that they need not
    import the metric that imports them)."""

    variant: str
    max_order: int
    lowercase: bool
    tokenizer: tokenizers.Tokenizer

    def split(self, lines: list[str]) -> tuple[Split, np.ndarray | None]:
        """The lines' tokens, a repeated line tokenized once (``NIST.split``)."""
        ...
