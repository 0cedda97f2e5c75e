"""WER's options as the command line shows them; light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ...core.options import Option

TITLE = "WER"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "standardize",
        ("--wer-standardize",),
        "jiwer's wer_standardize: lowercase, expand English contractions, drop [noise] and <unk>",
    ),
)
