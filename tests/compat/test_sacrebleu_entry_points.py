"""Every public scoring entry point that sacrebleu 2.6.0's own tests exercise (``test_bleu``,
``test_sentence_bleu``, ``test_chrf``, ``test_ter``, ``test_tokenizer_ter``, ``test_significance``),
through ``mtscore.sacrebleu`` by sacrebleu's module paths, against sacrebleu itself on this project's
inputs: generated text and statistics, and WMT22. The table in ``docs/api/sacrebleu.md``
maps sacrebleu's test files to the tests here and in ``test_sacrebleu_dropin*.py``."""

from __future__ import annotations

import importlib
import json

import pytest
import sacrebleu as theirs
import sacrebleu.metrics.helpers as their_helpers
import sacrebleu.significance as their_significance
import sacrebleu.tokenizers.tokenizer_ter as their_ter_tokenizer
from helpers import as_sacrebleu_version, fixed
from helpers import corpora as shared_corpora
from hypothesis import given
from hypothesis import strategies as st
from shared_data import read_lines, references, system_output

import mtscore.sacrebleu as ours
import mtscore.sacrebleu.metrics.helpers as our_helpers
import mtscore.sacrebleu.significance as our_significance
import mtscore.sacrebleu.tokenizers.tokenizer_ter as our_ter_tokenizer
from mtscore.sacrebleu.metrics.base import Score
from mtscore.sacrebleu.metrics.bleu import BLEU, BLEUScore

# A few words so that generated hypotheses and references share n-grams; with case, punctuation,
# digits, CJK and Hiragana for the tokenizers, and whitespace runs for chrF.
WORDS = [
    "the",
    "The",
    "dog",
    "bit",
    "a",
    "man",
    "man.",
    "it",
    "wasn't",
    "(c)",
    "4.2",
    "Jim's",
    "美众院",
    "りの拳銃",
    "-",
    ",",
]
text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join) | st.sampled_from(["", " ", "a", "aa", "b c  d "])


def corpora(max_segments: int = 4, max_streams: int = 2):
    """Hypotheses and reference streams of the same length."""
    return shared_corpora(text, max_segments, max_streams, missing=False)


@pytest.fixture(scope="module")
def wmt22():
    hypotheses = read_lines(system_output("en-de", "Online-B"))[:250]
    return hypotheses, [read_lines(path)[:250] for path in references("en-de", "all")]


def same_bleu(got, expected) -> None:
    assert got.score == pytest.approx(expected.score, abs=1e-9)
    assert (got.counts, got.totals, got.sys_len, got.ref_len) == (
        expected.counts,
        expected.totals,
        expected.sys_len,
        expected.ref_len,
    )
    assert got.precisions == pytest.approx(expected.precisions, abs=1e-9)
    assert got.bp == pytest.approx(expected.bp, abs=1e-12)


# Each module path sacrebleu's tests (and scoring code) import from, with the names they use.
PATHS = {
    "": [
        *("BLEU", "CHRF", "TER", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf"),
        *("sentence_chrf", "corpus_ter", "sentence_ter", "extract_word_ngrams", "extract_char_ngrams"),
    ],
    "compat": ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter"],
    "metrics": ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "METRICS"],
    "metrics.bleu": ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER"],
    "metrics.chrf": ["CHRF", "CHRFScore", "CHRFSignature"],
    "metrics.ter": ["TER", "TERScore", "TERSignature"],
    "metrics.base": ["Metric", "Score", "Signature"],
    "metrics.helpers": ["extract_all_word_ngrams", "extract_word_ngrams", "extract_char_ngrams"],
    "significance": ["PairedTest", "Result", "estimate_ci"],
    "tokenizers": ["BaseTokenizer"],
    "tokenizers.tokenizer_base": ["BaseTokenizer"],
    "tokenizers.tokenizer_none": ["NoneTokenizer"],
    "tokenizers.tokenizer_13a": ["Tokenizer13a"],
    "tokenizers.tokenizer_intl": ["TokenizerV14International"],
    "tokenizers.tokenizer_zh": ["TokenizerZh"],
    "tokenizers.tokenizer_char": ["TokenizerChar"],
    "tokenizers.tokenizer_ja_mecab": ["TokenizerJaMecab"],
    "tokenizers.tokenizer_ko_mecab": ["TokenizerKoMecab"],
    "tokenizers.tokenizer_spm": ["TokenizerSPM", "Flores101Tokenizer", "Flores200Tokenizer", "spBLEU1KTokenizer"],
    "tokenizers.tokenizer_ter": ["TercomTokenizer"],
}


@pytest.mark.parametrize("path", PATHS)
def test_sacrebleus_module_paths(path):
    """``import sacrebleu.X`` becomes ``import mtscore.sacrebleu.X``: each path has the names."""
    mine = importlib.import_module("mtscore.sacrebleu" + (f".{path}" if path else ""))
    reference = importlib.import_module("sacrebleu" + (f".{path}" if path else ""))
    for name in PATHS[path]:
        assert hasattr(reference, name)
        assert hasattr(mine, name), f"mtscore.sacrebleu.{path} lacks {name}"
    if path.startswith("tokenizers.tokenizer_") and path != "tokenizers.tokenizer_base":
        for name in PATHS[path]:  # the same classes as the package's, and tokenizers
            assert getattr(mine, name) is getattr(ours.tokenizers, name)
            assert issubclass(getattr(mine, name), ours.tokenizers.BaseTokenizer)


def test_metrics_and_signatures_are_instances_of_the_base_names():
    """``isinstance(m, sacrebleu.metrics.base.Metric)`` and the signature classes hold as in sacrebleu
    (references given at creation: before it has seen any, a metric has no signature, as sacrebleu's)."""
    from mtscore.sacrebleu.metrics import base, bleu, chrf, ter

    for module, metric, signature in (
        (bleu, "BLEU", "BLEUSignature"),
        (chrf, "CHRF", "CHRFSignature"),
        (ter, "TER", "TERSignature"),
    ):
        made = getattr(module, metric)(references=[["a reference"]])
        assert isinstance(made, base.Metric)
        assert isinstance(made.get_signature(), getattr(module, signature))
        assert issubclass(getattr(module, signature), base.Signature)


def test_attribute_access_as_sacrebleu():
    """``import sacrebleu`` then ``sacrebleu.compat.sentence_bleu``, ``sacrebleu.metrics.BLEU``."""
    assert ours.compat.sentence_bleu is ours.sentence_bleu
    assert ours.metrics.BLEU is ours.BLEU is BLEU
    assert set(ours.metrics.METRICS) == set(theirs.metrics.METRICS)


SMOOTHING = [("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("floor", 0.5)]
SMOOTHING += [("add-k", None), ("add-k", 1), ("add-k", 2)]


@fixed(max_examples=60)
@given(
    text,
    st.lists(text, min_size=1, max_size=3),
    st.sampled_from(SMOOTHING),
    st.sampled_from(["13a", "none", "intl", "char", "zh"]),
    st.booleans(),
)
def test_compat_sentence_bleu_and_metric_sentence_score(hypothesis, refs, smoothing, tokenize, lowercase):
    """``compat.sentence_bleu`` and ``metrics.BLEU(..., effective_order=True).sentence_score``
    under every smoothing, tokenizer and case of sacrebleu's ``test_sentence_bleu``."""
    method, value = smoothing
    options = {"smooth_method": method, "smooth_value": value, "tokenize": tokenize, "lowercase": lowercase}
    expected = theirs.compat.sentence_bleu(hypothesis, refs, **options, use_effective_order=True)
    got = ours.compat.sentence_bleu(hypothesis, refs, **options, use_effective_order=True)
    assert got.score == pytest.approx(expected.score, abs=1e-9)
    assert got.format() == expected.format()
    expected = theirs.sentence_bleu(hypothesis, refs, **options)  # effective order by default
    assert ours.sentence_bleu(hypothesis, refs, **options).score == pytest.approx(expected.score, abs=1e-9)
    metric_options = {"force": False, "effective_order": True, **options}
    expected = theirs.metrics.BLEU(**metric_options).sentence_score(hypothesis, refs)
    assert ours.metrics.BLEU(**metric_options).sentence_score(hypothesis, refs).score == pytest.approx(
        expected.score, abs=1e-9
    )


RAW_SMOOTHING = [(0.01,), (0.0,), (None,), ()]


@pytest.mark.parametrize("smooth_value", RAW_SMOOTHING)
def test_raw_corpus_bleu(wmt22, smooth_value):
    """``raw_corpus_bleu`` with its smoothing value given (0.01, 0: none, None) or left to its
    default (0.1): scores, counts and totals of single segments, where floor smoothing of orders
    without matches decides the score, and of the corpus (``test_raw_bleu``, ``test_statistics``,
    ``test_offset``, ``test_effective_order``)."""
    hypotheses, streams = wmt22
    for i in range(0, len(hypotheses), 5):
        refs = [[stream[i]] for stream in streams]
        expected = theirs.raw_corpus_bleu([hypotheses[i]], refs, *smooth_value)
        same_bleu(ours.raw_corpus_bleu([hypotheses[i]], refs, *smooth_value), expected)
    same_bleu(
        ours.raw_corpus_bleu(hypotheses, streams, *smooth_value),
        theirs.raw_corpus_bleu(hypotheses, streams, *smooth_value),
    )


@pytest.mark.parametrize("smooth_value", RAW_SMOOTHING)
@fixed(max_examples=40)
@given(corpus=corpora())
def test_raw_corpus_bleu_generated(corpus, smooth_value):
    hypotheses, streams = corpus
    same_bleu(
        ours.raw_corpus_bleu(hypotheses, streams, *smooth_value),
        theirs.raw_corpus_bleu(hypotheses, streams, *smooth_value),
    )


@fixed(max_examples=60)
@given(
    corpora(),
    st.sampled_from([{}, {"tokenize": "none"}, {"tokenize": "13a"}, {"tokenize": "intl"}, {"smooth_method": "none"}]),
)
def test_corpus_bleu(corpus, options):
    hypotheses, streams = corpus
    same_bleu(ours.corpus_bleu(hypotheses, streams, **options), theirs.corpus_bleu(hypotheses, streams, **options))


def test_corpus_bleu_keeps_empty_hypotheses(wmt22):
    """Empty hypotheses count (as zero-length segments); they are not dropped."""
    hypotheses, streams = wmt22
    blanked = ["" if i % 3 == 0 else line for i, line in enumerate(hypotheses)]
    same_bleu(ours.corpus_bleu(blanked, streams), theirs.corpus_bleu(blanked, streams))
    same_bleu(ours.corpus_bleu([""] * len(hypotheses), streams), theirs.corpus_bleu([""] * len(hypotheses), streams))


@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 6])
def test_max_ngram_order(wmt22, order):
    hypotheses, streams = wmt22
    got = BLEU(max_ngram_order=order).corpus_score(hypotheses, streams)
    same_bleu(got, theirs.metrics.BLEU(max_ngram_order=order).corpus_score(hypotheses, streams))
    assert len(got.counts) == order


@st.composite
def degenerate_statistics(draw):
    """Statistics as sacrebleu's ``test_degenerate_statistics`` gives them: totals and lengths
    unrelated to each other (zeros included), no order matching more than it has."""
    total = draw(st.lists(st.integers(0, 15), min_size=4, max_size=4))
    correct = [draw(st.integers(0, t)) for t in total]
    return correct, total, draw(st.integers(0, 15)), draw(st.integers(0, 15))


@fixed(max_examples=200)
@given(degenerate_statistics(), st.sampled_from([None, 0.0, 0.01, 0.1]))
def test_compute_bleu_with_floor_smoothing(stats, offset):
    correct, total, sys_len, ref_len = stats
    expected = theirs.metrics.BLEU.compute_bleu(correct, total, sys_len, ref_len, "floor", offset)
    got = BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method="floor", smooth_value=offset)
    assert got.score == pytest.approx(expected.score, abs=1e-9)


def test_compute_bleu_positional_defaults():
    """``compute_bleu(correct, total, sys_len, ref_len)``: no smoothing, as in ``test_scoring``."""
    for stats in [([9, 7, 5, 3], [10, 8, 6, 4], 11, 11), ([5, 2, 0, 0], [7, 6, 5, 4], 7, 9)]:
        expected = theirs.metrics.BLEU.compute_bleu(*stats)
        got = BLEU.compute_bleu(*stats)
        assert isinstance(got, BLEUScore) and repr(got) == repr(expected)


@fixed(max_examples=80)
@given(corpora(), st.sampled_from([2, 3]), st.booleans(), st.booleans())
def test_corpus_chrf(corpus, beta, eps_smoothing, remove_whitespace):
    """``corpus_chrf`` with beta 3, epsilon smoothing or effective order, whitespace kept or not."""
    hypotheses, streams = corpus
    options = {"char_order": 6, "word_order": 0, "beta": beta}
    options |= {"eps_smoothing": eps_smoothing, "remove_whitespace": remove_whitespace}
    expected = theirs.corpus_chrf(hypotheses, streams, **options)
    got = ours.corpus_chrf(hypotheses, streams, **options)
    assert got.score == pytest.approx(expected.score, abs=1e-9) and repr(got) == repr(expected)


def test_sentence_chrf_eps_smoothing(wmt22):
    hypotheses, streams = wmt22
    for i in range(0, len(hypotheses), 23):
        refs = [stream[i] for stream in streams]
        for eps in (True, False):
            expected = theirs.sentence_chrf(hypotheses[i], refs, eps_smoothing=eps)
            assert ours.sentence_chrf(hypotheses[i], refs, eps_smoothing=eps).score == pytest.approx(
                expected.score, abs=1e-9
            )


@fixed(max_examples=80)
@given(corpora(max_streams=1))
def test_ter_metric_corpus_score(corpus):
    """``metrics.TER().corpus_score``, empty hypotheses and references included (``test_ter``)."""
    hypotheses, streams = corpus
    expected = theirs.metrics.TER().corpus_score(hypotheses, streams)
    got = ours.metrics.TER().corpus_score(hypotheses, streams)
    assert (got.score, got.num_edits, got.ref_length) == pytest.approx(
        (expected.score, expected.num_edits, expected.ref_length), abs=1e-9
    )


@fixed(max_examples=100)
@given(text, st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_tercom_tokenizer_by_its_module(line, normalized, no_punct, asian_support, case_sensitive):
    """``tokenizers.tokenizer_ter.TercomTokenizer`` with each option (``test_tokenizer_ter``)."""
    options = (normalized, no_punct, asian_support, case_sensitive)
    mine, reference = our_ter_tokenizer.TercomTokenizer(*options), their_ter_tokenizer.TercomTokenizer(*options)
    assert mine(line) == reference(line)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_paired_test_untokenized_bleu(wmt22, monkeypatch, test_type):
    """``PairedTest`` of ``BLEU(references=..., tokenize="none")`` systems with ``references=None``,
    as ``test_significance``: ``Result`` objects, system names, equal p-values."""
    _, streams = wmt22
    systems = [(name, read_lines(system_output("en-de", name))[:250]) for name in ("Online-B", "Online-A", "PROMT")]
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    got = our_significance.PairedTest(
        systems,
        {"BLEU": BLEU(references=streams, tokenize="none")},
        references=None,
        test_type=test_type,
        n_samples=500,
    )()[1]
    expected = their_significance.PairedTest(
        systems,
        {"BLEU": theirs.metrics.BLEU(references=streams, tokenize="none")},
        references=None,
        test_type=test_type,
        n_samples=500,
    )()[1]
    assert got["System"] == expected["System"]
    for mine, reference in zip(got["BLEU"], expected["BLEU"], strict=True):
        assert isinstance(mine, our_significance.Result)
        assert (mine.score, mine.p_value) == (reference.score, reference.p_value)


@fixed(max_examples=60)
@given(text, st.integers(1, 5), st.booleans())
def test_ngram_helpers(line, n, include_whitespace):
    assert our_helpers.extract_all_word_ngrams(line, 1, n) == their_helpers.extract_all_word_ngrams(line, 1, n)
    assert our_helpers.extract_word_ngrams(line.split(), n) == their_helpers.extract_word_ngrams(line.split(), n)
    assert ours.extract_char_ngrams(line, n, include_whitespace) == theirs.extract_char_ngrams(
        line, n, include_whitespace
    )
    assert our_helpers.extract_all_char_ngrams(line, n, include_whitespace) == their_helpers.extract_all_char_ngrams(
        line, n, include_whitespace
    )


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_result_shape(wmt22, name, monkeypatch):
    """Results print as sacrebleu's (``repr``), give its JSON with a signature, are ``Score``s,
    and a bootstrapped one keeps its fields and has ``_mean``/``_ci``."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hypotheses, streams = wmt22
    mine, reference = getattr(ours, name)(references=streams), getattr(theirs, name)(references=streams)
    got, expected = mine.corpus_score(hypotheses), reference.corpus_score(hypotheses, None)
    assert isinstance(got, Score) and isinstance(got, getattr(ours.metrics, f"{name}Score"))
    assert repr(got) == repr(expected)
    signature = str(reference.get_signature())
    assert json.loads(got.format(signature=signature, is_json=True)) == json.loads(
        expected.format(signature=signature, is_json=True)
    )
    got, expected = mine.corpus_score(hypotheses, n_bootstrap=100), reference.corpus_score(hypotheses, None, 100)
    assert repr(got) == repr(expected)
    assert (got._mean, got._ci) == pytest.approx((expected._mean, expected._ci), abs=1e-9)
    assert got.format(signature=signature, is_json=True) == expected.format(signature=signature, is_json=True)
    # the metric's signature now has the resamples and the seed, as sacrebleu's
    assert as_sacrebleu_version(str(mine.get_signature())) == str(reference.get_signature())
    short = mine.get_signature().format(short=True)
    assert as_sacrebleu_version(short) == reference.get_signature().format(short=True)
    assert (mine.n_bootstrap, mine.seed) == (reference.n_bootstrap, reference.seed)
    if name == "BLEU":
        assert (got.counts, got.prec_str) == (expected.counts, expected.prec_str)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("BLEU", {}),
        ("BLEU", {"trg_lang": "zh", "smooth_method": "floor", "smooth_value": 0.2, "max_ngram_order": 3}),
        ("BLEU", {"tokenize": "intl", "lowercase": True, "effective_order": True}),
        ("CHRF", {"word_order": 2, "beta": 3, "whitespace": True, "eps_smoothing": True}),
        ("TER", {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True}),
    ],
)
def test_metric_options_and_constants(name, options):
    """The options a metric keeps as attributes, and its class constants, as sacrebleu's."""
    mine, reference = getattr(ours.metrics, name)(**options), getattr(theirs.metrics, name)(**options)
    public = {key for key, value in vars(reference).items() if not key.startswith("_") and key != "tokenizer"}
    constants = {key for key in dir(type(reference)) if key.isupper() and not key.startswith("_")}
    assert {key: getattr(mine, key) for key in public} == {key: getattr(reference, key) for key in public}
    for key in constants:  # sacrebleu's TOKENIZERS is its registry's keys: compared as a set
        mine_value, their_value = getattr(type(mine), key), getattr(type(reference), key)
        if key == "TOKENIZERS":
            mine_value, their_value = set(mine_value), set(their_value)
        assert mine_value == their_value
