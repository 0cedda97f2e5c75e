"""BLEU's options as the command line shows them (sacrebleu's flags); light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ... import tokenizers
from ...core.options import Option
from .scoring import SMOOTH_DEFAULTS

# The compatibility modes (``compat.MODES``), listed here so that ``--help`` needs no NumPy.
COMPAT_MODES = (
    "multi-bleu",
    "multi-bleu-detok",
    "mteval-v13a",
    "mteval-v13a-c",
    "mteval-v14",
    "mteval-v14-c",
    "hf-evaluate",
    "torchmetrics",
    "nltk",
)

TITLE = "BLEU"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "tokenize",
        ("-tok", "--tokenize"),
        "tokenizer (default: 13a; with --compat, the tool's)",
        str,
        None,
        tokenizers.available,
    ),
    Option("lowercase", ("-lc", "--lowercase"), "case-insensitive BLEU"),
    Option(
        "smooth",
        ("-s", "--smooth-method"),
        "smoothing (default: exp; with --compat, the tool's; add-one: --compat hf-evaluate or torchmetrics)",
        str,
        None,
        lambda: [*SMOOTH_DEFAULTS, "add-one"],
    ),
    Option(
        "smooth_value",
        ("-sv", "--smooth-value"),
        "value for floor (0.1), add-k (1), nltk-method1 epsilon (0.1), nltk-method4/7 k (5), nltk-method6 alpha (5)",
        float,
    ),
    Option("max_order", ("--max-ngram-order",), "highest n-gram order (default: 4)", int, 4, metavar="N"),
    Option(
        "weights",
        ("--weights",),
        "one weight per order, summing to 1 (default: uniform)",
        float,
        metavar="W",
        nargs="+",
    ),
    Option("effective_order", ("-e", "--effective-order"), "ignore orders with no hypothesis n-grams"),
    Option(
        "compat",
        ("--compat",),
        "score as another tool does: its tokenizer, case, reference length, smoothing and scale",
        str,
        None,
        COMPAT_MODES,
        metavar="MODE",
    ),
)
