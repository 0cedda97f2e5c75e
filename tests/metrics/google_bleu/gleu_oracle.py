"""NLTK 3.10's ``corpus_gleu`` as the oracle, on tokens from sacrebleu's tokenizers, with the
[n_match, n_all] NLTK chooses for each segment read from NLTK itself (its ``max`` call is recorded)."""

from __future__ import annotations

import builtins
import math
from contextlib import contextmanager

import numpy as np
from nltk.translate import gleu_score
from sacrebleu.metrics.base import Metric as SacreMetric
from sacrebleu.metrics.base import Score as SacreScore
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtscore.metrics.google_bleu import GoogleBLEU

TOLERANCE = 1e-9

SACRE_TOKENIZERS = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "char": TokenizerChar(),
    "zh": TokenizerZh(),
    "none": lambda line: line,
}


def tokens(line: str, tokenize: str = "13a", lowercase: bool = False) -> list[str]:
    """sacrebleu's tokens of a line (its BLEU preprocessing: strip the end, lowercase, tokenize, split)."""
    line = line.rstrip()
    return SACRE_TOKENIZERS[tokenize](line.lower() if lowercase else line).split()


def evaluate_tokens(line: str) -> list[str]:
    """Hugging Face evaluate's ``google_bleu`` tokens: its copy of sacrebleu's 13a tokenizer, then ``split()``."""
    return Tokenizer13a()(line).split()


@contextmanager
def recorded_choices():
    """Collects the (n_match, n_all) that NLTK's ``corpus_gleu`` picks for each segment that has a
    reference with n-grams: the results of its ``max(..., key=...)`` calls, in order."""
    chosen: list[tuple[int, int]] = []

    def recording_max(*args, **kwargs):
        result = builtins.max(*args, **kwargs)
        if "key" in kwargs:
            chosen.append(result)
        return result

    gleu_score.max = recording_max  # a module global shadows the builtin inside corpus_gleu
    try:
        yield chosen
    finally:
        del gleu_score.max


def per_segment(streams, n_segments: int) -> list[list[str]]:
    """Each segment's references (the present ones, in stream order), as NLTK takes them."""
    return [[stream[i] for stream in streams if stream[i] is not None] for i in range(n_segments)]


def nltk_gleu(hypotheses, streams, min_len=1, max_len=4, tokenize="13a", lowercase=False, tokenizer=None):
    """NLTK's corpus_gleu and the per-segment [n_match, n_all] it summed (segments x 2, [0, 0] where
    NLTK skipped the segment), on tokens from ``tokenizer`` (default: sacrebleu's, as ``tokens``)."""
    split = tokenizer or (lambda line: tokens(line, tokenize, lowercase))
    refs = [[split(line) for line in segment] for segment in per_segment(streams, len(hypotheses))]
    hyps = [split(line) for line in hypotheses]
    with recorded_choices() as chosen:
        score = gleu_score.corpus_gleu(refs, hyps, min_len=min_len, max_len=max_len)
    return score, np.array(chosen, dtype=np.int64).reshape(-1, 2)


def nltk_sentence_gleus(hypotheses, streams, min_len=1, max_len=4, tokenize="13a", lowercase=False):
    """NLTK's ``sentence_gleu`` of every segment."""
    segments = per_segment(streams, len(hypotheses))
    return [
        gleu_score.sentence_gleu(
            [tokens(line, tokenize, lowercase) for line in refs],
            tokens(hyp, tokenize, lowercase),
            min_len=min_len,
            max_len=max_len,
        )
        for hyp, refs in zip(hypotheses, segments, strict=True)
    ]


def check_against_nltk(hypotheses, streams, **options) -> None:
    """Per-segment statistics as NLTK chooses them, corpus ratio to the bit, corpus and sentence
    scores (0-100) to 1e-9 of NLTK's x 100."""
    theirs, chosen = nltk_gleu(hypotheses, streams, **options)
    metric = GoogleBLEU(streams, **options)
    statistics = metric.segment_statistics(hypotheses)
    assert statistics.dtype == np.int64 and statistics.shape == (len(hypotheses), 2)
    counted = statistics[:, 1] > 0
    assert statistics[~counted].tolist() == [[0, 0]] * int((~counted).sum())  # skipped by NLTK
    assert statistics[counted].tolist() == chosen.tolist()
    result = metric.corpus_score(hypotheses)
    assert result.ratio == theirs
    assert math.isclose(result.score, 100 * theirs, rel_tol=0, abs_tol=TOLERANCE)
    sentences = nltk_sentence_gleus(hypotheses, streams, **options)
    np.testing.assert_allclose(metric.sentence_scores(hypotheses), 100 * np.array(sentences), rtol=0, atol=TOLERANCE)
    assert not np.isnan(metric.sentence_scores(hypotheses)).any()


class SacreNltkGleu(SacreMetric):
    """NLTK's corpus_gleu (x 100) as a sacrebleu metric, so that sacrebleu's own bootstrap intervals
    and paired tests run on the per-segment [n_match, n_all] that NLTK chose (13a tokens)."""

    def __init__(self, references=None):
        super().__init__()
        self.references = references

    def _extract_corpus_statistics(self, hypotheses, references):
        _, chosen = nltk_gleu(hypotheses, references or self.references)
        assert len(chosen) == len(hypotheses)  # every segment has n-grams here
        return chosen.tolist()

    def _compute_score_from_stats(self, stats):
        n_match, n_all = (float(value) for value in stats)
        return SacreScore("Google-BLEU", 100 * (n_match / n_all) if n_all else 0.0)

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(np.sum(stats, axis=0))

    def get_signature(self):
        return _Fields()

    def _compute_segment_statistics(self, *args):
        raise NotImplementedError

    def _extract_reference_info(self, *args):
        raise NotImplementedError

    def _preprocess_segment(self, *args):
        raise NotImplementedError


class _Fields(dict):
    """What sacrebleu's paired test updates in a signature."""

    def update(self, key, value):  # type: ignore[override]
        self[key] = value
