"""A call of a few segments of text is counted in plain Python (``metrics.bleu.small``): its statistics,
scores and signature are sacrebleu's and the vectorised engine's, to the last bit."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a
from shared_data import read_lines, references, system_output, wmt22_dir

import mtscore
from mtscore.metrics.bleu.small import SMALL_SEGMENTS, tokens_13a, tokens_13a_lowercased

SMOOTHING = ["exp", "floor", "add-k", "none"]
TRICKY_LINES = [
    "",
    "   ",
    "Hello, world. 3.5 and 1,000; 2-3 x-y (a) [b] {c} $5 50% @home #tag ~ ` ^ _ | \\",
    "&quot;quoted&quot; &amp; &lt;tag&gt; &amp;quot; &nbsp;",
    "<skipped> kept <skipped>",
    "broken-\nline and\nnewline",
    "ends with a dash-\n",
    "trailing spaces   \t",
    "no\u00a0break \u2028line\u2029para \x1cfile\x1dgroup \x85next \u3000ideographic",
    "lone \ud800 surrogate",
    "İstanbul ΣΊΣΥΦΟΣ Straße",
    "..., .5 5. ,5 5, -5 5- --",
]


def _fields(result, counts=True):
    """The numbers of a result; ``counts=False`` leaves out counts and totals, which sacrebleu reports
    after add-k's additions and mtscore before them (the score is the same)."""
    return (
        result.score,
        list(result.counts) if counts else None,
        list(result.totals) if counts else None,
        list(result.precisions),
        result.bp,
        result.sys_len,
        result.ref_len,
    )


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output("de-en", "Online-B"))
    return hypotheses, [read_lines(path) for path in references("de-en", "all")]


@pytest.mark.parametrize("smooth", SMOOTHING)
def test_every_segments_sentence_bleu_is_sacrebleus_with_two_references(corpus, smooth):
    hypotheses, streams = corpus
    oracle = SacreBLEU(effective_order=True, smooth_method=smooth)
    for index, hypothesis in enumerate(hypotheses):
        refs = [stream[index] for stream in streams]
        counts = smooth != "add-k"
        assert _fields(mtscore.sentence_bleu(hypothesis, refs, smooth=smooth), counts) == _fields(
            oracle.sentence_score(hypothesis, refs), counts
        )


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("effective_order", [False, True])
def test_one_segment_corpus_bleu_is_sacrebleus_with_one_reference(corpus, lowercase, effective_order):
    hypotheses, streams = corpus
    oracle = SacreBLEU(lowercase=lowercase, effective_order=effective_order)
    for hypothesis, reference in zip(hypotheses, streams[0], strict=True):
        ours = mtscore.corpus_bleu([hypothesis], [[reference]], lowercase=lowercase, effective_order=effective_order)
        assert _fields(ours) == _fields(oracle.corpus_score([hypothesis], [[reference]]))


@pytest.mark.parametrize("size", [2, 5, SMALL_SEGMENTS])
@pytest.mark.parametrize("smooth", SMOOTHING)
def test_a_few_segments_score_as_the_vectorised_engine(corpus, size, smooth):
    """References given at creation take the vectorised path; given with the call, the small one."""
    hypotheses, streams = corpus
    for start in range(0, 200, size):
        chunk = hypotheses[start : start + size]
        refs = [stream[start : start + size] for stream in streams]
        ours = mtscore.corpus_bleu(chunk, refs, smooth=smooth)
        engine = mtscore.BLEU(refs, smooth=smooth).corpus_score(chunk)
        assert _fields(ours) == _fields(engine)
        assert str(ours.signature) == str(engine.signature)
        counts = smooth != "add-k"
        assert _fields(ours, counts) == _fields(SacreBLEU(smooth_method=smooth).corpus_score(chunk, refs), counts)


@pytest.mark.parametrize("smooth", SMOOTHING)
def test_a_few_segments_sentence_scores_are_the_vectorised_engines(corpus, smooth):
    hypotheses, streams = corpus
    for start in range(0, 100, 10):
        chunk = hypotheses[start : start + 10]
        refs = [stream[start : start + 10] for stream in streams]
        ours = mtscore.sentence_bleus(chunk, refs, smooth=smooth)
        engine = mtscore.BLEU(refs, smooth=smooth, effective_order=True).sentence_scores(chunk)
        assert ours.tolist() == engine.scores.tolist()
        small = mtscore.BLEU(smooth=smooth, effective_order=True).sentence_scores(chunk, refs)
        assert [_fields(segment) for segment in small] == [_fields(segment) for segment in engine]
        assert small.stats.to_matrix().tolist() == engine.stats.to_matrix().tolist()
        assert str(small.signature) == str(engine.signature)


@pytest.mark.parametrize("max_order", [1, 2, 3, 6])
def test_other_max_orders_score_as_the_vectorised_engine(corpus, max_order):
    hypotheses, streams = corpus
    for start in range(0, 100, 4):
        chunk, refs = hypotheses[start : start + 4], [stream[start : start + 4] for stream in streams]
        for smooth in SMOOTHING:
            ours = mtscore.corpus_bleu(chunk, refs, smooth=smooth, max_order=max_order)
            engine = mtscore.BLEU(refs, smooth=smooth, max_order=max_order).corpus_score(chunk)
            assert (_fields(ours), str(ours.signature)) == (_fields(engine), str(engine.signature))


def test_missing_references_give_the_vectorised_engines_result_and_signature():
    hypotheses = ["the cat sat on the mat", "a dog barked", "it rained all day"]
    refs = [["the cat sat on a mat", None, "it rained all day long"], [None, "the dog barked", "rain all day"]]
    ours = mtscore.corpus_bleu(hypotheses, refs)
    engine = mtscore.BLEU(refs).corpus_score(hypotheses)
    assert _fields(ours) == _fields(engine)
    assert str(ours.signature) == str(engine.signature)
    assert ours.signature.info["nrefs"] == "var"


def test_a_segment_without_any_reference_is_refused_as_before():
    with pytest.raises(mtscore.InputError, match="segment 0 has no reference"):
        mtscore.corpus_bleu(["a"], [[None]])


@pytest.mark.parametrize("pair", ["de-en", "en-de", "en-zh", "ja-en", "en-ru", "cs-uk"])
def test_13a_tokens_of_every_wmt22_line_are_sacrebleus(pair):
    paths = [*references(pair), *sorted(system_output(pair, "x").parent.glob(f"*.{pair}.hyp.*"))[:3]]
    tokenizer = SacreTokenizer13a()
    for path in paths:
        for line in read_lines(path):
            assert list(tokens_13a(line)) == tokenizer(line.rstrip()).split()


def test_13a_tokens_of_every_line_of_every_wmt22_file_are_sacrebleus():
    """Lines with and without a digit next to a period or comma: the two ways ``tokens_13a`` pads them."""
    tokenizer = SacreTokenizer13a()
    paths = sorted((wmt22_dir() / "txt").glob("*/generaltest2022.*"))
    assert len(paths) > 100
    for path in paths:
        for line in set(read_lines(path)):
            assert list(tokens_13a.__wrapped__(line)) == tokenizer(line.rstrip()).split(), (path.name, line)


def test_13a_tokens_of_every_short_string_of_periods_commas_dashes_and_digits_are_sacrebleus():
    tokenizer = SacreTokenizer13a()
    for size in range(7):
        for chars in itertools.product("a.,- 1&", repeat=size):
            line = "".join(chars)
            assert list(tokens_13a.__wrapped__(line)) == tokenizer(line.rstrip()).split(), line


def test_the_regular_expressions_whitespace_is_str_splits_for_every_code_point():
    """The one-pass 13a tokens split where ``\\s`` matches; sacrebleu's split where ``str.isspace``."""
    whitespace = re.compile(r"\s")
    assert [code for code in range(0x110000) if bool(whitespace.match(chr(code))) != chr(code).isspace()] == []


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="a1.,-&;<> \n\tquotampgl", max_size=24))
def test_13a_tokens_of_periods_commas_dashes_and_digits_in_any_order_are_sacrebleus(line):
    assert list(tokens_13a.__wrapped__(line)) == SacreTokenizer13a()(line.rstrip()).split()


@pytest.mark.parametrize("line", TRICKY_LINES)
def test_13a_tokens_of_one_line_are_the_batch_tokenizers_and_sacrebleus(line):
    assert list(tokens_13a(line)) == mtscore.BLEU().tokenize([line])[0]
    assert list(tokens_13a(line)) == SacreTokenizer13a()(line.rstrip()).split()
    assert list(tokens_13a_lowercased(line)) == mtscore.BLEU(lowercase=True).tokenize([line])[0]


@pytest.mark.parametrize("line", TRICKY_LINES)
def test_tricky_lines_score_as_sacrebleu(line):
    reference = "Hello, world. &amp; 3.5 İstanbul line"
    for lowercase in (False, True):
        ours = mtscore.sentence_bleu(line, [reference], lowercase=lowercase)
        assert _fields(ours) == _fields(
            SacreBLEU(lowercase=lowercase, effective_order=True).sentence_score(line, [reference])
        )
