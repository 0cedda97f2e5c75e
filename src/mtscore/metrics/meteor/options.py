"""METEOR's options as the command line shows them; light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ... import tokenizers
from ...core.options import Option

TITLE = "METEOR"  # how the command line's help names the metric
OPTIONS = (
    Option(
        "tokenize",
        ("--meteor-tokenize",),
        "tokenizer before splitting on whitespace (default: none, words as whitespace separates them)",
        str,
        "none",
        tokenizers.available,
    ),
    Option(
        "wordnet",
        ("--meteor-wordnet",),
        "folder (or NLTK's wordnet.zip) of the WordNet 3.0 database (default: $MTSCORE_WORDNET, NLTK's data, "
        "/usr/share/wordnet)",
        str,
        metavar="PATH",
    ),
    Option("no_synonyms", ("--meteor-no-synonyms",), "exact and stem matches only, without WordNet"),
    Option("alpha", ("--meteor-alpha",), "precision's weight in the harmonic mean (default: 0.9)", float, 0.9),
    Option("beta", ("--meteor-beta",), "the fragmentation penalty's exponent (default: 3)", float, 3.0),
    Option("gamma", ("--meteor-gamma",), "the fragmentation penalty's weight (default: 0.5)", float, 0.5),
)
