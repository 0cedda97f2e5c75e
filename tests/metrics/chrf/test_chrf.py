"""chrF and chrF++ (``mtscore.chrf``) against sacrebleu 2.6.0, the oracle: statistics equal as integers, scores to 1e-9.

Generated corpora cover every option (orders, beta, case, whitespace, eps smoothing), Unicode, whitespace,
punctuation, empty lines and missing references; the official WMT22 table gives every chrf row; float32
sums follow sacrebleu's bootstrap arithmetic; text and JSON lines equal sacrebleu's.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import cache
from pathlib import Path

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
sacrebleu = pytest.importorskip("sacrebleu")

from helpers import corpora as shared_corpora  # noqa: E402
from helpers import fixed  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402
from shared_data import find_wmt22, read_lines, references, system_output, wmt22_dir  # noqa: E402

from mtscore.core.signature import TOOL_VERSION, Signature  # noqa: E402
from mtscore.errors import InputError, LengthMismatchError  # noqa: E402
from mtscore.metrics import metric_class  # noqa: E402
from mtscore.metrics.chrf import (  # noqa: E402
    CHRF,
    CHRFScore,
    corpus_chrf,
    sentence_chrf,
    sentence_chrfs,
)
from mtscore.metrics.chrf.ngrams import key_passes  # noqa: E402

TOLERANCE = 1e-9
SPACES = [chr(code) for code in range(0x3001) if chr(code).isspace()]
PUNCTUATION = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Letters whose lowercase differs in length or context (İ, final sigma), combining marks, CJK, emoji, NUL.
LETTERS = [*list("abcABCéÉßẞİΣσςΑωЖж中文日本語"), "́", "😀", "\x00", "ȧ"]
FRAGMENTS = ["the", "The", "cat", "(hi)", "a.", ".a", "..", "e.g.", "3.14", "'s", "--", "x,y", "((a", "a))"]
PIECES = st.one_of(
    st.sampled_from(SPACES),
    st.sampled_from(PUNCTUATION),
    st.sampled_from(LETTERS),
    st.sampled_from(FRAGMENTS),
    st.just(" "),
)
LINES = st.one_of(st.lists(PIECES, max_size=20).map("".join), st.text(max_size=20))


def sacre(**options) -> SacreCHRF:
    return SacreCHRF(**options)


def sacre_statistics(hypotheses, streams, **options) -> np.ndarray:
    rows = sacre(**options)._extract_corpus_statistics(hypotheses, streams)
    return np.array(rows, dtype=np.int64).reshape(len(hypotheses), -1)


def corpora(max_segments: int = 5, max_streams: int = 3, lines=LINES):
    """(hypotheses, reference streams): some references None, never all of a segment's."""
    return shared_corpora(lines, max_segments, max_streams)


@st.composite
def options(draw, max_char_order: int = 8):
    char_order = draw(st.integers(0, max_char_order))
    word_order = draw(st.integers(0 if char_order else 1, 3))
    return {
        "char_order": char_order,
        "word_order": word_order,
        "beta": draw(st.sampled_from([2, 0, 1, 3, 0.5, 1.5])),
        "lowercase": draw(st.booleans()),
        "whitespace": draw(st.booleans()),
        "eps_smoothing": draw(st.booleans()),
    }


def ours_version(text: str) -> str:
    """sacrebleu's text (line or JSON) with our version string in place of its own."""
    version = sacrebleu.__version__
    return text.replace(f"version:{version}", f"version:{TOOL_VERSION}").replace(
        f'"version": "{version}"', f'"version": "{TOOL_VERSION}"'
    )


def check_corpus(hypotheses, streams, **options) -> None:
    """Statistics (exact), corpus score, sentence scores and signature line against sacrebleu."""
    metric = CHRF(**options)
    statistics = metric.segment_statistics(hypotheses, streams)
    assert statistics.dtype == np.int64
    assert np.array_equal(statistics, sacre_statistics(hypotheses, streams, **options))
    theirs_metric = sacre(**options)
    theirs = theirs_metric.corpus_score(hypotheses, streams)
    ours = metric.corpus_score(hypotheses, streams)
    assert ours.score == theirs.score  # bit for bit: the same arithmetic in the same order
    assert ours.name == theirs.name == metric.name
    signature = str(ours.signature)
    assert signature == ours_version(theirs_metric.get_signature().format())
    assert ours.format(signature=signature) == ours_version(theirs.format(signature=str(theirs_metric.get_signature())))
    sentences = metric.sentence_scores(hypotheses, streams)
    expected = [
        sacre(**options).sentence_score(hyp, [stream[i] for stream in streams]).score
        for i, hyp in enumerate(hypotheses)
    ]
    assert sentences.tolist() == expected


@fixed(max_examples=150)
@given(corpus=corpora(), chosen=options())
def test_generated_corpora_match_sacrebleu(corpus, chosen):
    check_corpus(*corpus, **chosen)


@fixed(max_examples=60)
@given(corpus=corpora(max_segments=3, max_streams=2, lines=st.text(max_size=40)), chosen=options(max_char_order=14))
def test_long_orders_and_any_unicode(corpus, chosen):
    """Orders up to 14: wide keys, taken in several sorts."""
    check_corpus(*corpus, **chosen)


@pytest.mark.parametrize("word_order", [0, 2])
def test_many_distinct_characters_use_multiword_keys(word_order):
    """Over a thousand distinct characters (as in Chinese or Japanese) need 11-bit symbols: 6-grams take two sorts."""
    rng = np.random.default_rng(7)
    alphabet = [chr(code) for code in range(0x4E00, 0x4E00 + 1500)]

    def line() -> str:
        return " ".join("".join(rng.choice(alphabet[:60] if rng.random() < 0.5 else alphabet, 3)) for _ in range(9))

    hypotheses = [line() for _ in range(40)]
    streams = [[line() for _ in range(40)] for _ in range(2)]
    streams[0][:20] = hypotheses[:20]  # plenty of matches
    metric = CHRF(streams, word_order=word_order)
    characters = metric._references.ngrams[0]
    positions = 2 * int(characters.lengths.sum())  # about as many hypothesis positions as reference ones
    assert len(key_passes(characters.vocabulary.size, characters.order, len(hypotheses), positions)) == 2
    assert np.array_equal(
        metric.segment_statistics(hypotheses), sacre_statistics(hypotheses, streams, word_order=word_order)
    )


@pytest.mark.parametrize(
    "hypothesis, reference",
    [
        ("a\ud800b c", "a\ud800b c\udfff"),  # lone surrogates
        ("x\x1cy\x85z\u3000w", "x y\x1dz w"),  # every kind of str.split() whitespace
        ("ΣΑΣ σας", "ΣΑΣ. (σας)"),  # lowercasing in context
        ("İstanbul", "i̇stanbul"),  # lowercasing that lengthens
        ("", ""),
        (" ", "\t\n"),
        ("a", ""),
        ("", "a"),
    ],
)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("whitespace", [False, True])
@pytest.mark.parametrize("word_order", [0, 2])
def test_edge_cases(hypothesis, reference, lowercase, whitespace, word_order):
    check_corpus([hypothesis], [[reference]], lowercase=lowercase, whitespace=whitespace, word_order=word_order)


def test_word_split_is_sacrebleus():
    """chrF++ words: one punctuation mark off the end, else off the start (so '(hi)' gives '(hi' and ')')."""
    words = ["(hi)", "a.", ".a", "..", ".", "((a", "a))", "'s", "e.g.", "x,y", "-", "-a-", "a", "\u00a0a."]
    for word in words:
        hyp, ref = f"z {word} z", f"z {word} z"
        assert np.array_equal(
            CHRF(word_order=1, char_order=0).segment_statistics([hyp], [[ref]]),
            sacre_statistics([hyp], [[ref]], word_order=1, char_order=0),
        )
    # Reference pieces that are themselves splittable words in the hypothesis.
    check_corpus(["(hi x ((a a.."], [["(hi) x ((a) a..."]], word_order=2)


def test_best_reference_ties_go_to_the_first():
    """Per segment the reference with the best sentence chrF wins, the first of equals: here every reference
    scores 0 (no shared character) but their statistics differ, so the order of the streams shows."""
    hypotheses = ["abc", "abc ab", "", "abcd"]
    streams = [["xy", "abx", "uvw", "abcd"], ["xyzw", "ab c", "u", "abcd "]]
    for order in (streams, streams[::-1]):
        statistics = CHRF().segment_statistics(hypotheses, order)
        assert np.array_equal(statistics, sacre_statistics(hypotheses, order))
    first, second = (CHRF().segment_statistics(hypotheses, order) for order in (streams, streams[::-1]))
    assert not np.array_equal(first[0], second[0]) and not np.array_equal(first[2], second[2])


@fixed(max_examples=200)
@given(
    rows=st.integers(1, 6).flatmap(
        lambda orders: st.lists(
            st.lists(
                st.one_of(st.just(0), st.integers(0, 5), st.integers(0, 2**31)),
                min_size=3 * orders,
                max_size=3 * orders,
            ),
            min_size=1,
            max_size=4,
        )
    ),
    beta=st.sampled_from([2, 0, 1, 3, 0.5, 1.5, 0.3]),
    eps_smoothing=st.booleans(),
)
def test_scores_of_sums_int_and_float32(rows, beta, eps_smoothing):
    """Any statistics, zeros included, bit for bit: Python arithmetic for integer sums, sacrebleu's float32
    arithmetic (NumPy float32 scalars mixed with Python floats such as its 1e-16) for float32 sums."""
    orders = len(rows[0]) // 3
    options = {"char_order": orders, "beta": beta, "eps_smoothing": eps_smoothing}
    ours, theirs = CHRF(**options), sacre(**options)
    sums = np.array(rows, dtype=np.int64)
    expected = [theirs._compute_score_from_stats([int(v) for v in row]).score for row in sums]
    assert ours.scores_of_sums(sums).tolist() == expected
    assert ours.scores_of_sums(sums.astype(np.float64)).tolist() == expected
    sums32 = sums.astype(np.float32)
    expected32 = [theirs._compute_score_from_stats(row).score for row in sums32]
    scores32 = ours.scores_of_sums(sums32)
    assert scores32.dtype == np.array(expected32).dtype  # sacrebleu's array of resampled scores: float32 unless mixed
    assert scores32.tolist() == [float(score) for score in expected32]


# --- WMT22 -------------------------------------------------------------------------------------------------

SCORES = Path("scores") / "automatic-scores.tsv"
N_CHRF_ROWS = 455  # chrf-all 191, chrf-A 170, chrf-B 64, chrf-C 21, chrf-stud 9
STALE = {("ru-sah", "Lan-Bridge")}  # scored upstream against an earlier, misordered reference (README)


@cache
def chrf_rows() -> dict[tuple[str, str], list[tuple[str, float]]]:
    """(pair, metric) -> [(system, official score)] for every ``chrf-*`` row."""
    header, *lines = read_lines(wmt22_dir() / SCORES)
    assert header.split("\t") == ["pair", "system", "id", "is_constrained", "metric", "score"]
    groups = defaultdict(list)
    for line in lines:
        pair, system, _, _, metric, score = line.split("\t")
        if metric.startswith("chrf-"):
            groups[pair, metric].append((system, float(score)))
    return dict(groups)


def _pairs() -> list:
    folder = find_wmt22()
    if folder is None:
        return [pytest.param(None, id="wmt22-data-missing")]
    return sorted({pair for pair, _ in chrf_rows()})


@cache
def hypotheses_of(pair: str, system: str) -> tuple[str, ...]:
    return tuple(read_lines(system_output(pair, system)))


@cache
def streams_of(pair: str, refset: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(read_lines(path)) for path in references(pair, refset))


@pytest.mark.parametrize("pair", _pairs())
def test_official_chrf(pair):
    """Every chrf row of the official WMT22 table: -X rows against reference X, -all against all (in reverse order)."""
    wmt22_dir()
    groups = {metric: rows for (row_pair, metric), rows in chrf_rows().items() if row_pair == pair}
    mismatches = []
    for metric, rows in groups.items():
        scorer = CHRF([list(stream) for stream in streams_of(pair, metric.removeprefix("chrf-"))])
        for system, official in rows:
            ours = scorer.corpus_score(list(hypotheses_of(pair, system))).score
            if (pair, system) in STALE:
                if abs(ours - official) <= 1:
                    mismatches.append(f"{metric} {system}: stale row should differ: {ours!r} vs {official!r}")
            elif abs(ours - official) > TOLERANCE:
                mismatches.append(f"{metric} {system}: ours={ours!r} official={official!r}")
    assert not mismatches, "\n".join(mismatches)


def test_every_official_chrf_row_is_checked():
    rows = chrf_rows()
    assert sum(map(len, rows.values())) == N_CHRF_ROWS
    assert sorted({pair for pair, _ in rows}) == _pairs()
    assert sum((pair, system) in STALE for (pair, _), group in rows.items() for system, _ in group) == 2


@pytest.fixture(scope="module")
def en_de():
    wmt22_dir()
    streams = [list(stream) for stream in streams_of("en-de", "all")]
    assert len(streams) == 2
    return streams


@pytest.mark.parametrize(
    "word_order, n_refs, system, segments",
    [
        (2, 2, "Online-B", None),
        (0, 2, "JDExploreAcademy", 1000),
        (0, 1, "Online-B", 1000),
        (2, 1, "JDExploreAcademy", 1000),
    ],
)
def test_wmt22_en_de_statistics_one_and_two_references(en_de, word_order, n_refs, system, segments):
    """Segment statistics of chrF and chrF++ equal sacrebleu's, with both references and with one (B);
    all segments for chrF++ with two references, the first thousand otherwise (a shorter run of the oracle)."""
    refs = [stream[:segments] for stream in en_de[-n_refs:]]
    hyp = list(hypotheses_of("en-de", system))[:segments]
    ours = CHRF(refs, word_order=word_order)
    statistics = ours.segment_statistics(hyp)
    theirs = sacre(word_order=word_order)
    expected = np.array(theirs._extract_corpus_statistics(hyp, refs), dtype=np.int64)
    assert np.array_equal(statistics, expected)
    expected_score = theirs._compute_score_from_stats(expected.sum(axis=0).tolist()).score
    assert abs(ours.score_statistics(statistics).score - expected_score) <= TOLERANCE
    assert abs(corpus_chrf(hyp, refs, word_order=word_order).score - expected_score) <= TOLERANCE


def test_wmt22_sentence_scores_every_segment(en_de):
    """``sentence_chrfs`` equals a loop of sacrebleu's ``sentence_score`` on every segment of one system."""
    hyp = list(hypotheses_of("en-de", "Online-W"))
    theirs = sacre()
    expected = [theirs.sentence_score(h, [stream[i] for stream in en_de]).score for i, h in enumerate(hyp)]
    assert np.allclose(sentence_chrfs(hyp, en_de), expected, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("word_order, eps_smoothing", [(0, False), (2, False), (0, True), (2, True)])
def test_wmt22_bootstrap_float32_sums(en_de, word_order, eps_smoothing):
    """sacrebleu's bootstrap: float32 sums of resampled segment statistics, scored on float32."""
    metric = CHRF(en_de, word_order=word_order, eps_smoothing=eps_smoothing)
    statistics = metric.segment_statistics(list(hypotheses_of("en-de", "Lan-Bridge")))
    stats32 = np.array(statistics, dtype="float32")
    indices = np.random.default_rng(12345).choice(len(stats32), size=(50, len(stats32)), replace=True)
    sums = np.stack([resample.sum(0) for resample in stats32[indices]])
    theirs = sacre(word_order=word_order, eps_smoothing=eps_smoothing)
    expected = [float(theirs._compute_score_from_stats(row).score) for row in sums]
    assert metric.scores_of_sums(sums).tolist() == expected
    assert len(set(expected)) > 1


# --- API, protocol, text forms ----------------------------------------------------------------------------


def test_metric_protocol():
    streams = [["the cat sat on the mat", "hello world"], ["a cat sat", None]]
    hyps = ["the cat sat on a mat", "hello there world"]
    metric = CHRF(streams, word_order=2)
    assert metric_class("chrf") is CHRF
    assert metric.name == "chrF2++" and metric.higher_is_better is True
    statistics = metric.segment_statistics(hyps)
    assert statistics.shape == (2, 24) and statistics.dtype == np.int64
    corpus = metric.corpus_score(hyps)
    assert metric.score_statistics(statistics).score == corpus.score
    assert str(metric.score_statistics(statistics).signature) == str(corpus.signature)
    assert corpus.signature.info["nrefs"] == "var"
    both = metric.scores_of_sums(np.stack([statistics.sum(0), statistics[0]]))
    assert both.shape == (2,) and both[0] == corpus.score
    assert both[1] == metric.sentence_scores(hyps)[0]
    # Prepared references serve any number of systems, unchanged by unseen characters and words.
    for other in (["zzz qqq!", "(hello) world."], hyps):
        assert metric.corpus_score(other).score == corpus_chrf(other, streams, word_order=2).score


def test_names_follow_sacrebleu():
    for options, name in [
        ({}, "chrF2"),
        ({"word_order": 2}, "chrF2++"),
        ({"word_order": 1, "beta": 3}, "chrF3+"),
        ({"beta": 1}, "chrF1"),
        ({"beta": 0.5, "word_order": 3}, "chrF0.5+++"),
    ]:
        assert CHRF(**options).name == sacre(**options).corpus_score(["a b"], [["a c"]]).name == name


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"word_order": 2, "lowercase": True},
        {"whitespace": True, "eps_smoothing": True},
        {"char_order": 4, "word_order": 1, "beta": 3},
    ],
)
@pytest.mark.parametrize("width", [0, 1, 2, 4])
def test_format_and_json_equal_sacrebleus(options, width):
    hyps, refs = ["the cat sat on a mat", "hello"], [["the cat sat on the mat", "hello!"]]
    ours = corpus_chrf(hyps, refs, **options)
    theirs_metric = sacre(**options)
    theirs = theirs_metric.corpus_score(hyps, refs)
    long, short = theirs_metric.get_signature().format(), theirs_metric.get_signature().format(short=True)
    for signature in (long, short, ""):
        expected = ours_version(theirs.format(width, False, signature))
        assert ours.format(width, signature=ours_version(signature)) == expected
    assert ours.format(width, score_only=True) == theirs.format(width, True)
    assert ours.to_json(width) == ours_version(theirs.format(width, False, long, is_json=True))
    assert json.loads(ours.to_json(width))["version"] == TOOL_VERSION
    assert str(ours) == theirs.format()
    assert ours.signature.format(short=True) == ours_version(short).replace(
        f"v:{sacrebleu.__version__}", f"v:{TOOL_VERSION}"
    )


def test_score_object():
    score = sentence_chrf("the cat", ["the cat", "a dog"])
    assert isinstance(score, CHRFScore) and score.score == 100.0
    assert isinstance(score.signature, Signature)
    assert str(score.signature) == f"nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{TOOL_VERSION}"
    assert score.to_dict() == {"name": "chrF2", "score": 100.0, "char_order": 6, "word_order": 0, "beta": 2}
    eps = sentence_chrf("the cat", ["the dog"], eps_smoothing=True, char_order=3, word_order=2, beta=1)
    assert str(eps.signature) == f"nrefs:1|case:mixed|eff:no|nc:3|nw:2|space:no|version:{TOOL_VERSION}"
    assert (
        abs(
            eps.score
            - sacre(eps_smoothing=True, char_order=3, word_order=2, beta=1).sentence_score("the cat", ["the dog"]).score
        )
        <= TOLERANCE
    )
    with pytest.raises(AttributeError):
        score.score = 1.0


def test_sentence_functions_agree():
    hyps, streams = ["a b c", "d e f", ""], [["a b", "d e g", "x"], ["a b c", None, ""]]
    scores = sentence_chrfs(hyps, streams, word_order=2)
    for i, hyp in enumerate(hyps):
        refs = [stream[i] for stream in streams]
        assert scores[i] == sentence_chrf(hyp, refs, word_order=2).score
        assert scores[i] == CHRF(word_order=2).sentence_scores([hyp], [[r] for r in refs])[0]


# --- errors -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        ({"char_order": -1}, "char_order must be a non-negative integer"),
        ({"word_order": 1.5}, "word_order must be a non-negative integer"),
        ({"char_order": True}, "char_order must be a non-negative integer"),
        ({"char_order": 0, "word_order": 0}, "both 0"),
        ({"beta": -1}, "beta must be a finite number >= 0"),
        ({"beta": float("nan")}, "beta must be a finite number >= 0"),
        ({"beta": "2"}, "beta must be a finite number >= 0"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InputError, match=message):
        CHRF(**options)
    with pytest.raises(InputError, match=message):
        corpus_chrf(["a"], [["a"]], **options)


def test_bad_inputs():
    with pytest.raises(LengthMismatchError, match="2 hypotheses but reference stream 1 has 1"):
        corpus_chrf(["a", "b"], [["a"]])
    with pytest.raises(LengthMismatchError, match="prepared references have 1 segment"):
        CHRF([["a"]]).corpus_score(["a", "b"])
    with pytest.raises(InputError, match="no references"):
        CHRF().corpus_score(["a"])
    with pytest.raises(InputError, match="no references"):
        CHRF().segment_statistics(["a"])
    with pytest.raises(InputError, match="single str"):
        corpus_chrf("a", [["a"]])
    with pytest.raises(InputError, match="hypothesis 1 is NoneType"):
        corpus_chrf(["a", None], [["a", "b"]])
    with pytest.raises(InputError, match="list of reference streams"):
        corpus_chrf(["a"], ["a"])
    with pytest.raises(InputError, match="segment 0 has no reference"):
        corpus_chrf(["a"], [[None], [None]])
    with pytest.raises(InputError, match="no hypotheses"):
        corpus_chrf([], [[]])
    with pytest.raises(InputError, match="hypothesis must be a str"):
        sentence_chrf(["a"], ["a"])
    with pytest.raises(InputError, match="single str"):
        sentence_chrf("a", "a")
    with pytest.raises(InputError, match="18 columns"):
        CHRF().score_statistics(np.zeros((2, 17), dtype=np.int64))
