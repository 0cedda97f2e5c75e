"""One harness for every registered metric: each metric's oracle (the reference tool it must equal),
small corpora to run it on, and the checks every metric passes the same way (``test_every_metric.py``
and ``test_every_metric_wmt22.py`` run them; the wrappers' signatures are checked in
``tests/core/test_functional.py``).

A metric of another package has no oracle here; it runs through every check that needs none.
"""

from __future__ import annotations

import random
import statistics

import jiwer
import sacrebleu
from helpers import references_taken
from nltk.translate import gleu_score, meteor_score, nist_score
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtscore.metrics import BUILTIN, metric_class

TOLERANCE = 1e-9
TOKENIZE_13A = Tokenizer13a()


class NoSynonyms:
    """A WordNet for NLTK that knows no word: its METEOR without the synonym stage."""

    def synsets(self, word):
        return []


def tokens_13a(line: str) -> list[str]:
    """sacrebleu's 13a tokens of a line, as Google-BLEU and NIST tokenize it by default."""
    return TOKENIZE_13A(line.rstrip()).split()


def present(streams: list[list[str | None]], index: int) -> list[str]:
    """The references of segment ``index`` that are there, in stream order."""
    return [stream[index] for stream in streams if stream[index] is not None]


def nltk_gleu(hypotheses: list[str], streams: list[list[str | None]]) -> float:
    refs = [[tokens_13a(line) for line in present(streams, i)] for i in range(len(hypotheses))]
    return 100 * gleu_score.corpus_gleu(refs, [tokens_13a(line) for line in hypotheses])


def nltk_meteor(hypotheses: list[str], streams: list[list[str | None]]) -> float:
    """The mean of NLTK's sentence METEOR (the corpus score mtscore defines), without synonyms."""
    scores = [
        meteor_score.meteor_score([ref.split() for ref in present(streams, i)], hyp.split(), wordnet=NoSynonyms())
        for i, hyp in enumerate(hypotheses)
    ]
    return 100 * statistics.fmean(scores)


def nltk_nist(hypotheses: list[str], streams: list[list[str | None]]) -> float:
    refs = [[tokens_13a(line) for line in present(streams, i)] for i in range(len(hypotheses))]
    return nist_score.corpus_nist(refs, [tokens_13a(line) for line in hypotheses])


# Metric name -> (the options it is run with, the reference tool's corpus score of (hypotheses, streams)).
ORACLES = {
    "bleu": ({}, lambda hyps, streams: sacrebleu.BLEU().corpus_score(hyps, streams).score),
    "chrf": ({}, lambda hyps, streams: sacrebleu.CHRF().corpus_score(hyps, streams).score),
    "ter": ({}, lambda hyps, streams: sacrebleu.TER().corpus_score(hyps, streams).score),
    "google_bleu": ({}, nltk_gleu),
    "wer": ({}, lambda hyps, streams: 100 * jiwer.wer(streams[0], hyps)),
    "cer": ({}, lambda hyps, streams: 100 * jiwer.cer(streams[0], hyps)),
    "meteor": ({"no_synonyms": True}, nltk_meteor),
    "nist": ({"variant": "nltk", "lowercase": False}, nltk_nist),
}
METRIC_NAMES = list(BUILTIN)

# Words that stress tokenizers and case: punctuation, entities, numbers, non-ASCII letters.
VOCABULARY = (
    "the The cat cats sat sits on a mat mats dog ran runs . , ! ? 's n't don't U.S. 1.5 2,000 &amp; (x) "
    "über naïve Straße 日本 it is was raining rains today again quick brown fox jumps over lazy"
).split()


def generated_corpus(seed: int = 7, segments: int = 24) -> tuple[dict[str, list[str]], list[list[str]]]:
    """Two systems and two reference streams of ``segments`` lines of 5 to 14 words (every order of
    n-grams present, so that each oracle has a score): one system edits the first reference, the
    other is drawn at random."""
    rng = random.Random(seed)

    def line() -> list[str]:
        return [rng.choice(VOCABULARY) for _ in range(rng.randint(5, 14))]

    streams = [[line() for _ in range(segments)] for _ in range(2)]
    edited = []
    for words in streams[0]:
        words = [rng.choice(VOCABULARY) if rng.random() < 0.3 else word for word in words]
        edited.append(words[: rng.randint(5, len(words))] if len(words) > 5 else words)
    systems = {"edited": [" ".join(words) for words in edited], "random": [" ".join(line()) for _ in range(segments)]}
    return systems, [[" ".join(words) for words in stream] for stream in streams]


def oracle_score(name: str, hypotheses: list[str], streams: list[list[str | None]]) -> float:
    """The reference tool's corpus score of the metric ``name`` (run with ``ORACLES[name]``'s options)."""
    _, oracle = ORACLES[name]
    return oracle(hypotheses, references_taken(name, streams))


def metric_for(name: str, references: list[list[str | None]] | None = None):
    """The metric ``name`` with its oracle's options (a plugin's defaults), on as many reference
    streams as it takes."""
    options = ORACLES[name][0] if name in ORACLES else {}
    streams = None if references is None else references_taken(name, references)
    return metric_class(name)(streams, **options)


def option_arguments(name: str) -> list[str]:
    """The command-line options that give the metric ``name`` its oracle's options."""
    spelled = {
        "meteor": ["--meteor-no-synonyms"],
        "nist": ["--nist-variant", "nltk", "--nist-case-sensitive"],
    }
    return spelled.get(name, [])
