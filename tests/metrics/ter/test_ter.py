"""TER equals sacrebleu 2.6.0's (tercom semantics): edit counts and reference lengths exactly,
scores to 1e-9, with every option, on WMT22 data and on generated text; sacrebleu's text and JSON
output forms; float32 resampled scores; clear input errors."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from helpers import corpora as shared_corpora
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter
from shared_data import read_lines, references, system_output

from mtscore.core.signature import TOOL_VERSION
from mtscore.core.stats import float32_arithmetic
from mtscore.errors import InputError, LengthMismatchError
from mtscore.metrics import metric_class
from mtscore.metrics.ter import TER, TERScore, corpus_ter, sentence_ter, sentence_ters
from mtscore.metrics.ter import align as ter_align

TOLERANCE = 1e-9
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, values, strict=False)) for values in itertools.product([False, True], repeat=4)]


def option_id(options: dict) -> str:
    return "+".join(name for name, on in options.items() if on) or "default"


def mtscore_options(options: dict) -> dict:
    """sacrebleu's TER keywords as mtscore's: ``case_sensitive`` is ``lowercase=not case_sensitive``."""
    ours = {name: value for name, value in options.items() if name != "case_sensitive"}
    if "case_sensitive" in options:
        ours["lowercase"] = not options["case_sensitive"]
    return ours


def same_score(ours: TERScore, theirs) -> None:
    """Exact statistics, score to 1e-9."""
    assert ours.num_edits == theirs.num_edits
    assert ours.ref_length == theirs.ref_length
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=TOLERANCE), (ours.score, theirs.score)


def sacre_sentences(hypotheses, streams, **options) -> list:
    """sacrebleu's ``sentence_score`` of each segment (references: stream i's line, None skipped)."""
    metric = SacreTER(**options)
    return [metric.sentence_score(hyp, [stream[i] for stream in streams]) for i, hyp in enumerate(hypotheses)]


def check_against_sacrebleu(hypotheses, streams, **options) -> None:
    """Corpus score, every segment's statistics and sentence scores, all as sacrebleu's."""
    ours = mtscore_options(options)
    same_score(corpus_ter(hypotheses, streams, **ours), SacreTER(**options).corpus_score(hypotheses, streams))
    theirs = sacre_sentences(hypotheses, streams, **options)
    statistics = TER(streams, **ours).segment_statistics(hypotheses)
    assert statistics.dtype == np.float64 and statistics.shape == (len(hypotheses), 2)
    assert statistics[:, 0].tolist() == [score.num_edits for score in theirs]
    assert statistics[:, 1].tolist() == [score.ref_length for score in theirs]
    np.testing.assert_allclose(
        sentence_ters(hypotheses, streams, **ours), [s.score for s in theirs], rtol=0, atol=TOLERANCE
    )


# --- WMT22 -------------------------------------------------------------------------------------


def wmt22(pair: str, system: str, refset: str | None = None) -> tuple[list[str], list[list[str]]]:
    return read_lines(system_output(pair, system)), [read_lines(path) for path in references(pair, refset)]


def test_wmt22_en_de_full_corpus_two_references():
    hypotheses, streams = wmt22("en-de", "JDExploreAcademy")
    assert len(streams) == 2 and len(hypotheses) == 2037
    ours = corpus_ter(hypotheses, streams)
    theirs = SacreTER().corpus_score(hypotheses, streams)
    same_score(ours, theirs)
    assert (ours.num_edits, ours.ref_length) == (14223, 33631.0)


def test_wmt22_en_de_every_segment_one_reference():
    hypotheses, streams = wmt22("en-de", "Online-W", "A")
    theirs = sacre_sentences(hypotheses, streams)
    metric = TER(streams)
    statistics = metric.segment_statistics(hypotheses)
    assert statistics[:, 0].tolist() == [score.num_edits for score in theirs]
    assert statistics[:, 1].tolist() == [score.ref_length for score in theirs]
    np.testing.assert_allclose(metric.sentence_scores(hypotheses), [s.score for s in theirs], rtol=0, atol=TOLERANCE)
    same_score(metric.score_statistics(statistics), SacreTER().corpus_score(hypotheses, streams))


@pytest.mark.parametrize("options", [o for o in ALL_OPTIONS if not o["asian_support"]], ids=option_id)
def test_wmt22_options_on_a_subset(options):
    hypotheses, streams = wmt22("de-en", "Online-B")
    chosen = slice(100, 140)
    check_against_sacrebleu(hypotheses[chosen], [stream[chosen] for stream in streams], **options)


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_wmt22_asian_support_on_a_subset(pair):
    system = {"en-zh": "Online-B", "en-ja": "Online-A"}[pair]
    hypotheses, streams = wmt22(pair, system)
    chosen = slice(0, 15)
    for options in (
        {"normalized": True, "asian_support": True},
        {"normalized": True, "no_punct": True, "asian_support": True},
    ):
        check_against_sacrebleu(hypotheses[chosen], [stream[chosen] for stream in streams], **options)


def test_wmt22_prepared_references_serve_many_systems():
    streams = [read_lines(path) for path in references("en-de")]
    chosen = slice(0, 200)
    streams = [stream[chosen] for stream in streams]
    metric = TER(streams)
    for system in ("Online-A", "PROMT"):
        hypotheses = read_lines(system_output("en-de", system))[chosen]
        assert metric.corpus_score(hypotheses) == corpus_ter(hypotheses, streams)
        assert metric.segment_statistics(hypotheses).tolist() == TER().segment_statistics(hypotheses, streams).tolist()


def test_wide_cells_count_the_same(monkeypatch):
    """Pairs with |hyp| + |ref| >= 4000 use int32 matrices; forcing them everywhere changes nothing."""
    hypotheses, streams = wmt22("en-de", "Lan-Bridge")
    chosen = slice(0, 300)
    hypotheses, streams = hypotheses[chosen], [stream[chosen] for stream in streams]
    narrow = TER(streams).segment_statistics(hypotheses)
    chunks = []

    def wide(longest: int) -> tuple[type, int]:
        chunks.append(longest)
        return np.int32, 1 << 28

    monkeypatch.setattr(ter_align, "cells", wide)
    assert TER(streams).segment_statistics(hypotheses).tolist() == narrow.tolist()
    assert chunks


# --- generated text --------------------------------------------------------------------------

# Few distinct words, so that words repeat and shifts happen; case, punctuation, XML entities,
# digits, CJK, kana, full-width forms, non-ASCII letters and odd whitespace for the options.
WORDS = [
    "a",
    "b",
    "c",
    "A",
    "B",
    "the",
    "The",
    "cat",
    "cat.",
    "cat's",
    ",",
    ".",
    "3.5",
    "x-1",
    "5-",
    "(b)",
    "&amp;",
    "&quot;",
    "a,b",
    "?!",
    "中文",
    "文",
    "ひらがな",
    "カタカナ",
    "。",
    "、",
    "（",
    "）",
    "，",
    "ａ",
    "É",
    "é",
    "ß",
    "İ",
    "\u00a0",
    "\t",
    "\n-",
    "d\ne",
]


def sentence(max_words: int = 25):
    return st.lists(st.sampled_from(WORDS), max_size=max_words).map(" ".join)


def corpora(max_segments: int = 5, max_words: int = 25):
    """Segments with one to three reference streams; some references missing (None) or empty."""
    return shared_corpora(sentence(max_words), max_segments)


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
@fixed(max_examples=25)
@given(corpus=corpora())
def test_generated_text_every_option(options, corpus):
    check_against_sacrebleu(*corpus, **options)


@fixed(max_examples=40)
@given(
    hypothesis=st.lists(st.sampled_from("abc"), max_size=45), reference=st.lists(st.sampled_from("abc"), max_size=45)
)
def test_generated_repeated_words(hypothesis, reference):
    """Three words only: many equal blocks, many shift candidates (often the 1000 limit)."""
    hyp, ref = " ".join(hypothesis), " ".join(reference)
    same_score(sentence_ter(hyp, [ref]), SacreTER().sentence_score(hyp, [ref]))


@fixed(max_examples=8)
@given(data=st.data())
def test_generated_long_sentences_beyond_the_beam(data):
    """Lengths far apart and sentences longer than the beam (25 cells each side of the diagonal)."""
    vocabulary = st.sampled_from([f"w{i}" for i in range(12)])
    hyp = " ".join(data.draw(st.lists(vocabulary, min_size=1, max_size=90)))
    ref = " ".join(data.draw(st.lists(vocabulary, min_size=55, max_size=90)))
    for h, r in ((hyp, ref), (ref, hyp)):
        same_score(sentence_ter(h, [r]), SacreTER().sentence_score(h, [r]))


def sacrebleu_with_beam(hypothesis: str, reference: str, width: int):
    old = lib_ter._BEAM_WIDTH
    lib_ter._BEAM_WIDTH = width
    try:
        return SacreTER().sentence_score(hypothesis, [reference])
    finally:
        lib_ter._BEAM_WIDTH = old


def test_beam_changes_the_result_and_we_follow_it():
    """60 extra words before a 100-word reference: the alignment leaves the beam (sacrebleu with
    an unlimited beam finds 60 edits, tercom's beam 91)."""
    reference = " ".join(f"w{i}" for i in range(100))
    hypothesis = " ".join(f"x{i}" for i in range(60)) + " " + reference
    for hyp, ref in ((hypothesis, reference), (reference, hypothesis)):
        assert sacrebleu_with_beam(hyp, ref, 10**6).num_edits == 60
        same_score(sentence_ter(hyp, [ref]), SacreTER().sentence_score(hyp, [ref]))
    assert sentence_ter(hypothesis, [reference]).num_edits == 91


def test_wide_beam_for_very_different_lengths():
    """A length ratio above 50 widens the beam to ceil(ratio / 2 + 25)."""
    long = " ".join(f"w{i % 7}" for i in range(130))
    for hyp, ref in (("w3 w5", long), (long, "w3 w5"), ("w1", long), ("", long), (long, "")):
        same_score(sentence_ter(hyp, [ref]), SacreTER().sentence_score(hyp, [ref]))


def test_candidate_limit_drops_the_last_round(monkeypatch):
    """sacrebleu stops after 1000 shift candidates per pair; this pair reaches the limit."""
    hypothesis, reference = "a b c " * 10 + "d", "d " + "c b a " * 10
    tried = []
    shift = lib_ter._shift

    def counting_shift(*args):
        result = shift(*args)
        tried.append(result[2])
        return result

    monkeypatch.setattr(lib_ter, "_shift", counting_shift)
    theirs = SacreTER().sentence_score(hypothesis, [reference])
    assert max(tried) >= lib_ter._MAX_SHIFT_CANDIDATES
    same_score(sentence_ter(hypothesis, [reference]), theirs)


@pytest.mark.parametrize(
    "hypothesis, refs",
    [
        ("", [""]),
        ("", ["a b c"]),
        ("a b c", [""]),
        ("a b c", ["", "a b"]),
        ("   ", ["  "]),
        ("a b c", [None, "c b a"]),
        ("the cat sat on the mat", ["the mat sat on the cat"]),
        ("a a a a a a", ["a"]),
        ("a", ["a a a a a a"]),
        ("x y z", ["a b c", "x y", "z"]),
    ],
)
def test_edge_cases(hypothesis, refs):
    same_score(sentence_ter(hypothesis, refs), SacreTER().sentence_score(hypothesis, refs))


def test_variable_number_of_references():
    hypotheses = ["a b c", "c b a", "a"]
    streams = [["a b c", None, "a"], ["b c", "a b c", None]]
    ours = corpus_ter(hypotheses, streams)
    theirs = SacreTER()
    same_score(ours, theirs.corpus_score(hypotheses, streams))
    assert str(ours.signature) == str(theirs.get_signature()).replace("2.6.0", TOOL_VERSION)
    assert ours.signature.info["nrefs"] == "var"


# --- sums, float32 resampling ---------------------------------------------------------------


def test_scores_of_sums_float64_and_special_cases():
    metric, sacre = TER(), SacreTER()
    sums = np.array([[3, 10.0], [7, 3.5], [0, 0.0], [4, 0.0], [1, 3.0], [2, 1 / 3]])
    expected = [sacre._compute_score_from_stats([int(e), r]).score for e, r in sums]
    scores = metric.scores_of_sums(sums)
    assert scores.dtype == np.float64
    np.testing.assert_allclose(scores, expected, rtol=0, atol=TOLERANCE)
    assert scores[2:4].tolist() == [0.0, 100.0]


def test_scores_of_sums_float32_equals_sacrebleu_resampling():
    """sacrebleu's bootstrap: float32 statistics, each resample summed with ``.sum(0)`` and scored
    with float32 arithmetic."""
    hypotheses, streams = wmt22("en-de", "Online-Y")
    chosen = slice(0, 300)
    hypotheses, streams = hypotheses[chosen], [stream[chosen] for stream in streams]
    metric = TER(streams)
    statistics = metric.segment_statistics(hypotheses).astype(np.float32)
    indices = np.random.default_rng(12345).choice(len(hypotheses), size=(400, len(hypotheses)), replace=True)
    sums = np.stack([sample.sum(0) for sample in statistics[indices]])
    sums = np.concatenate([sums, np.array([[0, 0], [5, 0], [3, 7]], dtype=np.float32)])
    sacre = SacreTER()
    expected = [sacre._compute_score_from_stats(row).score for row in sums]
    scores = metric.scores_of_sums(sums)
    assert scores.dtype == type(expected[0])  # float32 under NumPy 2: sacrebleu's means and intervals use it
    np.testing.assert_allclose(scores, expected, rtol=0, atol=TOLERANCE)
    if float32_arithmetic() == np.float32:  # the float64 formula differs: float32 rounding is kept
        assert not np.array_equal(scores[:-3], metric.scores_of_sums(sums.astype(np.float64))[:-3])


# --- output forms, signature, protocol -------------------------------------------------------


@pytest.mark.parametrize("options", [ALL_OPTIONS[0], ALL_OPTIONS[-1], ALL_OPTIONS[9]], ids=option_id)
@pytest.mark.parametrize("width", [1, 2, 4])
def test_format_and_json_equal_sacrebleu(options, width):
    hypotheses = ["The cat sat on the mat.", "A B c"]
    streams = [["the cat is on the mat", "a b c"], ["The cat sat.", None]]
    ours = corpus_ter(hypotheses, streams, **mtscore_options(options))
    metric = SacreTER(**options)
    theirs = metric.corpus_score(hypotheses, streams)
    signature = str(metric.get_signature())
    ours_signature = str(ours.signature)
    assert ours_signature == signature.replace("version:2.6.0", f"version:{TOOL_VERSION}")
    expected_line = theirs.format(width, signature=signature).replace("2.6.0", TOOL_VERSION)
    assert ours.format(width, signature=ours_signature) == expected_line
    assert ours.format(width, score_only=True) == theirs.format(width, score_only=True)
    assert ours.format(width) == theirs.format(width)
    assert ours.to_json(width) == theirs.format(width, signature=signature, is_json=True).replace("2.6.0", TOOL_VERSION)


def test_signature_fields_and_defaults():
    score = corpus_ter(["a b"], [["a c"]])
    assert str(score.signature) == f"nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{TOOL_VERSION}"
    assert str(score) == "TER = 50.00"
    assert score.to_dict() == {"score": 50.0, "num_edits": 1, "ref_length": 2.0}
    options = corpus_ter(["a b"], [["a c"]], normalized=True, no_punct=True, asian_support=True, lowercase=False)
    assert str(options.signature) == (
        f"nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:{TOOL_VERSION}"
    )


def test_json_has_plain_floats_from_float32_statistics():
    metric = TER([["a b c d"]])
    statistics = metric.segment_statistics(["a c b"]).astype(np.float32)
    score = metric.score_statistics(statistics)
    data = json.loads(score.to_json())
    assert type(score.score) is float and type(score.ref_length) is float and type(score.num_edits) is int
    assert data["score"] == round(score.score, 2) and data["nrefs"] == "1"


def test_metric_protocol():
    cls = metric_class("ter")
    assert cls is TER and TER.name == "TER" and TER.higher_is_better is False
    streams = [["a b c", "d e f g"], ["a c b", "g f e d"]]
    hypotheses = ["c b a", "d e g f"]
    metric = TER(streams, no_punct=True)
    statistics = metric.segment_statistics(hypotheses)
    assert metric.score_statistics(statistics) == metric.corpus_score(hypotheses)
    assert metric.scores_of_sums(statistics.sum(0, keepdims=True))[0] == metric.corpus_score(hypotheses).score
    same_score(metric.corpus_score(hypotheses), SacreTER(no_punct=True).corpus_score(hypotheses, streams))


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hypotheses, streams, error, message",
    [
        ("a b", [["a"]], InputError, "single str"),
        ([], [[]], InputError, "no hypotheses"),
        (["a", None], [["a", "b"]], InputError, "hypothesis 1 is NoneType"),
        (["a", "b"], [["a"]], LengthMismatchError, "reference stream 1 has 1"),
        (["a", "b"], ["a", "b"], InputError, "list of str"),
        (["a"], [], InputError, "no references"),
        (["a"], [[None]], InputError, "no reference"),
        (["a"], [[3]], InputError, "expected str or None"),
    ],
)
def test_input_errors(hypotheses, streams, error, message):
    with pytest.raises(error, match=message):
        corpus_ter(hypotheses, streams)


def test_prepared_reference_errors():
    with pytest.raises(InputError, match="no references"):
        TER().corpus_score(["a"])
    with pytest.raises(LengthMismatchError, match="prepared references have 2"):
        TER([["a", "b"]]).corpus_score(["a"])
    with pytest.raises(InputError, match="hypothesis must be a str"):
        sentence_ter(None, ["a"])
    with pytest.raises(InputError, match="wrap a single one"):
        sentence_ter("a", "a")
    with pytest.raises(InputError, match="non-empty"):
        TER().score_statistics(np.zeros((0, 2)))


def test_a_segment_too_long_for_memory_is_refused_by_name():
    """Issue 18, item 2: a 300,000-word pair asked for 335 GiB and died in a MemoryError; it is
    refused before any matrix is made, naming the segment, from the API and the command line."""
    long = " ".join(f"w{i % 5000}" for i in range(300_000))
    with pytest.raises(InputError, match=r"^segment 2: TER of a 300000-word hypothesis against a 300000-word"):
        corpus_ter(["a b", long], [["a b", long]])


def test_a_segment_too_long_for_memory_is_an_input_error_on_the_command_line(capsys, tmp_path):
    from helpers import run, write

    from mtscore.cli import EXIT_INPUT

    path = write(tmp_path / "long.txt", ["a b", " ".join(["x"] * 300_000)])
    code, out, err = run(capsys, path, "-i", path, "-m", "ter")
    assert code == EXIT_INPUT and out == "" and "segment 2: TER of a 300000-word hypothesis" in err
    assert "Traceback" not in err


def test_the_size_limit_counts_matrix_cells(monkeypatch):
    """Pairs up to ``MAX_CELLS`` cells of (hypothesis + 1) x (longest reference + 1) are scored, as
    sacrebleu scores them; one more word is refused."""
    from mtscore.metrics.ter import metric as ter_metric

    monkeypatch.setattr(ter_metric, "MAX_CELLS", 100)
    fits, too_long = " ".join("abcdefghi"), " ".join("abcdefghij")  # 10 x 10 and 11 x 11 cells
    hypothesis = " ".join("bacdefghi")
    assert corpus_ter([hypothesis], [[fits]]).score == pytest.approx(
        SacreTER().corpus_score([hypothesis], [[fits]]).score
    )
    with pytest.raises(InputError, match="segment 1: TER of a 10-word hypothesis against a 10-word reference"):
        corpus_ter([too_long], [[fits], [too_long]])


def test_references_tokenized_one_line_at_a_time_are_the_same():
    """``TERReferences`` takes each stream's words as lists or one line at a time (so that a block's
    words need not all be held at once): the same ids, lengths and statistics."""
    from mtscore.metrics.ter.metric import TERReferences

    streams = [["the cat sat", "a dog", None], ["the mat", "dogs and cats", "x"]]
    present = np.array([[line is not None for line in stream] for stream in streams])
    tokens = [[None if line is None else line.split() for line in stream] for stream in streams]
    listed = TERReferences(tokens, present)
    lazy = TERReferences(((None if line is None else line.split() for line in stream) for stream in streams), present)
    assert listed.vocabulary == lazy.vocabulary
    assert np.array_equal(listed.lengths, lazy.lengths)
    assert [[None if ids is None else ids.tolist() for ids in stream] for stream in lazy.ids] == [
        [None if ids is None else ids.tolist() for ids in stream] for stream in listed.ids
    ]
    hypotheses = [["cat", "the", "sat"], ["dog"], ["y"]]
    assert np.array_equal(listed.statistics(hypotheses), lazy.statistics(iter(hypotheses)))
