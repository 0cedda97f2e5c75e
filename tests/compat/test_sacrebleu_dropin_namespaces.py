"""``mtscore.sacrebleu``'s namespaces as sacrebleu 2.6 has them: ``metrics`` (with
``BLEU.compute_bleu``), ``significance`` (``PairedTest``, ``Result``) and ``tokenizers`` (its class
names), each against sacrebleu itself on WMT22 data and generated statistics."""

from __future__ import annotations

import pytest
import sacrebleu.metrics as their_metrics
import sacrebleu.significance as their_significance
from helpers import as_sacrebleu_version, fixed
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.tokenizers import (
    tokenizer_13a,
    tokenizer_char,
    tokenizer_intl,
    tokenizer_none,
    tokenizer_ter,
    tokenizer_zh,
)
from shared_data import read_lines, references, system_output

import mtscore.sacrebleu.metrics as our_metrics
import mtscore.sacrebleu.significance as our_significance
import mtscore.sacrebleu.tokenizers as our_tokenizers

SEGMENTS = 200
SYSTEMS = ["Online-A", "Online-B", "PROMT"]


@pytest.fixture(scope="module")
def data():
    refs = [read_lines(references("en-de", "A")[0])[:SEGMENTS]]
    systems = [(name, read_lines(system_output("en-de", name))[:SEGMENTS]) for name in SYSTEMS]
    return refs, systems


@st.composite
def statistics(draw):
    """Sufficient statistics that text can produce: total_1 is the hypothesis length, totals and
    matches do not grow with the order, and no order matches more n-grams than it has."""
    sys_len = draw(st.integers(0, 60))
    total, correct = [sys_len], [draw(st.integers(0, sys_len))]
    for _ in range(3):
        total.append(draw(st.integers(0, total[-1])))
        correct.append(draw(st.integers(0, min(correct[-1], total[-1]))))
    return correct, total, sys_len, draw(st.integers(0, 60))


@fixed(max_examples=200)
@given(statistics(), st.sampled_from(["none", "floor", "add-k", "exp"]), st.booleans())
def test_compute_bleu_equals_sacrebleus(stats, smooth, effective):
    correct, total, sys_len, ref_len = stats
    # sacrebleu's add-k adds k to the lists it is given, in place: each side gets its own copies
    expected = their_metrics.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, smooth, None, effective)
    got = our_metrics.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, smooth, None, effective)
    assert got.score == pytest.approx(expected.score, abs=1e-9)
    assert got.bp == pytest.approx(expected.bp, abs=1e-12)
    assert list(got.precisions) == pytest.approx(list(expected.precisions), abs=1e-9)


def _metrics(module, refs, ter: bool):
    chosen = {"BLEU": module.BLEU(references=refs), "chrF": module.CHRF(references=refs)}
    return {**chosen, "TER": module.TER(references=refs)} if ter else chosen


@pytest.mark.parametrize(
    ("test", "n_samples", "n_ar_confidence", "ter"),
    [("bs", 200, -1, True), ("ar", 300, -1, False), ("ar", 300, 100, False), ("ar", 300, 0, False)],
)
def test_paired_test_equals_sacrebleus(data, monkeypatch, test, n_samples, n_ar_confidence, ter):
    """Equal to sacrebleu's; TER under randomization is left to ``tests/cli/test_metrics_cli.py``,
    which accounts for the trials that tie the observed difference (counted here, not by sacrebleu)."""
    refs, systems = data
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    theirs = their_significance.PairedTest(
        systems, _metrics(their_metrics, refs, ter), None, test, n_samples, n_ar_confidence
    )()
    ours = our_significance.PairedTest(
        systems, _metrics(our_metrics, refs, ter), None, test, n_samples, n_ar_confidence
    )()
    assert list(ours[0]) == list(theirs[0])
    for name, signature in theirs[0].items():
        assert as_sacrebleu_version(str(ours[0][name])) == str(signature)
    assert ours[1]["System"] == theirs[1]["System"] == SYSTEMS
    for name in theirs[0]:
        for got, expected in zip(ours[1][name], theirs[1][name], strict=True):
            assert (got.score, got.p_value) == (expected.score, expected.p_value)  # same draws: exactly equal
            # a resample's score may differ in its last bit (vectorised vs scalar arithmetic)
            for field in ("mean", "ci"):
                value = getattr(got, field)
                assert value == pytest.approx(getattr(expected, field), abs=1e-9) or value is getattr(expected, field)
            assert [type(v) for v in vars(got).values()] == [type(v) for v in vars(expected).values()]


def test_paired_test_with_references_given_at_the_call(data):
    refs, systems = data
    metrics = {"BLEU": our_metrics.BLEU()}
    signatures, scores = our_significance.PairedTest(systems, metrics, refs, "bs", 100)()
    expected = [our_metrics.BLEU().corpus_score(hypotheses, refs).score for _, hypotheses in systems]
    assert [result.score for result in scores["BLEU"]] == pytest.approx(expected, abs=1e-9)
    assert "bs:100" in str(signatures["BLEU"])


def test_estimate_ci_and_result_equal_sacrebleus():
    import numpy as np

    scores = np.random.default_rng(3).normal(30, 2, 1000)
    assert our_significance.estimate_ci(scores) == pytest.approx(their_significance.estimate_ci(scores), abs=1e-12)
    assert repr(our_significance.Result(1.5, 0.01, 1.4, 0.2)) == repr(their_significance.Result(1.5, 0.01, 1.4, 0.2))


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (our_tokenizers.Tokenizer13a, tokenizer_13a.Tokenizer13a),
        (our_tokenizers.TokenizerV14International, tokenizer_intl.TokenizerV14International),
        (our_tokenizers.TokenizerZh, tokenizer_zh.TokenizerZh),
        (our_tokenizers.TokenizerChar, tokenizer_char.TokenizerChar),
        (our_tokenizers.NoneTokenizer, tokenizer_none.NoneTokenizer),
    ],
)
def test_tokenizers_by_sacrebleus_names(ours, theirs):
    lines = [
        *read_lines(references("en-zh", "A")[0])[:150],
        *read_lines(references("en-de", "A")[0])[:150],
        " two  spaces\tand a tab ",
        "",
        "95\xa0% non-breaking",
    ]
    mine, reference = ours(), theirs()
    assert mine.signature() == reference.signature()
    assert [mine(line) for line in lines] == [reference(line) for line in lines]


@pytest.mark.parametrize("options", [(False, False, False, False), (True, True, True, True), (True, False, True, True)])
def test_tercom_tokenizer(options):
    lines = [*read_lines(references("en-de", "A")[0])[:150], "Fine, isn't it? 1.5 &amp; «quotes»", ""]
    mine, reference = our_tokenizers.TercomTokenizer(*options), tokenizer_ter.TercomTokenizer(*options)
    assert [mine(line) for line in lines] == [reference(line) for line in lines]
    assert mine.signature() == reference.signature()
