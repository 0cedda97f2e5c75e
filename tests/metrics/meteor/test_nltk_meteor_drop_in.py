"""``mtscore.nltk.meteor_score`` and ``single_meteor_score`` equal NLTK 3.10.4's, compared with ``==``
(NLTK reading WordNet 3.0 from the same files as mtscore): on every WMT22 de-en segment of two
systems against one and two references, with other options, and on generated text built to stress
the alignment; and they refuse what they cannot score as NLTK would, by name."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.lancaster import LancasterStemmer
from nltk.stem.porter import PorterStemmer
from nltk.translate import meteor_score as nltk_meteor
from shared_data import read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.nltk import meteor_score, single_meteor_score


@pytest.fixture(scope="module")
def de_en():
    """(hypotheses of Online-A and LT22, ref.A, ref.B) of WMT22 de-en, split on whitespace."""
    refs = [[line.split() for line in read_lines(references("de-en", name)[0])] for name in ("A", "B")]
    systems = [[line.split() for line in read_lines(system_output("de-en", name))] for name in ("Online-A", "LT22")]
    return systems, refs


def test_every_wmt22_de_en_segment_equals_nltk_with_two_references(wordnet, nltk_wordnet, de_en):
    systems, (ref_a, ref_b) = de_en
    for hypotheses in systems:
        assert len(hypotheses) == len(ref_a) == len(ref_b)
        ours = [meteor_score([a, b], hyp) for hyp, a, b in zip(hypotheses, ref_a, ref_b, strict=True)]
        theirs = [
            nltk_meteor.meteor_score([a, b], hyp, wordnet=nltk_wordnet)
            for hyp, a, b in zip(hypotheses, ref_a, ref_b, strict=True)
        ]
        assert ours == theirs
        assert any(0 < score < 1 for score in ours)


def test_every_wmt22_de_en_segment_equals_nltk_against_one_reference(wordnet, nltk_wordnet, de_en):
    systems, (ref_a, _) = de_en
    hypotheses = systems[1]
    ours = [single_meteor_score(ref, hyp, wordnet=nltk_wordnet) for hyp, ref in zip(hypotheses, ref_a, strict=True)]
    theirs = [
        nltk_meteor.single_meteor_score(ref, hyp, wordnet=nltk_wordnet)
        for hyp, ref in zip(hypotheses, ref_a, strict=True)
    ]
    assert ours == theirs


@pytest.mark.parametrize(
    "options",
    [
        {"alpha": 0.5, "beta": 2.0, "gamma": 0.25},
        {"alpha": 1, "beta": 3, "gamma": 1},
        {"alpha": 0.0, "beta": 0.5, "gamma": 0.0},
        {"preprocess": str},  # case kept: exact words match by case, stems and synonyms lowercase in both
        {"preprocess": str.upper},
        {"stemmer": PorterStemmer()},
    ],
    ids=["alpha-beta-gamma", "integers", "zeros", "case-kept", "upper", "nltk-stemmer"],
)
def test_options_equal_nltk(wordnet, nltk_wordnet, de_en, options):
    systems, (ref_a, ref_b) = de_en
    segments = list(zip(systems[0], ref_a, ref_b, strict=True))[:400]
    ours = [meteor_score([a, b], hyp, **options) for hyp, a, b in segments]
    theirs = [nltk_meteor.meteor_score([a, b], hyp, wordnet=nltk_wordnet, **options) for hyp, a, b in segments]
    assert ours == theirs


WORDS = ["the", "The", "cat", "cats", "sat", "sits", "sitting", "mat", "mats", "dog", "hound", "big", "large", "a"]
sentences = st.lists(st.sampled_from(WORDS), max_size=12)


@settings(max_examples=300, deadline=None)
@given(hypothesis=sentences, refs=st.lists(sentences, min_size=1, max_size=3))
def test_generated_text_equals_nltk(wordnet, nltk_wordnet, hypothesis, refs):
    """Repeated words, inflections, synonyms (dog/hound, big/large), case and empty sentences."""
    assert meteor_score(refs, hypothesis) == nltk_meteor.meteor_score(refs, hypothesis, wordnet=nltk_wordnet)


def test_empty_sides_score_zero_as_nltk(wordnet, nltk_wordnet):
    for ref, hyp in (([], ["a"]), (["a"], []), ([], []), (["cat"], ["dog"])):
        assert single_meteor_score(ref, hyp) == nltk_meteor.single_meteor_score(ref, hyp, wordnet=nltk_wordnet) == 0


def test_tuples_and_generators_are_token_sequences(wordnet):
    hypothesis, reference = "the cat sat on the mat".split(), "a cat sat on a mat".split()
    expected = meteor_score([reference], hypothesis)
    assert meteor_score((tuple(reference),), tuple(hypothesis)) == expected
    assert meteor_score(iter([iter(reference)]), iter(hypothesis)) == expected


def test_nltk_wordnet_objects_are_accepted(wordnet, nltk_wordnet):
    from nltk.corpus import wordnet as nltk_default

    hypothesis, reference = ["a", "large", "hound"], ["a", "big", "dog"]
    expected = nltk_meteor.single_meteor_score(reference, hypothesis, wordnet=nltk_wordnet)
    assert expected > nltk_meteor.single_meteor_score(reference, hypothesis, wordnet=NoSynonyms())  # synonyms count
    for reader in (None, nltk_wordnet, nltk_default):
        assert single_meteor_score(reference, hypothesis, wordnet=reader) == expected


class NoSynonyms:
    """A WordNet for NLTK that knows no word."""

    def synsets(self, word):
        return []


def test_other_wordnets_are_refused_by_name(wordnet):
    with pytest.raises(InputError, match=r"wordnet must be left out.*NoSynonyms"):
        meteor_score([["a"]], ["a"], wordnet=NoSynonyms())


@pytest.mark.parametrize("stemmer", [LancasterStemmer(), PorterStemmer(PorterStemmer.ORIGINAL_ALGORITHM)])
def test_other_stemmers_are_refused(wordnet, stemmer):
    with pytest.raises(InputError, match="stemmer must be left out or be NLTK's PorterStemmer"):
        meteor_score([["a"]], ["a"], stemmer=stemmer)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: meteor_score([["a"]], "a b"), "hypothesis is a str"),
        (lambda: meteor_score(["a b"], ["a"]), "reference 0 is a str"),
        (lambda: meteor_score("a b", ["a"]), "references must be a list of references"),
        (lambda: meteor_score([], ["a"]), "at least one reference"),
        (lambda: meteor_score([["a"]], ["a", 1]), "hypothesis holds a token of type int"),
        (lambda: meteor_score([["a"]], ["a"], preprocess=len), "preprocess turned a token of the hypothesis"),
        (lambda: single_meteor_score(5, ["a"]), "reference must be a list of tokens, got int"),
        (lambda: meteor_score([["a"]], ["a"], alpha=1.5), "alpha must be a number from 0 to 1"),
        (lambda: meteor_score([["a"]], ["a"], beta=float("nan")), "beta must be a number >= 0"),
        (lambda: meteor_score([["a"]], ["a"], gamma="0.5"), "gamma must be a number from 0 to 1"),
    ],
)
def test_bad_input_is_an_input_error_naming_it(wordnet, call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_missing_wordnet_is_an_input_error(no_wordnet):
    with pytest.raises(InputError, match=r"WordNet 3\.0 database, which was not found"):
        meteor_score([["a"]], ["a"])


def test_import_mtscore_nltk_does_not_load_meteor():
    code = "import sys, mtscore.nltk; print('mtscore.nltk.meteor' in sys.modules, 'numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
