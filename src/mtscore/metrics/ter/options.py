"""TER's options as the command line shows them (sacrebleu's flags); light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ...core.options import Option, RenamedOption

TITLE = "TER"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "lowercase",
        ("--ter-case-sensitive",),
        "lowercase the text, as sacrebleu's TER does by default; False (--ter-case-sensitive): case-sensitive TER",
        default=True,
    ),
    Option("asian_support", ("--ter-asian-support",), "split Asian characters (tercom's -a)"),
    Option("no_punct", ("--ter-no-punct",), "remove punctuation"),
    Option("normalized", ("--ter-normalized",), "tercom's normalisation (-N)"),
)
# TER's case option was ``case_sensitive`` (sacrebleu's keyword, which ``mtscore.sacrebleu.TER`` keeps).
RENAMED: tuple[RenamedOption, ...] = (RenamedOption("case_sensitive", "lowercase", inverted=True),)
