"""chrF's options as the command line shows them (sacrebleu's flags); light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ...core.options import Option

# The highest character or word n-gram order taken. Time and memory grow with the order (each adds
# three statistics columns and a counting pass: about 11 bytes per character of the input, so -cc 32
# takes about five times the memory of the default 6). chrF is used up to about 10.
MAX_ORDER = 32
TITLE = "chrF"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "char_order",
        ("-cc", "--chrf-char-order"),
        "character n-gram order (default: 6)",
        int,
        6,
        metavar="N",
        bounds=(0, MAX_ORDER),
    ),
    Option(
        "word_order",
        ("-cw", "--chrf-word-order"),
        "word n-gram order; 2 gives chrF++ (default: 0)",
        int,
        0,
        metavar="N",
        bounds=(0, MAX_ORDER),
    ),
    Option("beta", ("--chrf-beta",), "recall weight beta (default: 2)", int, 2, metavar="B"),
    Option("whitespace", ("--chrf-whitespace",), "keep whitespace in character n-grams"),
    Option("lowercase", ("--chrf-lowercase",), "case-insensitive chrF"),
    Option("eps_smoothing", ("--chrf-eps-smoothing",), "chrF++.py's epsilon smoothing instead of effective order"),
)
