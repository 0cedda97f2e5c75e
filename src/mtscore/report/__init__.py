"""Results as the command line writes them: corpus scores as score lines, JSON or a table
(``corpus``), scores with bootstrap intervals (``confidence``), every segment's score
(``segments``), TSV rows (``tsv``), paired tests (``paired``, over ``significance.results``) and
meta-evaluation's page (``metaeval``, over ``mtscore.metaeval``'s results). May import ``metaeval``,
``significance``, ``metrics``, ``core`` and below; never ``cli``.
"""

from __future__ import annotations

from typing import NamedTuple


class Form(NamedTuple):
    """How results are written: ``format`` (json, text, tsv or latex), ``width`` (decimals of a
    score), ``score_only`` (the numbers alone), ``short`` (short signature field names) and
    ``extended`` (this project's fuller forms, for command lines sacrebleu cannot run or that ask
    for them: signatures in the JSON of several systems, paired tests' differences and Holm p)."""

    format: str = "json"
    width: int = 1
    score_only: bool = False
    short: bool = False
    extended: bool = False
