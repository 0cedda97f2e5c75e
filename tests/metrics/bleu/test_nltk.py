"""Parity with NLTK 3.10.4's ``nltk.translate.bleu_score``: the drop-in ``mtscore.nltk`` and the
``nltk-methodN`` smoothing of the main API.

NLTK is the oracle. Every comparison calls NLTK first: where it returns, ours must return the
same number (1e-9 absolute); where it raises (method 6 without a trigram match, method 6 with
fewer than three weights, ...), ours must raise ``mtscore.InputError``.

``mtscore.nltk.corpus_bleu`` smooths methods 5-7 with corpus statistics where NLTK reads the last
segment's; ``corpus_bleu_as_nltk`` keeps NLTK's behaviour. So the corrected one is compared to
NLTK for methods 0-4 on any corpus and for 5-7 on one-segment corpora only.

Generated inputs use Hypothesis with ``derandomize=True`` and no example database, so every
run checks the same examples. Vocabularies are tiny so that n-grams match often.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

from helpers import fixed  # noqa: E402
from hypothesis import example, given, note  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import mtscore  # noqa: E402
import mtscore.nltk as ours  # noqa: E402
from mtscore import InputError, LengthMismatchError  # noqa: E402

# NLTK warns (UserWarning) on every method-0 score with a missing order; so does mtscore.nltk.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

TOLERANCE = 1e-9
VOCAB = ["a", "b", "c", "d"]
# Tokens that are not "words": a space inside, empty, only a space. Each is still one token.
ODD_VOCAB = ["a", "b", "a b", "", " "]

# (method, SmoothingFunction parameters): every method, each parameter at several values.
CONFIGS = [
    (0, {}),
    (1, {"epsilon": 0.1}),
    (1, {"epsilon": 0.01}),
    (1, {"epsilon": 0.5}),
    (2, {}),
    (3, {}),
    (4, {"k": 5}),
    (4, {"k": 1}),
    (4, {"k": 10}),
    (5, {}),
    (6, {"alpha": 5}),
    (6, {"alpha": 1}),
    (6, {"alpha": 10}),
    (7, {"k": 5}),
    (7, {"k": 1}),
    (7, {"k": 10}),
]

WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    (1 / 3, 1 / 3, 1 / 3),
    (0.1, 0.3, 0.5, 0.1),
    (0.2, 0.2, 0.2, 0.2, 0.2),
    [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2)],
]

# What NLTK raises on input it cannot score (method 6's assert, its IndexError below three
# weights, its ZeroDivisionError on an empty corpus, its KeyError with no references).
NLTK_ERRORS = (AssertionError, IndexError, ZeroDivisionError, KeyError, ValueError)

# NLTK's own docstring example.
HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
REF1A = "It is a guide to action that ensures that the military will forever heed Party commands".split()
REF1B = (
    "It is the guiding principle which guarantees the military forces always being under the command of the Party"
).split()
REF1C = "It is the practical guide for the army always to heed the directions of the party".split()
HYP_B = "he read the book because he was interested in world history".split()
REF_B = "he was interested in world history because he read the book".split()


def nltk_method(method: int, params: dict | None = None):
    return getattr(nltk_bleu.SmoothingFunction(**(params or {})), f"method{method}")


def our_method(method: int, params: dict | None = None):
    return getattr(ours.SmoothingFunction(**(params or {})), f"method{method}")


def assert_close(got, expected) -> None:
    """Bit-identical to NLTK, with NLTK's types (the int 0 where it returns one), not just close."""
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected, strict=False):
            assert_close(g, e)
        return
    assert type(got) is type(expected) and got == expected, (got, expected)


def assert_agrees(our_call, oracle_call):
    """Both calls (no arguments; ``functools.partial``) agree: where the oracle (NLTK, mostly)
    raises, ours raises InputError, else the numbers are equal. Returns the oracle's result
    (None where it raised)."""
    try:
        expected = oracle_call()
    except NLTK_ERRORS:
        with pytest.raises(InputError):
            our_call()
        return None
    assert_close(our_call(), expected)
    return expected


# --- strategies ------------------------------------------------------------------------------


def token_lists(vocab=VOCAB, max_size: int = 10, min_size: int = 0):
    return st.lists(st.sampled_from(vocab), min_size=min_size, max_size=max_size)


@st.composite
def segments(draw, vocab=VOCAB, max_refs: int = 4):
    """(references, hypothesis): 1-4 references (the first non-empty); the hypothesis is random
    (a third of the time) or a reference with a few tokens dropped and added at either end (so
    higher-order n-grams match). Empty and very short ones are included."""
    references = [draw(token_lists(vocab, min_size=1))]
    references += draw(st.lists(token_lists(vocab), max_size=max_refs - 1))
    if draw(st.integers(0, 2)) == 0:
        return references, draw(token_lists(vocab))
    base = draw(st.sampled_from(references))
    front, back = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    hypothesis = draw(token_lists(vocab, 2)) + base[front : max(front, len(base) - back)] + draw(token_lists(vocab, 2))
    return references, hypothesis


corpora = st.lists(segments(), min_size=1, max_size=4)

SHORT_EXAMPLES = [  # empty and 1-3 token hypotheses and references
    ([[]], []),
    ([["a"]], []),
    ([[]], ["a"]),
    ([["a"]], ["a"]),
    ([["a", "b"]], ["a", "b"]),
    ([["a", "b", "c"]], ["a", "b", "c"]),
    ([["a", "b", "c"], ["c"]], ["a", "b"]),
    ([["a", "b", "c", "d"], ["a"], [], ["b", "a"]], ["b", "a", "c"]),
]


def with_short_examples(test):
    for references, hypothesis in SHORT_EXAMPLES:
        test = example(segment=(references, hypothesis), weights=WEIGHTS[0], auto_reweigh=True, nltk_object=False)(test)
    return test


# --- mtscore.nltk.sentence_bleu -----------------------------------------------------------------


@fixed(max_examples=120)
@given(segment=segments(), weights=st.sampled_from(WEIGHTS), auto_reweigh=st.booleans(), nltk_object=st.booleans())
@with_short_examples
def test_sentence_bleu_matches_nltk(segment, weights, auto_reweigh, nltk_object):
    """Every method and parameter of CONFIGS on each example (drawing examples is the slow part)."""
    references, hypothesis = segment
    for method, params in CONFIGS:
        note(f"method{method} {params}")
        # NLTK's own SmoothingFunction object works as well as ours.
        smoothing = (nltk_method if nltk_object else our_method)(method, params)
        assert_agrees(
            partial(ours.sentence_bleu, references, hypothesis, weights, smoothing, auto_reweigh),
            partial(
                nltk_bleu.sentence_bleu, references, hypothesis, weights, nltk_method(method, params), auto_reweigh
            ),
        )


@fixed(max_examples=60)
@given(segment=segments(ODD_VOCAB))
def test_odd_tokens_are_single_tokens(segment):
    references, hypothesis = segment
    for method in range(8):
        note(f"method{method}")
        assert_agrees(
            partial(ours.sentence_bleu, references, hypothesis, smoothing_function=our_method(method)),
            partial(nltk_bleu.sentence_bleu, references, hypothesis, smoothing_function=nltk_method(method)),
        )


def test_token_with_a_space_is_not_split():
    weights = (0.5, 0.5)
    assert nltk_bleu.sentence_bleu([["a", "b"]], ["a b"], weights) == 0
    assert ours.sentence_bleu([["a", "b"]], ["a b"], weights) == 0
    assert ours.sentence_bleu([["a b", "", "c"]], ["a b", "", "c"], weights) == 1.0
    assert ours.sentence_bleu([["a b", "c"]], ["a", "b", "c"], weights, our_method(1)) == pytest.approx(
        nltk_bleu.sentence_bleu([["a b", "c"]], ["a", "b", "c"], weights, nltk_method(1)), abs=TOLERANCE
    )


# --- mtscore.nltk.corpus_bleu and corpus_bleu_as_nltk -------------------------------------------


@fixed(max_examples=70)
@given(corpus=corpora, weights=st.sampled_from(WEIGHTS), auto_reweigh=st.booleans())
def test_corpus_bleu_matches_nltk(corpus, weights, auto_reweigh):
    """``corpus_bleu_as_nltk`` is NLTK's corpus_bleu everywhere; the corrected ``corpus_bleu`` is
    for methods 0-4, and for methods 5-7 on a one-segment corpus."""
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    args = (list_of_references, hypotheses, weights)
    for method, params in CONFIGS:
        note(f"method{method} {params}")
        expected = assert_agrees(
            partial(ours.corpus_bleu_as_nltk, *args, our_method(method, params), auto_reweigh),
            partial(nltk_bleu.corpus_bleu, *args, nltk_method(method, params), auto_reweigh),
        )
        if method <= 4 or len(corpus) == 1:
            corrected = partial(ours.corpus_bleu, *args, our_method(method, params), auto_reweigh)
            if expected is None:
                with pytest.raises(InputError):
                    corrected()
            else:
                assert_close(corrected(), expected)


@fixed(max_examples=60)
@given(corpus=st.lists(segments(), min_size=2, max_size=4), copies=st.integers(2, 3))
def test_corrected_methods_5_to_7_use_the_corpus(corpus, copies):
    """The corrected corpus_bleu does not depend on the order of segments (NLTK's reads the last
    one); on a corpus of one segment repeated, methods 5 and 7 equal NLTK (the last segment's
    5-gram precision is the corpus's there)."""
    refs = [references for references, _ in corpus]
    hyps = [hypothesis for _, hypothesis in corpus]
    references, hypothesis = corpus[0]
    repeated = ([references] * copies, [hypothesis] * copies)
    for method in (5, 6, 7):
        note(f"method{method}")
        assert_agrees(  # the oracle here is the corpus in its own order
            partial(ours.corpus_bleu, refs[::-1], hyps[::-1], smoothing_function=our_method(method)),
            partial(ours.corpus_bleu, refs, hyps, smoothing_function=our_method(method)),
        )
        if method != 6:
            assert_agrees(
                partial(ours.corpus_bleu, *repeated, smoothing_function=our_method(method)),
                partial(nltk_bleu.corpus_bleu, *repeated, smoothing_function=nltk_method(method)),
            )


def test_nltk_method6_exceeds_one_on_a_corpus_and_ours_does_not():
    """NLTK interpolates the corpus's trigram/4-gram matches with the *last* segment's n-gram
    count: a long well-matched segment followed by a one-token one gives precisions above 1."""
    long = "the quick brown fox jumps over the lazy dog and then runs far away into the woods".split()
    list_of_references = [[long], [["yes"]]]
    hypotheses = [long, ["yes"]]
    nltk_score = nltk_bleu.corpus_bleu(list_of_references, hypotheses, smoothing_function=nltk_method(6))
    assert nltk_score > 1.0
    assert math.isclose(
        ours.corpus_bleu_as_nltk(list_of_references, hypotheses, smoothing_function=our_method(6)),
        nltk_score,
        rel_tol=0,
        abs_tol=TOLERANCE,
    )
    corrected = ours.corpus_bleu(list_of_references, hypotheses, smoothing_function=our_method(6))
    assert 0.0 < corrected <= 1.0
    # The same corpus, last segment first: NLTK's score changes, the corrected one does not.
    reversed_corpus = (list_of_references[::-1], hypotheses[::-1])
    assert not math.isclose(nltk_bleu.corpus_bleu(*reversed_corpus, smoothing_function=nltk_method(6)), nltk_score)
    assert math.isclose(
        ours.corpus_bleu(*reversed_corpus, smoothing_function=our_method(6)), corrected, rel_tol=0, abs_tol=TOLERANCE
    )


# --- NLTK's docstring examples ---------------------------------------------------------------


def starts(value: float, digits: str) -> bool:
    """NLTK's doctest ``0.5045...``: the printed value starts with these digits."""
    return str(value).startswith(digits)


def test_docstring_sentence_bleu():
    refs = [REF1A, REF1B, REF1C]
    assert starts(ours.sentence_bleu(refs, HYP1), "0.5045")
    assert round(ours.sentence_bleu(refs, HYP2), 4) == 0.0
    assert starts(ours.sentence_bleu(refs, HYP2, smoothing_function=ours.SmoothingFunction().method1), "0.0370")
    assert starts(ours.sentence_bleu(refs, HYP1, (1 / 5,) * 5), "0.3920")
    scores = ours.sentence_bleu(refs, HYP1, [(1 / 2,) * 2, (1 / 3,) * 3, (1 / 4,) * 4])
    assert [str(s)[:6] for s in scores] == ["0.7453", "0.6240", "0.5045"]


def test_docstring_corpus_bleu():
    list_of_references, hypotheses = [[REF1A, REF1B, REF1C], [REF_B]], [HYP1, HYP_B]
    for corpus_bleu in (ours.corpus_bleu, ours.corpus_bleu_as_nltk):
        assert starts(corpus_bleu(list_of_references, hypotheses), "0.5920")
        assert starts(corpus_bleu(list_of_references, hypotheses, weights=(0.1, 0.3, 0.5, 0.1)), "0.5818")
        weights = [(0.5, 0.5), (0.333, 0.333, 0.334), (0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2)]
        scores = corpus_bleu(list_of_references, hypotheses, weights=weights)
        assert [str(s)[:6] for s in scores] == ["0.8242", "0.7067", "0.5920", "0.4719"]
    average = (ours.sentence_bleu([REF1A, REF1B, REF1C], HYP1) + ours.sentence_bleu([REF_B], HYP_B)) / 2
    assert starts(average, "0.6223")


@pytest.mark.parametrize("factory", [ours.SmoothingFunction, nltk_bleu.SmoothingFunction], ids=["ours", "nltk"])
@pytest.mark.parametrize(
    ("method", "digits"),
    [
        (None, "0.4118"),
        (0, "0.4118"),
        (1, "0.4118"),
        (2, "0.4452"),
        (3, "0.4118"),
        (4, "0.4118"),
        (5, "0.4905"),
        (6, "0.4135"),
        (7, "0.4905"),
    ],
)
def test_docstring_smoothing_function(factory, method, digits):
    smoothing = None if method is None else getattr(factory(), f"method{method}")
    got = ours.sentence_bleu([REF1A], HYP1, smoothing_function=smoothing)
    assert starts(got, digits)
    nltk_smoothing = None if method is None else nltk_method(method)
    expected = nltk_bleu.sentence_bleu([REF1A], HYP1, smoothing_function=nltk_smoothing)
    assert math.isclose(got, expected, rel_tol=0, abs_tol=TOLERANCE)


# --- bad input -------------------------------------------------------------------------------


def test_str_hypothesis_is_refused():
    # NLTK would count the characters of the str and return a number.
    assert nltk_bleu.sentence_bleu([["a"]], "a") > 0
    with pytest.raises(InputError, match="str"):
        ours.sentence_bleu([["a", "b"]], "a b")
    with pytest.raises(InputError, match="str"):
        ours.corpus_bleu([[["a"]], [["b"]]], [["a"], "b"])
    with pytest.raises(InputError, match="str"):
        ours.sentence_bleu(["a b"], ["a", "b"])  # a reference given as a str


def test_mismatched_lengths():
    with pytest.raises(AssertionError):
        nltk_bleu.corpus_bleu([[["a"]]], [["a"], ["b"]])
    for corpus_bleu in (ours.corpus_bleu, ours.corpus_bleu_as_nltk):
        with pytest.raises(LengthMismatchError):
            corpus_bleu([[["a"]]], [["a"], ["b"]])
        with pytest.raises(LengthMismatchError):
            corpus_bleu([[["a"]], [["b"]]], [["a"]])


def test_empty_reference_list():
    with pytest.raises(InputError):
        ours.sentence_bleu([], ["a"])
    with pytest.raises(InputError, match="segment 1"):
        ours.corpus_bleu([[["a"]], []], [["a"], ["b"]])


def test_custom_smoothing_function_is_refused():
    with pytest.raises(InputError):
        ours.sentence_bleu([["a", "b"]], ["a", "b"], smoothing_function=lambda p_n, *args, **kwargs: p_n)

    def method1(p_n, *args, **kwargs):  # named like one, but not a SmoothingFunction's method
        return p_n

    with pytest.raises(InputError):
        ours.sentence_bleu([["a", "b"]], ["a", "b"], smoothing_function=method1)


def test_smoothing_methods_are_not_called_directly():
    with pytest.raises(TypeError):
        ours.SmoothingFunction().method1([])


def test_overridden_smoothing_method_is_refused():
    """A look-alike methodN (a subclass overriding it, or another class) is custom smoothing: it
    must not be silently replaced by the built-in method of that number."""

    class Flat(nltk_bleu.SmoothingFunction):
        def method1(self, p_n, *args, **kwargs):
            return [1.0] * len(p_n)

    class LookAlike:
        epsilon, alpha, k = 0.1, 5, 5

        def method2(self, p_n, *args, **kwargs):
            return [1.0] * len(p_n)

    refs, hyp = [list("abcdefgh")], list("abxdefgq")
    for smoothing in (Flat().method1, LookAlike().method2):
        assert nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=smoothing) == 1.0  # NLTK runs it
        with pytest.raises(InputError):
            ours.sentence_bleu(refs, hyp, smoothing_function=smoothing)


def test_method6_below_three_weights():
    """NLTK returns 0 before smoothing when no unigram matches (whatever the weights); otherwise
    method 6 needs a third order (NLTK: IndexError)."""
    assert nltk_bleu.sentence_bleu([["a", "b"]], ["c"], (0.5, 0.5), nltk_method(6)) == 0
    assert ours.sentence_bleu([["a", "b"]], ["c"], (0.5, 0.5), our_method(6)) == 0
    with pytest.raises(IndexError):
        nltk_bleu.sentence_bleu([["a", "b"]], ["a", "b"], (0.5, 0.5), nltk_method(6))
    with pytest.raises(InputError):
        ours.sentence_bleu([["a", "b"]], ["a", "b"], (0.5, 0.5), our_method(6))


def test_empty_corpus_raises():
    with pytest.raises(ZeroDivisionError):
        nltk_bleu.corpus_bleu([], [])
    for corpus_bleu in (ours.corpus_bleu, ours.corpus_bleu_as_nltk):
        with pytest.raises(InputError):
            corpus_bleu([], [])


# --- the main API with nltk-methodN ----------------------------------------------------------

PARAMETER = {1: "epsilon", 4: "k", 6: "alpha", 7: "k"}
# (method, smooth_value): each default (None) and some other values.
MAIN_CONFIGS = [
    (0, None),
    (1, None),
    (1, 0.01),
    (2, None),
    (3, None),
    (4, None),
    (4, 1.0),
    (5, None),
    (6, None),
    (6, 1.0),
    (7, None),
    (7, 10.0),
]


def nltk_function_for(method: int, value):
    params = {} if value is None or method not in PARAMETER else {PARAMETER[method]: value}
    return nltk_method(method, params), our_method(method, params)


@st.composite
def batches(draw):
    """(hypotheses, reference streams) of whitespace-joined tokens; None marks a missing reference."""
    segs = draw(st.lists(segments(max_refs=3), min_size=1, max_size=5))
    n_streams = max(len(references) for references, _ in segs)
    hyps = [" ".join(hypothesis) for _, hypothesis in segs]
    streams = [[" ".join(refs[r]) if r < len(refs) else None for refs, _ in segs] for r in range(n_streams)]
    return hyps, streams


def segment_references(streams, i):
    return [stream[i].split() for stream in streams if stream[i] is not None]


@fixed(max_examples=60)
@given(batch=batches())
def test_main_api_sentence_scores_match_nltk(batch):
    """``sentence_scores(..., smooth="nltk-methodN").scores / 100`` is NLTK's sentence_bleu per segment."""
    hyps, streams = batch
    for method, value in MAIN_CONFIGS:
        note(f"nltk-method{method} smooth_value={value}")
        nltk_function, _ = nltk_function_for(method, value)
        expected, refused = [], []
        for i, hyp in enumerate(hyps):
            try:
                expected.append(
                    nltk_bleu.sentence_bleu(
                        segment_references(streams, i), hyp.split(), smoothing_function=nltk_function
                    )
                )
            except AssertionError:  # method 6: unigram matches but no trigram match
                refused.append(i)
        options = {"tokenize": "none", "smooth": f"nltk-method{method}", "smooth_value": value}
        if refused:
            with pytest.raises(InputError, match=f"segment {refused[0]}\\b"):
                mtscore.sentence_scores(hyps, streams, **options)
            continue
        scores = np.asarray(mtscore.sentence_scores(hyps, streams, **options).scores)
        np.testing.assert_allclose(scores / 100, expected, rtol=0, atol=TOLERANCE)


@fixed(max_examples=60)
@given(batch=batches())
def test_main_api_corpus_bleu_matches_bleu_nltk(batch):
    """``corpus_bleu(..., smooth="nltk-methodN").score / 100`` is ``mtscore.nltk.corpus_bleu`` (the
    corrected one), and NLTK's corpus_bleu for methods 0-4."""
    hyps, streams = batch
    list_of_references = [segment_references(streams, i) for i in range(len(hyps))]
    hypotheses = [hyp.split() for hyp in hyps]
    for method, value in MAIN_CONFIGS:
        note(f"nltk-method{method} smooth_value={value}")
        nltk_function, our_function = nltk_function_for(method, value)
        options = {"tokenize": "none", "smooth": f"nltk-method{method}", "smooth_value": value}
        try:
            expected = ours.corpus_bleu(list_of_references, hypotheses, smoothing_function=our_function)
        except InputError:
            with pytest.raises(InputError):
                mtscore.corpus_bleu(hyps, streams, **options)
            continue
        score = mtscore.corpus_bleu(hyps, streams, **options).score
        assert math.isclose(score / 100, expected, rel_tol=0, abs_tol=TOLERANCE)
        if method <= 4:
            assert math.isclose(
                expected,
                nltk_bleu.corpus_bleu(list_of_references, hypotheses, smoothing_function=nltk_function),
                rel_tol=0,
                abs_tol=TOLERANCE,
            )


@pytest.mark.parametrize(
    ("smooth", "value", "label"),
    [
        ("nltk-method1", None, "|smooth:nltk-method1[0.10]|"),
        ("nltk-method1", 0.5, "|smooth:nltk-method1[0.50]|"),
        ("nltk-method4", None, "|smooth:nltk-method4[5.00]|"),
        ("nltk-method6", None, "|smooth:nltk-method6[5.00]|"),
        ("nltk-method7", 10, "|smooth:nltk-method7[10.00]|"),
        ("nltk-method3", None, "|smooth:nltk-method3|"),
        ("nltk-method0", None, "|smooth:nltk-method0|"),
    ],
)
def test_main_api_signature(smooth, value, label):
    hyps, refs = ["a b c d"], [["a b c d"]]
    for result in (
        mtscore.corpus_bleu(hyps, refs, tokenize="none", smooth=smooth, smooth_value=value),
        mtscore.sentence_scores(hyps, refs, tokenize="none", smooth=smooth, smooth_value=value),
    ):
        signature = str(result.signature)
        assert label in signature and "eff:no" in signature


@pytest.mark.parametrize("method", range(8))
def test_main_api_refuses_effective_order(method):
    with pytest.raises(InputError):
        mtscore.sentence_scores(
            ["a b"], [["a b"]], tokenize="none", smooth=f"nltk-method{method}", effective_order=True
        )
    with pytest.raises(InputError):
        mtscore.corpus_bleu(["a b"], [["a b"]], tokenize="none", smooth=f"nltk-method{method}", effective_order=True)


def test_main_api_method6_needs_three_orders():
    with pytest.raises(InputError):
        mtscore.corpus_bleu(["a b c"], [["a b c"]], tokenize="none", smooth="nltk-method6", max_order=2)
    with pytest.raises(InputError):
        mtscore.sentence_scores(["a b c"], [["a b c"]], tokenize="none", smooth="nltk-method6", max_order=2)


def test_main_api_method6_names_the_refused_segment():
    hyps = ["a b c d", "x y", "a b x", "a b c"]  # segment 1: no match at all (score 0); 2: no trigram match
    refs = [["a b c d", "z", "a b c", "a b c"]]
    with pytest.raises(AssertionError):
        nltk_bleu.sentence_bleu([["a", "b", "c"]], ["a", "b", "x"], smoothing_function=nltk_method(6))
    with pytest.raises(InputError, match=r"segment 2\b"):
        mtscore.sentence_scores(hyps, refs, tokenize="none", smooth="nltk-method6")
    scores = mtscore.sentence_scores(
        [hyps[i] for i in (0, 1, 3)], [[refs[0][i] for i in (0, 1, 3)]], tokenize="none", smooth="nltk-method6"
    ).scores
    assert scores[1] == 0 and scores[0] == pytest.approx(100) and scores[2] == pytest.approx(100)


@fixed(max_examples=150)
@given(segment=segments(), n=st.integers(1, 6), hyp_len=st.integers(0, 12), ref_len=st.integers(0, 12))
def test_modified_precision_closest_ref_length_and_brevity_penalty_are_nltks(segment, n, hyp_len, ref_len):
    """NLTK's building blocks: the same values and types, the fraction's counts unreduced."""
    references, hypothesis = segment
    got, expected = (
        ours.modified_precision(references, hypothesis, n),
        nltk_bleu.modified_precision(references, hypothesis, n),
    )
    assert (got.numerator, got.denominator) == (expected.numerator, expected.denominator)  # unreduced, as NLTK's
    assert isinstance(got, Fraction) and got == Fraction(expected.numerator, expected.denominator)
    assert float(got) == float(expected)
    if references:
        assert ours.closest_ref_length(references, hyp_len) == nltk_bleu.closest_ref_length(references, hyp_len)
    got_bp, expected_bp = ours.brevity_penalty(ref_len, hyp_len), nltk_bleu.brevity_penalty(ref_len, hyp_len)
    assert type(got_bp) is type(expected_bp) and got_bp == expected_bp


def test_modified_precision_of_papers_example_keeps_its_counts():
    """The paper's 'the the the ...' example: 2/7, kept as 2 over 7 for corpus sums."""
    precision = ours.modified_precision([["the", "cat", "is", "on", "the", "mat"]], ["the"] * 7, 1)
    assert (precision.numerator, precision.denominator) == (2, 7) and precision == Fraction(2, 7)
    with pytest.raises(InputError, match="n must be a positive integer"):
        ours.modified_precision([["a"]], ["a"], 0)
