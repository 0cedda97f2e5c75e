"""The library API: results, options, signatures, and clear errors for bad shapes."""

from __future__ import annotations

import math

import pytest
import sacrebleu

import mtscore
from mtscore import InputError, LengthMismatchError

HYPS = ["the cat sat on the mat", "a quick brown fox jumps over the dog"]
REFS = [["the cat sat on a mat", "the quick brown fox jumped over the lazy dog"]]


def test_result_fields_and_str():
    result = mtscore.corpus_bleu(HYPS, REFS)
    expected = sacrebleu.corpus_bleu(HYPS, REFS)
    assert math.isclose(result.score, expected.score, abs_tol=1e-9)
    assert result.counts == expected.counts and result.totals == expected.totals
    assert (result.sys_len, result.ref_len) == (expected.sys_len, expected.ref_len)
    assert result.ratio == expected.ratio
    assert str(result) == str(expected)
    assert (
        str(result.signature) == f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:mtscore-{mtscore.__version__}"
    )


def test_sentence_bleu_defaults_match_sacrebleu():
    result = mtscore.sentence_bleu(HYPS[0], [REFS[0][0]])
    assert math.isclose(result.score, sacrebleu.sentence_bleu(HYPS[0], [REFS[0][0]]).score, abs_tol=1e-9)
    assert "eff:yes" in str(result.signature)


def test_tokenize():
    assert mtscore.tokenize("Hello, world!") == "Hello , world !"
    assert mtscore.tokenize("Hello, World!", lowercase=True) == "hello , world !"
    assert mtscore.tokenize("中文abc", tokenize="zh") == "中 文 abc"
    with pytest.raises(mtscore.InputError, match="tokenize takes one line"):
        mtscore.tokenize(["Hello, world!"])  # it was an AttributeError traceback


def test_add_k_counts_are_the_raw_integers():
    result = mtscore.corpus_bleu(HYPS, REFS, smooth="add-k")
    assert result.counts == mtscore.corpus_bleu(HYPS, REFS).counts
    assert all(isinstance(count, int) for count in result.counts + result.totals)


def test_uniform_weights_equal_the_default():
    default = mtscore.corpus_bleu(HYPS, REFS)
    uniform = mtscore.corpus_bleu(HYPS, REFS, weights=[0.25] * 4)
    assert math.isclose(default.score, uniform.score, rel_tol=1e-12)
    assert "weights:0.25,0.25,0.25,0.25" in str(uniform.signature)


def test_weights_are_a_weighted_geometric_mean():
    result = mtscore.corpus_bleu(HYPS, REFS, weights=[0.5, 0.5, 0, 0], max_order=4)
    p1, p2 = result.precisions[:2]
    assert math.isclose(result.score, result.bp * math.sqrt(p1 * p2), rel_tol=1e-12)


def test_max_order_in_signature():
    assert "|ngram:2|" in str(mtscore.corpus_bleu(HYPS, REFS, max_order=2).signature)
    assert "ngram" not in str(mtscore.corpus_bleu(HYPS, REFS).signature)


def test_missing_references_make_nrefs_var():
    refs = [["the cat sat on a mat", None], ["a cat sat on the mat", "the quick brown fox"]]
    result = mtscore.corpus_bleu(HYPS, refs)
    assert str(result.signature).startswith("nrefs:var|")
    expected = sacrebleu.metrics.BLEU().corpus_score(HYPS, refs)
    assert math.isclose(result.score, expected.score, abs_tol=1e-9)


def test_length_mismatch_names_both_counts():
    with pytest.raises(LengthMismatchError, match=r"2 hypotheses but reference stream 1 has 1 segment"):
        mtscore.corpus_bleu(HYPS, [["only one"]])
    assert issubclass(LengthMismatchError, ValueError)


def test_transposed_references_are_recognised():
    hyps = ["a", "b", "c"]
    per_segment = [["a1", "a2"], ["b1", "b2"], ["c1", "c2"]]
    with pytest.raises(LengthMismatchError, match="look transposed"):
        mtscore.corpus_bleu(hyps, per_segment)


@pytest.mark.parametrize(
    "hyps,refs,message",
    [
        ("a b c", [["a b c"]], "single str"),
        ([], [[]], "no hypotheses"),
        (["a", None], [["a", "b"]], "hypothesis 1 is NoneType"),
        (["a"], ["a"], "list of str"),
        (["a"], [], "no references"),
        (["a"], "a", "reference streams"),
        (["a", "b"], [["a", None], [None, None]], "segment 1 has no reference"),
        (["a"], [[1]], "segment 0 is int"),
    ],
    ids=["hyp-str", "no-hyps", "none-hyp", "refs-flat", "no-refs", "refs-str", "no-ref-for-segment", "ref-int"],
)
def test_bad_shapes(hyps, refs, message):
    with pytest.raises(InputError, match=message):
        mtscore.corpus_bleu(hyps, refs)


@pytest.mark.parametrize(
    "options,message",
    [
        ({"smooth": "nope"}, "unknown smoothing"),
        ({"tokenize": "nope"}, "unknown tokenizer"),
        ({"max_order": 0}, "max order"),
        ({"weights": [1.0]}, "1 weights given for max order 4"),
        ({"weights": [0.5, 0.5, 0.5, -0.5]}, "non-negative"),
        ({"smooth_value": float("nan")}, "finite"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InputError, match=message):
        mtscore.corpus_bleu(HYPS, REFS, **options)


def test_prepared_references_check_length():
    metric = mtscore.BLEU(REFS)
    with pytest.raises(LengthMismatchError, match="1 hypothesis but the prepared references have 2"):
        metric.corpus_score(["x"])
    with pytest.raises(InputError, match="no references"):
        mtscore.BLEU().corpus_score(["x"])


def test_systems_statistics_counts_systems_together():
    """``BLEU.systems_statistics``: each system's ``segment_statistics``, tokenized and counted at once."""
    metric = mtscore.BLEU([["the cat sat on the mat", "a b c d"], ["a cat sat", None]])
    systems = [["the cat sat", "a b c"], ["a cat sat on the mat", "a b c d"], ["the cat sat", "x"]]
    together = metric.systems_statistics(systems)
    assert [s.tolist() for s in together] == [metric.segment_statistics(h).tolist() for h in systems]
    with pytest.raises(LengthMismatchError, match="system 1 has 2 segments but system 2 has 1"):
        metric.systems_statistics([["a", "b"], ["a"]])
    with pytest.raises(InputError, match="hypothesis 1 is int"):
        metric.systems_statistics([["a", 3]])
    with pytest.raises(InputError, match="non-empty list of systems"):
        metric.systems_statistics([])
    with pytest.raises(InputError, match="no references"):
        mtscore.BLEU().systems_statistics([["a"]])
