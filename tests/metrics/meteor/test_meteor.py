"""METEOR equals NLTK 3.10.4's ``meteor_score`` (on whitespace-split words, WordNet 3.0 read by
NLTK from the same files): sentence scores to 1e-9 and, for the reference NLTK picks, its matched
words and chunks exactly; on WMT22 *-en systems with one and two references and on generated text
built to stress the alignment (repeated words, inflections, synonyms, case, empty sentences)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.meteor_score import _count_chunks, align_words, single_meteor_score
from shared_data import read_lines, references, system_output

from mtscore import tokenizers
from mtscore.errors import InputError
from mtscore.metrics import metric_class
from mtscore.metrics.meteor import METEOR, METEORScore, corpus_meteor, sentence_meteor, sentence_meteors
from mtscore.metrics.meteor import align as align_module
from mtscore.metrics.meteor import metric as metric_module
from mtscore.metrics.meteor.metric import COLUMNS

TOLERANCE = 1e-9
SEGMENTS = 200  # per system: NLTK scores one segment at a time


class NoSynonyms:
    """A WordNet for NLTK that knows no word: its METEOR without the synonym stage."""

    def synsets(self, word):
        return []


def nltk_meteor(hypothesis: list[str], refs: list[list[str]], **options) -> list[float]:
    """[score, 1, matches, chunks, hyp_len, ref_len] of NLTK's best reference (the first of ties)."""
    rows = []
    for ref in refs:
        score = single_meteor_score(ref, hypothesis, **options)
        aligned = {key: options[key] for key in ("wordnet",) if key in options}
        matches = align_words(hypothesis, ref, **aligned)[0]
        rows.append([score, 1, len(matches), _count_chunks(matches) if matches else 0, len(hypothesis), len(ref)])
    return max(rows, key=lambda row: row[0])


def same_statistics(ours: np.ndarray, theirs: list[list[float]]) -> None:
    theirs_array = np.array(theirs, dtype=np.float64)
    assert np.abs(ours[:, 0] - theirs_array[:, 0]).max() <= TOLERANCE
    assert (ours[:, 1:] == theirs_array[:, 1:]).all()


WMT22 = [
    ("de-en", ("Online-B", "PROMT", "JDExploreAcademy"), ("A",)),
    ("de-en", ("Online-A", "LT22"), ("A", "B")),
    ("zh-en", ("Online-A", "HuaweiTSC"), ("A", "B")),
    ("cs-en", ("Online-W", "CUNI-Transformer"), ("B", "C")),
    ("ja-en", ("Online-Y", "NT5"), ("A",)),
    ("uk-en", ("Online-G",), ("A",)),
]


@pytest.mark.parametrize(
    "pair, systems, names", WMT22, ids=lambda value: "+".join(value) if isinstance(value, tuple) else value
)
def test_wmt22_equals_nltk(nltk_wordnet, pair, systems, names):
    refs = [read_lines(references(pair, name)[0])[:SEGMENTS] for name in names]
    metric = METEOR(refs)
    for system in systems:
        hypotheses = read_lines(system_output(pair, system))[:SEGMENTS]
        ours = metric.segment_statistics(hypotheses)
        theirs = [
            nltk_meteor(hypothesis.split(), [ref[i].split() for ref in refs], wordnet=nltk_wordnet)
            for i, hypothesis in enumerate(hypotheses)
        ]
        same_statistics(ours, theirs)
        corpus = metric.corpus_score(hypotheses)
        assert math.isclose(corpus.score, 100 * np.mean([row[0] for row in theirs]), abs_tol=1e-7)
        assert corpus.matches == sum(row[2] for row in theirs) and corpus.chunks == sum(row[3] for row in theirs)


WORDS = (
    "the The THE a an of to be is are was were been being run runs ran running runner good better best well "
    "goodness dog dogs Dog hound car cars auto automobile machine big large great huge bad badly sky skies "
    "happy happily happiness go goes went gone going leave left depart sad gloomy , . ! ? 's n't "
    "city cities town geese goose mice mouse fly flies flying tries tried try ie yyy ies"
).split()
sentences = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)


@fixed(max_examples=300)
@given(hypothesis=sentences, refs=st.lists(sentences, min_size=1, max_size=3))
def test_generated_text_equals_nltk(nltk_wordnet, hypothesis, refs):
    ours = METEOR().segment_statistics([hypothesis], [[ref] for ref in refs])
    same_statistics(ours, [nltk_meteor(hypothesis.split(), [ref.split() for ref in refs], wordnet=nltk_wordnet)])


@fixed(max_examples=150)
@given(hypothesis=sentences, refs=st.lists(sentences, min_size=1, max_size=2))
def test_without_synonyms_equals_nltk_without_wordnet(hypothesis, refs):
    ours = METEOR(no_synonyms=True).segment_statistics([hypothesis], [[ref] for ref in refs])
    same_statistics(ours, [nltk_meteor(hypothesis.split(), [ref.split() for ref in refs], wordnet=NoSynonyms())])


@pytest.mark.parametrize("alpha, beta, gamma", [(0.5, 1.0, 0.2), (1.0, 0.0, 1.0), (0.0, 2.5, 0.0)])
def test_parameters_equal_nltk(nltk_wordnet, alpha, beta, gamma):
    refs = read_lines(references("de-en", "A")[0])[:60]
    hypotheses = read_lines(system_output("de-en", "Online-B"))[:60]
    ours = METEOR([refs], alpha=alpha, beta=beta, gamma=gamma).segment_statistics(hypotheses)
    theirs = [
        nltk_meteor(h.split(), [r.split()], wordnet=nltk_wordnet, alpha=alpha, beta=beta, gamma=gamma)
        for h, r in zip(hypotheses, refs, strict=True)
    ]
    same_statistics(ours, theirs)


def test_a_tokenizer_before_splitting(nltk_wordnet):
    refs = read_lines(references("zh-en", "A")[0])[:60]
    hypotheses = read_lines(system_output("zh-en", "Online-A"))[:60]
    tokenize = tokenizers.get("13a")
    ours = METEOR([refs], tokenize="13a").segment_statistics(hypotheses)
    theirs = [
        nltk_meteor(tokenize(h).split(), [tokenize(r).split()], wordnet=nltk_wordnet)
        for h, r in zip(hypotheses, refs, strict=True)
    ]
    same_statistics(ours, theirs)
    assert METEOR(tokenize="13a").signature().info["tok"] == "13a"


def test_missing_references_use_the_others(nltk_wordnet):
    hypotheses = ["the dog runs", "a big car", "happy city"]
    refs = [["the hound ran", None, "a gloomy town"], [None, "the large auto", "happy cities"]]
    ours = METEOR(refs).segment_statistics(hypotheses)
    theirs = [
        nltk_meteor(h.split(), [stream[i].split() for stream in refs if stream[i] is not None], wordnet=nltk_wordnet)
        for i, h in enumerate(hypotheses)
    ]
    same_statistics(ours, theirs)
    assert METEOR(refs).signature().info["nrefs"] == "var"


def test_nltk_documentation_example(nltk_wordnet):
    hypothesis = "It is a guide to action which ensures that the military always obeys the commands of the party"
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party",
    ]
    assert round(sentence_meteor(hypothesis, refs).score / 100, 4) == 0.6944
    assert sentence_meteor("non matching hypothesis", ["this is a cat"]).score == 0


def test_results_functions_and_registry(wordnet):
    hypotheses, refs = ["the cat sat on a mat", "dogs run"], [["the cat sat on the mat", "a dog runs"]]
    result = corpus_meteor(hypotheses, refs)
    assert isinstance(result, METEORScore) and metric_class("meteor") is METEOR
    scores = sentence_meteors(hypotheses, refs)
    assert math.isclose(result.score, scores.mean(), abs_tol=1e-12)
    assert result.to_dict() == {
        "name": "METEOR",
        "score": result.score,
        "matches": 7,
        "chunks": 4,
        "hyp_len": 8,
        "ref_len": 9,
    }
    assert str(result.signature) == str(METEOR(refs).signature())
    assert str(result).startswith("METEOR = ")


def test_statistics_merge_and_resample(wordnet):
    metric = METEOR([["the cat sat on the mat", "a dog runs", "so it goes"]])
    hypotheses = ["the cat sat on a mat", "dogs run", "nothing"]
    statistics = metric.statistics(hypotheses)
    merged = statistics[:1] + statistics[1:]
    assert metric.score_statistics(merged).score == metric.corpus_score(hypotheses).score
    assert statistics.matrix.shape == (3, len(COLUMNS))
    float32 = metric.scores_of_sums(statistics.matrix.sum(axis=0, keepdims=True).astype(np.float32))
    assert float32.dtype == np.float32 and math.isclose(
        float(float32[0]), metric.corpus_score(hypotheses).score, rel_tol=1e-6
    )
    assert metric.scores_of_sums(np.zeros(len(COLUMNS)))[()] == 0


def test_missing_wordnet_fails_unless_synonyms_are_left_out(no_wordnet):
    with pytest.raises(InputError, match="apt-get install wordnet-base"):
        METEOR()
    with pytest.raises(InputError, match="not found in"):
        METEOR(wordnet=str(no_wordnet))
    metric = METEOR([["the dogs run"]], no_synonyms=True)
    assert metric.corpus_score(["the dog ran"]).matches == 2
    assert metric.signature().info["syn"] == "no"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"alpha": 1.5}, "alpha must be a number from 0 to 1"),
        ({"beta": -1}, "beta must be a number >= 0"),
        ({"gamma": float("nan")}, "gamma must be"),
        ({"alpha": True}, "alpha must be"),
        ({"tokenize": "nope"}, "unknown tokenizer"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InputError, match=message):
        METEOR(no_synonyms=True, **options)


def test_bad_statistics(wordnet):
    with pytest.raises(InputError, match="METEOR statistics must be"):
        METEOR().score_statistics(np.zeros((2, 3)))


def test_a_used_metric_pickles_small_and_scores_the_same():
    """Ray and Dask send the metric to every task: WordNet travels as where to read it, not as the
    megabytes of tables it has read (nor as its mapped files, which do not pickle)."""
    import pickle

    hyps, refs = ["the cats sat quickly on mats"], [["a cat was sitting fast on the mat"]]
    metric = METEOR()
    expected = metric.sentence_scores(hyps, refs)
    data = pickle.dumps(metric)
    assert len(data) < 100_000
    np.testing.assert_array_equal(pickle.loads(data).sentence_scores(hyps, refs), expected)


def test_pieces_change_nothing(nltk_wordnet, monkeypatch):
    """Pairs are aligned, and lines turned into word ids, a few at a time (to bound memory): in pieces
    of 7 pairs and 5 lines, cut inside segments and references, every statistic still equals NLTK's."""
    monkeypatch.setattr(align_module, "PIECE_PAIRS", 7)
    monkeypatch.setattr(metric_module, "_PIECE", 5)
    refs = [read_lines(references("de-en", name)[0])[:60] for name in ("A", "B")]
    refs[1][3], refs[0][8] = None, ""
    hypotheses = read_lines(system_output("de-en", "LT22"))[:60]
    hypotheses[5] = ""
    ours = METEOR(refs).segment_statistics(hypotheses)
    theirs = [
        nltk_meteor(h.split(), [ref[i].split() for ref in refs if ref[i] is not None], wordnet=nltk_wordnet)
        for i, h in enumerate(hypotheses)
    ]
    same_statistics(ours, theirs)


def test_tokens_out_of_pair_order_are_aligned_whole(wordnet, monkeypatch):
    """``align`` cuts tokens in pair order into pieces; given them in another order it aligns them
    whole, with the same counts."""
    monkeypatch.setattr(align_module, "PIECE_PAIRS", 3)
    metric = METEOR()
    lexicon = metric.lexicon
    hyps = ["the dog ran", "a big car", "", "happy dogs went home", "the the cat", "good"]
    refs = ["a dog runs", "the large automobile", "x", "the happy hound left home", "cat the", "well"]
    hyp_ids, hyp_lengths = metric._ids(hyps)
    ref_ids, ref_lengths = metric._ids(refs)

    def tokens(ids, lengths):
        pair = np.repeat(np.arange(len(lengths)), lengths)
        return align_module.Tokens(pair, np.concatenate([np.arange(n) for n in lengths]), ids)

    hyp, ref = tokens(hyp_ids, hyp_lengths), tokens(ref_ids, ref_lengths)
    expected = align_module.align(hyp, ref, lexicon.stem_ids, lexicon.related, len(hyps))
    shuffled = np.random.default_rng(0).permutation(len(ref.pair))
    got = align_module.align(hyp, ref.take(shuffled), lexicon.stem_ids, lexicon.related, len(hyps))
    assert [a.tolist() for a in got] == [a.tolist() for a in expected] and expected[0].sum() > 5


def test_any_sequence_of_lines(wordnet):
    from collections import deque

    hyps, refs = ["the dog ran", "a big car"], [["a dog runs", "the large automobile"]]
    assert corpus_meteor(deque(hyps), [deque(refs[0])]) == corpus_meteor(hyps, refs)
