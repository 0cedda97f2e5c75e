"""BLEU equals sacrebleu's to the last bit, not only to 1e-9: the logarithms and exponentials are the C
library's (``math.log``, ``math.exp``), as sacrebleu's, never a vectorised approximation that can differ
in the last bit (NumPy's AVX-512 ``exp`` does on about 6% of WMT22 de-en's segments)."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from shared_data import read_lines, references, system_output

import mtscore
from mtscore.engine import libm


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output("de-en", "Online-B"))
    return hypotheses, [read_lines(path) for path in references("de-en", "all")]


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_every_segments_bleu_is_sacrebleus_to_the_bit(corpus, smooth):
    hypotheses, streams = corpus
    ours = mtscore.sentence_bleus(hypotheses, streams, smooth=smooth)
    oracle = SacreBLEU(effective_order=True, smooth_method=smooth)
    theirs = [oracle.sentence_score(h, [s[i] for s in streams]).score for i, h in enumerate(hypotheses)]
    assert ours.tolist() == theirs


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_corpus_bleu_is_sacrebleus_to_the_bit(corpus, smooth):
    hypotheses, streams = corpus
    for size in (1, 10, len(hypotheses)):
        ours = mtscore.corpus_bleu(hypotheses[:size], [s[:size] for s in streams], smooth=smooth)
        theirs = SacreBLEU(smooth_method=smooth).corpus_score(hypotheses[:size], [s[:size] for s in streams])
        assert (ours.score, ours.bp, list(ours.precisions)) == (theirs.score, theirs.bp, list(theirs.precisions))


def test_libm_functions_are_pythons_math():
    values = np.random.default_rng(1).uniform(-700, 700, 10_000)
    import math

    assert libm.exp(values).tolist() == [math.exp(v) for v in values.tolist()]
    positive = np.abs(values) + 1e-300
    assert libm.log(positive).tolist() == [math.log(v) for v in positive.tolist()]
    assert libm.exp(np.array([1000.0])).tolist() == [math.inf] and libm.exp(np.zeros((2, 3))).shape == (2, 3)
