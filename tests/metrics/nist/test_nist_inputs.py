"""Bad and degenerate input: clear errors for wrong options and shapes; empty lines, empty corpora
and missing references give defined scores (never NaN or ZeroDivisionError); statistics merge
only as documented."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtscore.errors import InputError, LengthMismatchError
from mtscore.metrics.nist import NIST, corpus_nist, sentence_nist, sentence_nists


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
@pytest.mark.parametrize(
    ("hyps", "refs", "expected"),
    [
        (["", ""], [["", ""]], 0.0),  # nothing at all
        (["a b", ""], [["", ""]], 0.0),  # no reference words: no information
        (["", ""], [["a b", "c"]], 0.0),  # no hypothesis words: brevity penalty 0
    ],
)
def test_empty_corpora_score_zero(variant: str, hyps, refs, expected: float) -> None:
    result = corpus_nist(hyps, refs, variant=variant)
    assert result.score == expected and not math.isnan(result.bp)
    assert all(not math.isnan(s) for s in sentence_nists(hyps, refs, variant=variant))
    assert sentence_nist(hyps[0], [refs[0][0]], variant=variant).score == 0.0


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_missing_references_are_left_out(variant: str) -> None:
    with_none = corpus_nist(["a b", "c d"], [["a b", "c d"], [None, "c d e f"]], variant=variant)
    assert with_none.score > 0 and with_none.signature.info["nrefs"] == "var"
    if variant == "mteval":  # a segment's reference length: the mean over its present references
        assert with_none.ref_len == 2 + (2 + 4) / 2


def test_lowercasing_is_ascii_only() -> None:
    assert corpus_nist(["ÉCOLE A"], [["école a"]]).matches[0] == 1  # A-Z only, as mteval's tr/A-Z/a-z/
    assert corpus_nist(["ÉCOLE A"], [["école a"]], lowercase=False).matches[0] == 0


def test_perl_zero_prefix() -> None:
    """mteval reads a bigram's prefix "0" as false: its numerator is the number of reference words."""
    result = corpus_nist(["0 x"], [["0 x y"]], lowercase=False)
    assert result.info[1] == pytest.approx(math.log2(3 / 1))
    assert corpus_nist(["1 x"], [["1 x y"]]).info[1] == 0.0
    assert corpus_nist(["0 x"], [["0 x y"]], variant="nltk").info[1] == 0.0


@pytest.mark.parametrize(
    ("options", "message"),
    [({"variant": "perl"}, "unknown NIST variant"), ({"max_order": 0}, "max_order"), ({"tokenize": "x"}, "tokenizer")],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        NIST(**options)


def test_bad_shapes() -> None:
    with pytest.raises(InputError, match="no hypotheses"):
        corpus_nist([], [[]])
    with pytest.raises(LengthMismatchError):
        corpus_nist(["a"], [["a", "b"]])
    with pytest.raises(InputError, match="17 columns"):
        NIST().score_statistics(np.zeros((2, 3)))


def test_statistics_of_one_reference_corpus_merge() -> None:
    """Rows counted against the same full reference corpus add up; slices of them merge back."""
    metric = NIST([["the cat sat", "a dog ran", "it is"]])
    statistics = metric.statistics(["the cat", "a dog", "it is"])
    merged = statistics[:1] + statistics[1:]
    assert metric.score_statistics(merged).score == pytest.approx(
        metric.corpus_score(["the cat", "a dog", "it is"]).score
    )
    assert not metric.aggregation.streams


def test_statistics_of_other_references_do_not_merge() -> None:
    """Rows counted against other references carry other weights: merging or scoring them is refused."""
    hyps = ["a b", "d"]
    metric, other = NIST([["a b c", "d e"]]), NIST([["a b x", "d e"]])
    mine, theirs = metric.statistics(hyps), other.statistics(hyps)
    with pytest.raises(ValueError, match="different reference corpora"):
        mine[:1] + theirs[1:]
    with pytest.raises(InputError, match="other references"):
        metric.score_statistics(theirs)
    again = type(mine).from_json(mine.to_json())
    assert again == mine and again.references == mine.references
