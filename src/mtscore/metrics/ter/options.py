"""TER's options as the command line shows them (sacrebleu's flags); light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ...core.options import Option

TITLE = "TER"  # how the command line's help names the metric
OPTIONS = (
    Option("case_sensitive", ("--ter-case-sensitive",), "case-sensitive TER"),
    Option("asian_support", ("--ter-asian-support",), "split Asian characters (tercom's -a)"),
    Option("no_punct", ("--ter-no-punct",), "remove punctuation"),
    Option("normalized", ("--ter-normalized",), "tercom's normalisation (-N)"),
)
