"""Google-BLEU's options as the command line shows them; light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ... import tokenizers
from ...core.options import Option

TITLE = "Google-BLEU"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "tokenize",
        ("--gleu-tokenize",),
        "tokenizer (default: 13a, as Hugging Face evaluate's google_bleu)",
        str,
        "13a",
        tokenizers.available,
    ),
    Option("lowercase", ("--gleu-lowercase",), "case-insensitive Google-BLEU"),
    Option("min_len", ("--gleu-min-len",), "lowest n-gram order (default: 1)", int, 1, metavar="N", bounds=(1, None)),
    Option("max_len", ("--gleu-max-len",), "highest n-gram order (default: 4)", int, 4, metavar="N", bounds=(1, None)),
)
