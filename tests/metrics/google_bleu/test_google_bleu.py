"""Google-BLEU equals NLTK 3.10's ``corpus_gleu``/``sentence_gleu`` (on sacrebleu's tokens) and Hugging
Face evaluate's ``google_bleu`` (= NLTK's ``corpus_gleu`` on its copy of sacrebleu's 13a tokens):
every segment's [n_match, n_all] as NLTK chooses it, exactly; scores (x100) to 1e-9. Generated
text with tiny vocabularies makes repeated tokens, ties between references, empty and short lines
common. Also: the defined 0 for no n-grams, input errors, the statistics seam and the alias."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gleu_oracle import TOLERANCE, check_against_nltk, evaluate_tokens, nltk_gleu
from helpers import corpora as shared_corpora
from helpers import fixed
from hypothesis import example, given
from hypothesis import strategies as st

import mtscore
from mtscore.core.signature import TOOL_VERSION
from mtscore.core.stats import Statistics
from mtscore.errors import InputError, LengthMismatchError
from mtscore.metrics import ALIASES, BUILTIN, METRICS, canonical, metric_class, metric_options, metric_title
from mtscore.metrics.google_bleu import (
    GoogleBLEU,
    GoogleBLEUScore,
    corpus_google_bleu,
    sentence_google_bleu,
    sentence_google_bleus,
)

# The evaluate metric card's examples (its printed values, rounded to 2 decimals).
EVALUATE_HYPOTHESES = [
    "It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat",
    "he read the book because he was interested in world history",
]
EVALUATE_REFERENCES = [
    [
        "It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat",
        "It is a guide to action that ensures that the rubber duck will never heed the cat commands",
        "It is the practical guide for the rubber duck army never to heed the directions of the cat",
    ],
    ["he was interested in world history because he read the book"],
]


def evaluate_streams(references: list[list[str]]) -> list[list[str | None]]:
    """evaluate's per-prediction reference lists as reference streams (``None`` where a list is shorter)."""
    width = max(map(len, references))
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]


@pytest.mark.parametrize("options, printed", [({}, 0.61), ({"min_len": 2}, 0.53), ({"min_len": 2, "max_len": 6}, 0.4)])
def test_evaluate_examples(options, printed):
    """evaluate's ``google_bleu.compute(predictions, references, **options)`` is NLTK's corpus_gleu on
    evaluate's 13a tokens: ours is that value x 100 (its ``ratio`` is that value)."""
    theirs, _ = nltk_gleu(
        EVALUATE_HYPOTHESES, evaluate_streams(EVALUATE_REFERENCES), tokenizer=evaluate_tokens, **options
    )
    ours = corpus_google_bleu(EVALUATE_HYPOTHESES, evaluate_streams(EVALUATE_REFERENCES), **options)
    assert ours.ratio == theirs and round(ours.ratio, 2) == printed
    assert math.isclose(ours.score, 100 * theirs, rel_tol=0, abs_tol=TOLERANCE)


def test_evaluate_single_reference_example():
    ours = corpus_google_bleu(["the cat sat on the mat"], [["the cat ate the mat"]])
    assert ours.ratio == 0.3333333333333333 and (ours.n_match, ours.n_all) == (6, 18)


def test_nltk_docstring_examples():
    """NLTK's own examples ("the the the ..." and the military guide) on whitespace tokens."""
    check_against_nltk(
        ["the the the the the the the"], [["The cat is on the mat"], ["There is a cat on the mat"]], tokenize="none"
    )
    hyps = [
        "It is a guide to action which ensures that the military always obeys the commands of the party",
        "he read the book because he was interested in world history",
    ]
    refs = [
        [
            "It is a guide to action that ensures that the military will forever heed Party commands",
            "he was interested in world history because he read the book",
        ],
        [
            "It is the guiding principle which guarantees the military forces always being under the command of the "
            "Party",
            None,
        ],
        ["It is the practical guide for the army always to heed the directions of the party", None],
    ]
    check_against_nltk(hyps, refs, tokenize="none")


def test_first_of_equal_ratios_wins():
    """(2, 6) and (1, 3) tie: NLTK's ``max`` keeps the first; the choice shows in the corpus ratio."""
    hyps, first, second = ["a b", "x"], ["b c a", "x"], ["a", "x"]
    assert GoogleBLEU([first, second]).segment_statistics(hyps).tolist() == [[2, 6], [1, 1]]
    assert GoogleBLEU([second, first]).segment_statistics(hyps).tolist() == [[1, 3], [1, 1]]
    check_against_nltk(hyps, [first, second], tokenize="none")
    check_against_nltk(hyps, [second, first], tokenize="none")


def test_no_ngrams_is_nltks_zero():
    """No n-grams anywhere: NLTK's defined 0.0, never NaN; an empty hypothesis against a reference
    with n-grams counts the reference's n-grams as n_all."""
    for hyps, refs in [([""], [[""]]), (["", ""], [["", " "]]), (["a"], [["b"]])]:
        assert corpus_google_bleu(hyps, refs).score == 0.0
        check_against_nltk(hyps, refs)
    assert GoogleBLEU([["a b", ""]]).segment_statistics(["", ""]).tolist() == [[0, 3], [0, 0]]
    assert sentence_google_bleu("", [""]).score == 0.0
    assert sentence_google_bleus(["", "a"], [["", ""]]).tolist() == [0.0, 0.0]
    # min_len above every length: no n-grams, 0
    assert corpus_google_bleu(["a b c"], [["a b c"]], min_len=4, max_len=5).to_dict()["n_all"] == 0
    check_against_nltk(["a b c", "a b c d"], [["a b c", "a b c d e"]], min_len=4, max_len=5)


def test_orders_beyond_the_longest_reference():
    """max_len far above every length: only real n-grams count (hypotheses longer than the references too)."""
    check_against_nltk(["a b a b a b a b", "a"], [["a b a", "a a"]], max_len=50, tokenize="none")
    check_against_nltk(["a b a b a b a b", "a"], [["a b a", "a a"]], min_len=3, max_len=1000, tokenize="none")


# Tiny vocabularies: n-grams repeat and match often; odd spacing, case and punctuation for the tokenizers.
WORDS = st.sampled_from(["a", "b", "A", "a.", "b,", "(a)", "c-d", "1.5", "&amp;", "é", "É", "ß", "中", "文"])
SPACES = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def lines(draw, max_words=8):
    words = draw(st.lists(WORDS, max_size=max_words))
    text = "".join(word + draw(SPACES) for word in words)
    return draw(st.sampled_from(["", " "])) + text if text else draw(st.sampled_from(["", " ", "\t"]))


def corpora():
    """Hypotheses and 1-3 reference streams, some references missing (never all of a segment's)."""
    return shared_corpora(lines(), max_segments=6)


@st.composite
def orders(draw):
    min_len = draw(st.integers(1, 4))
    return {"min_len": min_len, "max_len": draw(st.integers(min_len, 6))}


@fixed(max_examples=300)
@given(corpora(), orders(), st.sampled_from(["13a", "none", "intl", "char", "zh"]), st.booleans())
@example((["a b", "x"], [["b c a", "x"], ["a", "x"]]), {"min_len": 1, "max_len": 4}, "none", False)
@example(([""], [[""]]), {"min_len": 1, "max_len": 4}, "13a", False)
@example((["a a a a", "a"], [["a a", None], ["a a a a a", "a"]]), {"min_len": 2, "max_len": 3}, "none", False)
def test_generated_text_equals_nltk(corpus, lengths, tokenize, lowercase):
    hyps, streams = corpus
    check_against_nltk(hyps, streams, tokenize=tokenize, lowercase=lowercase, **lengths)


@fixed(max_examples=100)
@given(corpora(), orders())
def test_generated_text_equals_evaluate(corpus, lengths):
    """evaluate's google_bleu: NLTK corpus_gleu on its 13a copy's tokens, no lowercasing."""
    hyps, streams = corpus
    theirs, _ = nltk_gleu(hyps, streams, tokenizer=evaluate_tokens, **lengths)
    ours = corpus_google_bleu(hyps, streams, **lengths)
    assert ours.ratio == theirs


def test_sentence_score_is_nltk_sentence_gleu():
    from nltk.translate.gleu_score import sentence_gleu

    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    hyp = "The the cat is on a mat."
    ours = sentence_google_bleu(hyp, refs)
    theirs = sentence_gleu(
        [line.split() for line in ["The cat is on the mat .", "There is a cat on the mat ."]],
        "The the cat is on a mat .".split(),
    )
    assert ours.ratio == theirs and isinstance(ours, GoogleBLEUScore)
    assert sentence_google_bleu(hyp, [refs[0], None]).ratio == sentence_google_bleu(hyp, [refs[0]]).ratio


def test_result_fields_signature_and_text():
    metric = GoogleBLEU([["the cat sat on the mat"], ["a cat sat"]], lowercase=True, tokenize="intl", max_len=3)
    result = metric.corpus_score(["The cat sat on a mat"])
    assert result.name == "Google-BLEU" and (result.min_len, result.max_len) == (1, 3)
    assert result.to_dict() == {
        "name": "Google-BLEU",
        "score": result.score,
        "n_match": result.n_match,
        "n_all": result.n_all,
        "min_len": 1,
        "max_len": 3,
    }
    assert str(result.signature) == f"nrefs:2|case:lc|tok:intl|ngram:1-3|version:{TOOL_VERSION}"
    assert result.signature.format(short=True).startswith("#:2|c:lc|tok:intl|n:1-3|v:")
    assert str(result) == f"Google-BLEU = {result.score:.2f} n_match/n_all = {result.n_match}/{result.n_all}"


def test_statistics_merge_stream_and_resample():
    """The statistics seam: shards add up to the whole, float32 sums score like int sums, no NaN."""
    hyps = ["the cat sat", "", "a dog", "the the the"]
    refs = [["the cat sat down", "", "a dog barks", "the"]]
    metric = GoogleBLEU(refs)
    statistics = metric.statistics(hyps)
    assert isinstance(statistics, Statistics)
    merged = metric.statistics(hyps[:2], [refs[0][:2]]) + metric.statistics(hyps[2:], [refs[0][2:]])
    assert merged == statistics
    total = statistics.matrix.sum(axis=0, keepdims=True)
    assert metric.scores_of_sums(total)[0] == metric.score_statistics(statistics).score
    assert metric.scores_of_sums(total.astype(np.float32))[0] == metric.scores_of_sums(total)[0]
    assert metric.scores_of_sums(np.zeros((3, 2))).tolist() == [0.0, 0.0, 0.0]
    assert metric.score_statistics(statistics, nrefs=3).signature.info["nrefs"] == "3"
    with pytest.raises(InputError, match=r"\(segments, 2\)"):
        metric.score_statistics(np.zeros((2, 3)))


def test_several_systems_at_once_equal_one_at_a_time():
    refs = [["the cat sat on the mat", "a b c", ""], ["a cat sat", None, "x"]]
    systems = [["the cat sat", "a b", ""], ["a cat sat on the mat", "c b a", "x x"], ["", "", ""]]
    metric = GoogleBLEU(refs, max_len=3)
    together = metric.systems_statistics(systems)
    for hyps, statistics in zip(systems, together, strict=True):
        assert statistics.tolist() == metric.segment_statistics(hyps).tolist()
        check_against_nltk(hyps, refs, max_len=3)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"min_len": 0}, "min_len must be an integer >= 1"),
        ({"max_len": 0}, "max_len must be an integer >= 1"),
        ({"min_len": 1.5}, "min_len must be an integer"),
        ({"max_len": True}, "max_len must be an integer"),
        ({"min_len": 3, "max_len": 2}, "max_len (2) is below min_len (3)"),
        ({"tokenize": "moses"}, "unknown tokenizer 'moses'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InputError) as error:
        GoogleBLEU(**options)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "hyps, refs, error, message",
    [
        ("a b", [["a b"]], InputError, "got a single str"),
        ([], [[]], InputError, "no hypotheses to score"),
        (["a", 3], [["a", "b"]], InputError, "hypothesis 1 is int"),
        (["a"], ["a"], InputError, "for one reference per segment pass [references]"),
        (["a"], [], InputError, "no references given"),
        (["a", "b"], [["a"]], LengthMismatchError, "2 hypotheses but reference stream 1 has 1 segment"),
        (["a"], [[None], [None]], InputError, "segment 0 has no reference"),
    ],
)
def test_bad_input_has_the_shared_messages(hyps, refs, error, message):
    with pytest.raises(error) as raised:
        corpus_google_bleu(hyps, refs)
    assert message in str(raised.value)


def test_prepared_references_check_the_segment_count():
    with pytest.raises(LengthMismatchError, match="prepared references have 1 segment"):
        GoogleBLEU([["a"]]).corpus_score(["a", "b"])
    with pytest.raises(InputError, match="no references"):
        GoogleBLEU().corpus_score(["a"])


def test_registered_under_its_name_and_alias():
    assert BUILTIN["google_bleu"] == "GoogleBLEU" and ALIASES == {"gleu": "google_bleu"}
    assert METRICS["google_bleu"] == "mtscore.metrics.google_bleu:GoogleBLEU"
    assert metric_class("google_bleu") is GoogleBLEU and metric_class("gleu") is GoogleBLEU
    assert metric_options("gleu") == metric_options("google_bleu") == GoogleBLEU.options
    assert metric_title("gleu") == "Google-BLEU"
    assert canonical("gleu") == "google_bleu" and canonical("bleu") == "bleu"
    assert mtscore.GoogleBLEU is GoogleBLEU and mtscore.corpus_google_bleu is corpus_google_bleu


def test_paired_test_takes_the_alias():
    refs = [["the cat sat on the mat", "a b c d", "x y"]]
    systems = {"base": ["the cat sat", "a b c", "x"], "other": ["the cat sat on the mat", "a b", "x y"]}
    result = mtscore.paired_test(systems, refs, metrics=["gleu", "bleu"], n_samples=50)
    assert result.metrics == ["Google-BLEU", "BLEU"]
    scores = [r.score for r in result.results["Google-BLEU"]]
    expected = [corpus_google_bleu(hyps, refs).score for hyps in systems.values()]
    assert scores == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.parametrize("largest", [50, 1 << 40, 1 << 62])
def test_reference_ngrams_numbered_as_np_unique(largest):
    """References' n-gram keys are numbered by a packed sort, or by ``np.unique`` when a key and
    its index do not fit in 63 bits: the same numbers either way."""
    from mtscore.engine.backend import unique_inverse as numbered  # what the references are numbered with

    rng = np.random.default_rng(0)
    for size in (0, 1, 2, 1000):
        key = rng.integers(0, largest, size) if size < 1000 else rng.integers(0, 7, size) * (largest // 7)
        keys, number = numbered(key)
        expected_keys, expected_number = np.unique(key, return_inverse=True)
        np.testing.assert_array_equal(keys, expected_keys)
        np.testing.assert_array_equal(number, expected_number)


@given(st.lists(st.tuples(*[st.text("ab c", max_size=12)] * 3), min_size=1, max_size=6), st.integers(1, 3))
def test_references_scored_again_count_as_the_first_time(segments, min_len):
    """The first scoring by one system sorts references with its hypotheses; later ones, and several
    systems at once, look their n-grams up in a table: the same statistics."""
    from mtscore.metrics.google_bleu.references import PreparedReferences

    hyps, ref_a, ref_b = (list(column) for column in zip(*segments, strict=True))
    metric = mtscore.GoogleBLEU(min_len=min_len, max_len=4)
    present = np.ones((2, len(hyps)), dtype=bool)

    def fresh() -> PreparedReferences:  # never the references kept from an earlier call
        return PreparedReferences(metric.keys(ref_a + ref_b), present, min_len, 4)

    prepared = fresh()
    first = prepared.statistics_of(metric.keys(hyps), 1)[0]
    again = prepared.statistics_of(metric.keys(hyps), 1)[0]
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(
        first, np.asarray(mtscore.GoogleBLEU([ref_a, ref_b], min_len=min_len).segment_statistics(hyps))
    )
    other = hyps[::-1]
    together = fresh().statistics_of(metric.keys(hyps + other), 2)
    np.testing.assert_array_equal(together[0], first)
    np.testing.assert_array_equal(together[1], fresh().statistics_of(metric.keys(other), 1)[0])


def test_references_prepared_last_are_kept_for_the_same_lines_and_options():
    """Systems scored one call at a time share one preparation of the same reference lines;
    a changed line, other options or other streams are prepared again, and scores never change."""
    from mtscore.metrics.google_bleu import references

    refs = [["the cat sat on the mat", "a b c"], ["a cat sat", None]]
    metric = GoogleBLEU()
    first = metric.prepare(refs, 2)
    assert metric.prepare([list(stream) for stream in refs], 2) is first
    assert GoogleBLEU(max_len=3).prepare(refs, 2) is not first
    changed = [["the cat sat on the mat", "a b d"], refs[1]]
    assert metric.prepare(changed, 2) is not first
    hyps = ["the cat", "a b c"]
    for streams in (changed, refs, [refs[0]], changed):
        for _ in range(2):  # prepared, then kept
            assert corpus_google_bleu(hyps, streams).ratio == nltk_gleu(hyps, streams)[0]
    with pytest.raises(LengthMismatchError, match="3 hypotheses but reference stream 1 has 2 segments"):
        corpus_google_bleu(["a", "b", "c"], changed)
    large = [["a"] * (references._KEPT_LINES + 1)]
    assert metric.prepare(large) is not metric.prepare(large)


def test_kept_references_are_not_used_by_a_tokenizer_registered_again(monkeypatch):
    """A tokenizer name registered again is another tokenizer: references kept from the old one are
    prepared again, not scored against hypotheses split the new way."""
    from mtscore import tokenizers

    class Split:
        name = "test-split"

        def __init__(self, characters: bool):
            self.characters = characters

        def __call__(self, line: str) -> str:
            return " ".join(line.replace(" ", "")) if self.characters else line

        def batch(self, lines: list[str]) -> list[str]:
            return [self(line) for line in lines]

    monkeypatch.setattr(tokenizers, "_REGISTRY", dict(tokenizers._REGISTRY))
    monkeypatch.setattr(tokenizers, "_CACHE", dict(tokenizers._CACHE))
    hyps, refs = ["ab cd", "ab"], [["ab cd", "ab x"]]
    for characters in (False, True):
        tokenizers.register("test-split", lambda characters=characters: Split(characters))
        expected = nltk_gleu(hyps, refs, tokenizer=lambda line, c=characters: Split(c)(line).split())[0]
        assert corpus_google_bleu(hyps, refs, tokenize="test-split").ratio == expected


@st.composite
def systems_sharing_lines(draw):
    """A corpus (as ``corpora``) and 2-4 more systems whose lines are often another system's line at
    the same segment, sometimes one from another segment."""
    hyps, streams = draw(corpora())
    systems = [hyps]
    for _ in range(draw(st.integers(2, 4))):
        system = []
        for i in range(len(hyps)):
            kind = draw(st.sampled_from(["same", "same", "other segment", "new"]))
            if kind == "same":
                system.append(draw(st.sampled_from(systems))[i])
            elif kind == "other segment":
                system.append(draw(st.sampled_from(draw(st.sampled_from(systems)))))
            else:
                system.append(draw(lines()))
        systems.append(system)
    return systems, streams


@fixed(max_examples=150)
@given(systems_sharing_lines(), orders(), st.sampled_from([1 << 17, 0, 3]))
@example(([["a", ""], ["a", "a b"], ["", "a b"]], [["a b", None], ["a", "a b"]]), {"min_len": 1, "max_len": 4}, 1 << 17)
def test_systems_scored_one_at_a_time_reuse_lines_seen_before(data, lengths, kept):
    """Against references prepared once, a line another system had at the same segment is not
    counted again (its matches are kept, up to ``engine.seen.SEEN_LINES`` lines; 0 and 3 here keep none or
    a few): every system's statistics equal NLTK's choices, and the same line at another
    segment is counted against that segment's references."""
    from mtscore.engine import seen
    from mtscore.metrics.google_bleu import metric as metric_module
    from mtscore.metrics.google_bleu import references

    systems, streams = data
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seen, "SEEN_LINES", kept)
        # A fresh one-slot cache where the metric reads it: an earlier example's references, with
        # the rows they kept under a larger SEEN_LINES, are not this example's.
        patch.setattr(metric_module, "LAST_PREPARED", references.LastPrepared())
        metric = GoogleBLEU(streams, **lengths)
        for hyps in [*systems, *systems[::-1]]:  # the second round: every line seen before
            score, chosen = nltk_gleu(hyps, streams, **lengths)
            statistics = np.asarray(metric.segment_statistics(hyps))
            counted = statistics[:, 1] > 0  # NLTK skips (and records nothing for) the others
            assert not statistics[~counted].any()
            np.testing.assert_array_equal(statistics[counted], chosen)
            assert metric.corpus_score(hyps).ratio == score
            assert corpus_google_bleu(hyps, streams, **lengths).ratio == score  # the kept references
        assert len(metric._references.seen) <= kept


def test_prepared_references_pickle_without_the_lines_they_kept():
    """A metric sent to a worker (pickled) leaves the lines kept from scoring behind, and scores the same."""
    import pickle

    refs = [["the cat sat on the mat", "a b c"], ["a cat sat", None]]
    metric = GoogleBLEU(refs)
    for hyps in (["the cat", "a b c"], ["the cat", "a b"], ["the cat", "a b"]):
        metric.corpus_score(hyps)
    assert len(metric._references.seen)
    copy = pickle.loads(pickle.dumps(metric))
    assert not len(copy._references.seen) and copy._references._first is None
    for hyps in (["the cat", "a b"], ["a cat", "a b c"]):
        assert copy.corpus_score(hyps) == metric.corpus_score(hyps)


def test_threads_sharing_a_metric_keep_consistent_lines():
    """Systems scored from several threads against one metric: each gets a fresh metric's statistics."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    words = np.array(["a", "b", "c", "d"])
    refs = [[" ".join(rng.choice(words, 6)) for _ in range(40)] for _ in range(2)]
    pool = [[" ".join(rng.choice(words, rng.integers(0, 7))) for _ in range(40)] for _ in range(3)]
    systems = [[pool[rng.integers(3)][i] for i in range(40)] for _ in range(24)]
    from mtscore.metrics.google_bleu import metric as metric_module
    from mtscore.metrics.google_bleu import references

    def fresh() -> GoogleBLEU:  # references of its own, never those kept from another call
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metric_module, "LAST_PREPARED", references.LastPrepared())
            return GoogleBLEU(refs)

    metric = fresh()
    with ThreadPoolExecutor(4) as threads:
        statistics = list(threads.map(lambda hyps: np.asarray(metric.segment_statistics(hyps)), systems))
    for hyps, ours in zip(systems, statistics, strict=True):
        np.testing.assert_array_equal(ours, np.asarray(fresh().segment_statistics(hyps)))
