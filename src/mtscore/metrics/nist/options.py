"""NIST's options as the command line shows them; light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ... import tokenizers
from ...core.options import Option

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
        "case_sensitive",
        ("--nist-case-sensitive",),
        "keep case (mteval's -c); by default A-Z are lowercased, as mteval does",
    ),
    Option("tokenize", ("--nist-tokenize",), "tokenizer (default: 13a, mteval's)", str, "13a", tokenizers.available),
    Option("max_order", ("--nist-max-order",), "highest n-gram order (default: 5)", int, 5, metavar="N"),
)
