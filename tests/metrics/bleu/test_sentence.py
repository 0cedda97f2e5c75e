"""Sentence-level BLEU for every segment at once: ``mtscore.sentence_scores``.

The oracle is sacrebleu 2.6.0, segment by segment: ``sacrebleu.sentence_bleu`` (its sentence
defaults: exp smoothing, effective order) and ``sacrebleu.metrics.BLEU(...).sentence_score`` for the
other options. Its integer statistics come from ``BLEU._extract_corpus_statistics`` (the row
``[hyp_len, ref_len, correct_1..N, total_1..N]``), read apart from the score because its add-k
smoothing adds k to the counts it returns.

- WMT22 en-de (data in ../shared, see ``shared_data``): every segment of three systems, with
  reference A alone and with both references.
- Generated text (Hypothesis, ``derandomize=True``, no example database): every sacrebleu smoothing,
  with and without effective order, max order 1-5, tokenizers 13a and none, 1-3 reference streams
  with missing references.
- Token ids: lists of id sequences, 2-D arrays (right, left or scattered padding, dropped through
  ``pad_id``), 3-D reference arrays, int32, negative and very large ids must score exactly as the
  same tokens written as text (``str(id)`` joined by spaces) with ``tokenize="none"``.
- torch tensors (CPU, and CUDA when present) give a tensor of scores equal to the NumPy path.
- Errors: a ``InputError`` / ``LengthMismatchError`` with a clear message for bad input.
"""

from __future__ import annotations

import itertools
import logging
from functools import cache

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
sacrebleu = pytest.importorskip("sacrebleu")

from helpers import corpora as shared_corpora  # noqa: E402
from helpers import fixed  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402
from shared_data import read_lines, references, system_output  # noqa: E402

import mtscore  # noqa: E402
from mtscore import InputError, LengthMismatchError  # noqa: E402

TOLERANCE = 1e-9
# (method, value): sacrebleu's four methods with their defaults, floor and add-k with another value too.
SMOOTHINGS = [("none", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("add-k", 2), ("exp", None)]
SMOOTHING_IDS = [method if value is None else f"{method}[{value}]" for method, value in SMOOTHINGS]
MAX_ORDERS = [1, 2, 3, 4, 5]


@pytest.fixture(autouse=True)
def quiet_sacrebleu():
    """sacrebleu logs a warning for each sentence score without effective order."""
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------


@cache
def sacre(tokenize="13a", smooth="exp", smooth_value=None, max_order=4, effective_order=True) -> SacreBLEU:
    """A sacrebleu metric for these options (its state, such as ``num_refs``, only affects its signature)."""
    return SacreBLEU(
        tokenize=tokenize,
        smooth_method=smooth,
        smooth_value=smooth_value,
        max_ngram_order=max_order,
        effective_order=effective_order,
    )


def segment_references(streams, index: int) -> list[str]:
    """The references of segment ``index``, missing ones (``None``) left out."""
    return [stream[index] for stream in streams if stream[index] is not None]


def sacre_row(hypothesis: str, refs: list[str], tokenize: str, max_order: int) -> list[int]:
    """sacrebleu's integer statistics of one segment: hyp_len, ref_len, correct_1..N, total_1..N."""
    metric = sacre(tokenize=tokenize, max_order=max_order)
    return [int(x) for x in metric._extract_corpus_statistics([hypothesis], [[r] for r in refs])[0]]


def ours_row(stats: mtscore.Stats, index: int) -> list[int]:
    """Our statistics of segment ``index`` in sacrebleu's row layout."""
    return [
        int(stats.hyp_len[index]),
        int(stats.ref_len[index]),
        *stats.matches[index].tolist(),
        *stats.totals[index].tolist(),
    ]


def check_against_sacrebleu(
    hypotheses, streams, tokenize="13a", smooth="exp", smooth_value=None, max_order=4, effective_order=True
):
    """``sentence_scores`` equals sacrebleu's sentence score on every segment (score, precisions, bp, stats)."""
    result = mtscore.sentence_scores(
        hypotheses,
        streams,
        tokenize=tokenize,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        effective_order=effective_order,
    )
    assert len(result) == len(hypotheses)
    assert result.stats.max_order == max_order
    metric = sacre(tokenize, smooth, smooth_value, max_order, effective_order)
    for index, hypothesis in enumerate(hypotheses):
        refs = segment_references(streams, index)
        theirs = metric.sentence_score(hypothesis, refs)
        where = f"segment {index} {hypothesis!r} vs {refs!r}"
        assert abs(result.scores[index] - theirs.score) <= TOLERANCE, (where, result.scores[index], theirs.score)
        assert abs(result.bp[index] - theirs.bp) <= TOLERANCE, where
        np.testing.assert_allclose(result.precisions[index], theirs.precisions, rtol=0, atol=TOLERANCE, err_msg=where)
        assert ours_row(result.stats, index) == sacre_row(hypothesis, refs, tokenize, max_order), where


# ---------------------------------------------------------------------------
# WMT22 en-de: every segment of real system outputs
# ---------------------------------------------------------------------------

WMT_PAIR = "en-de"
WMT_SYSTEMS = ["JDExploreAcademy", "Online-B", "OpenNMT"]
WMT_REFERENCES = {"ref-A": "A", "ref-all": "all"}  # "all": B and A


@cache
def wmt_hypotheses(system: str) -> tuple[str, ...]:
    return tuple(read_lines(system_output(WMT_PAIR, system)))


@cache
def wmt_references(name: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(read_lines(path)) for path in references(WMT_PAIR, name))


@cache
def wmt_metric(name: str) -> mtscore.BLEU:
    """Sentence-level defaults with the references prepared once, shared by every system."""
    return mtscore.BLEU([list(stream) for stream in wmt_references(name)], effective_order=True)


@pytest.mark.parametrize("name", WMT_REFERENCES.values(), ids=WMT_REFERENCES.keys())
@pytest.mark.parametrize("system", WMT_SYSTEMS)
def test_wmt22_every_segment_matches_sacrebleu(system, name):
    """Scores, brevity penalties, precisions and statistics of every segment, against sacrebleu.sentence_bleu."""
    hypotheses = list(wmt_hypotheses(system))
    streams = [list(stream) for stream in wmt_references(name)]
    assert len(streams) == (1 if name == "A" else 2)
    assert all(len(stream) == len(hypotheses) for stream in streams)

    result = mtscore.sentence_scores(hypotheses, streams)
    assert len(result) == len(hypotheses) == 2037
    assert f"nrefs:{len(streams)}|" in str(result.signature) and "|eff:yes|tok:13a|" in str(result.signature)
    bad = []
    for index, hypothesis in enumerate(hypotheses):
        refs = segment_references(streams, index)
        theirs = sacrebleu.sentence_bleu(hypothesis, refs)
        # exp smoothing leaves sacrebleu's counts as they were counted.
        row = [theirs.sys_len, theirs.ref_len, *theirs.counts, *theirs.totals]
        if (
            abs(result.scores[index] - theirs.score) > TOLERANCE
            or ours_row(result.stats, index) != row
            or abs(result.bp[index] - theirs.bp) > TOLERANCE
            or not np.allclose(result.precisions[index], theirs.precisions, rtol=0, atol=TOLERANCE)
        ):
            bad.append(
                f"{index}: ours {result.scores[index]!r} {ours_row(result.stats, index)}, "
                f"sacrebleu {theirs.score!r} {row}"
            )
    assert not bad, f"{len(bad)} segments differ:\n" + "\n".join(bad[:10])

    # Prepared references give the same result.
    prepared = wmt_metric(name).sentence_scores(hypotheses)
    np.testing.assert_array_equal(prepared.scores, result.scores)
    assert prepared.stats == result.stats


@pytest.mark.parametrize("name", WMT_REFERENCES.values(), ids=WMT_REFERENCES.keys())
def test_wmt22_sample_statistics_match_sacrebleu_extraction(name):
    """A sample of segments: our statistics are sacrebleu's ``_extract_corpus_statistics`` rows, at max order 5."""
    hypotheses = list(wmt_hypotheses("Online-B"))
    streams = [list(stream) for stream in wmt_references(name)]
    result = mtscore.sentence_scores(hypotheses, streams, max_order=5)
    sample = [*list(range(0, len(hypotheses), 97)), len(hypotheses) - 1]
    for index in sample:
        refs = segment_references(streams, index)
        assert ours_row(result.stats, index) == sacre_row(hypotheses[index], refs, "13a", 5), index


@pytest.mark.parametrize("name", WMT_REFERENCES.values(), ids=WMT_REFERENCES.keys())
def test_wmt22_segment_stats_sum_to_the_corpus_score(name):
    """The corpus score of the per-segment statistics is ``corpus_bleu`` (and sacrebleu's corpus score)."""
    streams = [list(stream) for stream in wmt_references(name)]
    corpus_metric = mtscore.BLEU()  # corpus defaults: no effective order
    for system in WMT_SYSTEMS[:2]:
        hypotheses = list(wmt_hypotheses(system))
        result = mtscore.sentence_scores(hypotheses, streams)
        from_stats = corpus_metric.score_statistics(result.stats, nrefs=len(streams))
        corpus = mtscore.corpus_bleu(hypotheses, streams)
        assert from_stats == corpus  # every field but the signature, exactly
        assert str(from_stats.signature) == str(corpus.signature)
        theirs = SacreBLEU().corpus_score(hypotheses, streams)
        assert abs(corpus.score - theirs.score) <= TOLERANCE
        assert result.stats.total() == corpus_metric.statistics(hypotheses, streams).total()


# ---------------------------------------------------------------------------
# Generated text against sacrebleu
# ---------------------------------------------------------------------------

# Words, punctuation and entities that the 13a tokenizer splits or rewrites.
WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "The",
    "Cat",
    "dog",
    ".",
    ",",
    "!",
    "-",
    "1.5",
    "2,000",
    "don't",
    "U.S.",
    "&amp;",
    "(x)",
    "é",
    "über",
]


def corpora(max_segments=5, max_streams=3):
    """(hypotheses, reference streams) with missing references, every segment keeping at least one."""
    return shared_corpora(st.lists(st.sampled_from(WORDS), max_size=9).map(" ".join), max_segments, max_streams)


@pytest.mark.parametrize("effective_order", [True, False], ids=["eff-yes", "eff-no"])
@pytest.mark.parametrize(("smooth", "smooth_value"), SMOOTHINGS, ids=SMOOTHING_IDS)
@fixed(max_examples=15)
@given(corpus=corpora(), tokenize=st.sampled_from(["13a", "none"]))
def test_generated_text_matches_sacrebleu(corpus, tokenize, smooth, smooth_value, effective_order):
    """Every segment, every max order 1-5, for one smoothing and effective order."""
    for max_order in MAX_ORDERS:
        check_against_sacrebleu(
            *corpus,
            tokenize=tokenize,
            smooth=smooth,
            smooth_value=smooth_value,
            max_order=max_order,
            effective_order=effective_order,
        )


def test_default_is_sacrebleu_sentence_bleu():
    """With no options, sentence_scores is sacrebleu.sentence_bleu (exp smoothing, effective order)."""
    hypotheses = ["the cat", "the cat sat on the mat", "", "a", "dog dog dog dog"]
    streams = [["the cat sat", "the cat sat on a mat", "x", None, "dog"], ["a cat", None, "", "a", "dog dog"]]
    result = mtscore.sentence_scores(hypotheses, streams)
    expected = [sacrebleu.sentence_bleu(h, segment_references(streams, i)).score for i, h in enumerate(hypotheses)]
    np.testing.assert_allclose(result.scores, expected, rtol=0, atol=TOLERANCE)
    assert "|eff:yes|" in str(result.signature) and str(result.signature).startswith("nrefs:var|")
    # effective_order=False is sacrebleu.sentence_bleu(use_effective_order=False).
    plain = mtscore.sentence_scores(hypotheses, streams, effective_order=False)
    expected = [
        sacrebleu.sentence_bleu(h, segment_references(streams, i), use_effective_order=False).score
        for i, h in enumerate(hypotheses)
    ]
    np.testing.assert_allclose(plain.scores, expected, rtol=0, atol=TOLERANCE)


def test_prepared_references_score_several_systems():
    """``BLEU(references, effective_order=True).sentence_scores`` equals ``sentence_scores`` for each system."""
    streams = [["the cat sat on the mat", "a b c d"], ["a cat sat on a mat", None]]
    metric = mtscore.BLEU(streams, effective_order=True)
    for hypotheses in (["the cat sat", "a b c d"], ["mat on sat cat the", ""]):
        ours = metric.sentence_scores(hypotheses)
        direct = mtscore.sentence_scores(hypotheses, streams)
        np.testing.assert_array_equal(ours.scores, direct.scores)
        assert ours.stats == direct.stats


def test_len_items_and_empty_hypothesis():
    """``len`` is the number of segments, ``result[i]`` a BLEUScore, and an empty hypothesis scores 0."""
    hypotheses = ["", "the cat sat on the mat", "   "]
    result = mtscore.sentence_scores(hypotheses, [["the cat sat on the mat"] * 3])
    assert len(result) == 3 == len(list(result))
    assert result.scores[0] == 0.0 and result.scores[2] == 0.0
    assert result.scores[1] == pytest.approx(100.0, abs=TOLERANCE)
    assert result.stats.hyp_len.tolist() == [0, 6, 0]
    item = result[1]
    assert isinstance(item, mtscore.BLEUScore)
    assert item.score == result.scores[1] == sacrebleu.sentence_bleu(hypotheses[1], ["the cat sat on the mat"]).score
    assert (item.sys_len, item.ref_len, item.counts, item.totals) == (6, 6, [6, 5, 4, 3], [6, 5, 4, 3])
    assert result[0].score == 0.0 and result[0].bp == 0.0
    for smooth, value in SMOOTHINGS:
        assert mtscore.sentence_scores([""], [["a b"]], smooth=smooth, smooth_value=value).scores.tolist() == [0.0]


# ---------------------------------------------------------------------------
# Token ids: the same as text tokens str(id) with tokenize="none"
# ---------------------------------------------------------------------------

PAD = 0  # never a real token in the cases below
BIG = 2**40

# name: (hypotheses, reference streams); each a list of id lists, None for a missing reference.
ID_CASES = {
    "one-reference": (
        [[5, 6, 7, 8, 9], [5, 6, 7], [11, 12, 13, 14, 15, 16]],
        [[[5, 6, 7, 8, 9], [7, 6, 5, 9], [11, 12, 13, 14, 16, 15, 17]]],
    ),
    "several-references": (
        [[1, 2, 3, 4, 5, 6], [7, 7, 7, 7], [3, 1, 2]],
        [
            [[1, 2, 3, 4], [7, 8], [3, 1, 2, 9]],
            [[2, 3, 4, 5, 6, 1, 2], [7, 7, 7], [1, 2]],
            [[6, 5, 4, 3, 2, 1], [8, 7, 7, 7, 7, 8], [3, 1]],
        ],
    ),
    "missing-references": (
        [[1, 2, 3, 4], [4, 3, 2, 1], [1, 1, 2, 2, 3]],
        [[[1, 2, 3, 4], None, [1, 1, 2, 2]], [None, [4, 3, 2], [1, 2, 3]]],
    ),
    "empty-rows": (
        [[], [1, 2, 3], [], [4, 5]],
        [[[1, 2], [1, 2, 3], [], []], [[3], [], [], [4, 5]]],
    ),
    "unseen-hypothesis-ids": (
        [[100, 101, 102], [1, 2, 100, 3, 4], [1, 2, 3, 4, 5]],
        [[[1, 2, 3], [1, 2, 3, 4], [5, 4, 3, 2, 1]]],
    ),
    "negative-and-huge-ids": (
        [[-1, BIG, -BIG, 2**62, 3], [-5, -5, -1, BIG + 1], [BIG, BIG, BIG]],
        [[[-1, BIG, -BIG, 2**62], [-5, -1, BIG + 1, -5], [BIG, -1, BIG]], [[BIG, -1], [-5, -5, -1, BIG + 2], [2**62]]],
    ),
}


def as_text(rows) -> list:
    """Id rows as text lines (``None`` kept): what ``tokenize="none"`` must see."""
    return [None if row is None else " ".join(map(str, row)) for row in rows]


def text_result(hypotheses, streams, **options):
    return mtscore.sentence_scores(as_text(hypotheses), [as_text(s) for s in streams], tokenize="none", **options)


def padded(rows, layout: str, dtype=np.int64) -> np.ndarray:
    """A 2-D array of ``rows`` padded with PAD: ``right``, ``left`` or ``scattered`` (pads
    at the start, between tokens and at the end; dropped wherever they occur)."""
    if layout == "scattered":
        rows = [[PAD, *row[:1], PAD, PAD, *row[1:], PAD] for row in rows]
    width = max(len(row) for row in rows) + 1  # at least one pad in every row
    array = np.full((len(rows), width), PAD, dtype=dtype)
    for i, row in enumerate(rows):
        if layout == "left":
            array[i, width - len(row) :] = row
        else:
            array[i, : len(row)] = row
    return array


# layout: (hypotheses, references) builders from the id lists of a case; pad_id is PAD for padded layouts.
def _lists(rows):
    return [None if row is None else list(row) for row in rows]


def _arrays(rows):
    return [None if row is None else np.asarray(row, dtype=np.int64) for row in rows]


LAYOUTS = {
    "lists": (_lists, lambda streams: [_lists(s) for s in streams], None),
    "lists-of-arrays": (_arrays, lambda streams: [_arrays(s) for s in streams], None),
    "right-padded": (lambda h: padded(h, "right"), lambda streams: [padded(s, "right") for s in streams], PAD),
    "left-padded": (lambda h: padded(h, "left"), lambda streams: [padded(s, "left") for s in streams], PAD),
    "scattered-pads": (
        lambda h: padded(h, "scattered"),
        lambda streams: [padded(s, "scattered") for s in streams],
        PAD,
    ),
    "3d-references": (
        lambda h: padded(h, "right"),
        lambda streams: np.stack(_same_width([padded(s, "right") for s in streams])),
        PAD,
    ),
}


def _same_width(arrays: list) -> list:
    """Right-pad 2-D arrays with PAD to one width (to stack them as a 3-D array)."""
    width = max(a.shape[1] for a in arrays)
    return [np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=PAD) for a in arrays]


def id_inputs(case: str, layout: str):
    """(hypotheses, references, pad_id) of ``case`` in ``layout``; skips arrays for missing references."""
    hypotheses, streams = ID_CASES[case]
    make_hypotheses, make_references, pad_id = LAYOUTS[layout]
    if pad_id is not None and any(row is None for s in streams for row in s):
        pytest.skip("a 2-D array cannot hold a missing reference")
    return make_hypotheses(hypotheses), make_references(streams), pad_id


def assert_same(ids_result, text_result_):
    """Exactly the same statistics and scores (the formula runs on equal statistics)."""
    assert ids_result.stats == text_result_.stats
    np.testing.assert_array_equal(np.asarray(ids_result.scores), text_result_.scores)
    np.testing.assert_array_equal(ids_result.precisions, text_result_.precisions)
    np.testing.assert_array_equal(ids_result.bp, text_result_.bp)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", ID_CASES)
def test_ids_equal_text(case, layout):
    """Token ids score as their text ``str(id)`` with ``tokenize="none"``, in every layout."""
    hypotheses, references_, pad_id = id_inputs(case, layout)
    expected = text_result(*ID_CASES[case])
    result = mtscore.sentence_scores(hypotheses, references_, pad_id=pad_id)
    assert len(result) == len(ID_CASES[case][0])
    assert isinstance(result.scores, np.ndarray) and result.scores.dtype == np.float64
    assert_same(result, expected)
    signature = str(result.signature)
    assert "|tok:ids|" in signature and str(expected.signature).replace("tok:none", "tok:ids") == signature


@pytest.mark.parametrize("case", ID_CASES)
def test_ids_equal_text_other_options(case):
    """Other smoothings, effective order off and max orders 1-5 (lists of lists)."""
    hypotheses, streams = ID_CASES[case]
    for (smooth, value), effective_order, max_order in itertools.product(SMOOTHINGS, [True, False], MAX_ORDERS):
        options = {"smooth": smooth, "smooth_value": value, "effective_order": effective_order, "max_order": max_order}
        assert_same(
            mtscore.sentence_scores(hypotheses, streams, **options), text_result(hypotheses, streams, **options)
        )


@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.uint16, np.uint32, np.int64])
def test_ids_other_integer_dtypes(dtype):
    """Narrower integer arrays (int32 from a tokenizer, unsigned types) score as int64 ones."""
    hypotheses, streams = ID_CASES["several-references"]
    expected = text_result(hypotheses, streams)
    result = mtscore.sentence_scores(
        padded(hypotheses, "right", dtype), [padded(s, "left", dtype) for s in streams], pad_id=PAD
    )
    assert_same(result, expected)
    as_lists = mtscore.sentence_scores(
        [np.asarray(h, dtype=dtype) for h in hypotheses], [[np.asarray(r, dtype=dtype) for r in s] for s in streams]
    )
    assert_same(as_lists, expected)


def test_ids_without_pad_id_keep_every_token():
    """pad_id=None keeps the padding as ordinary tokens (here "0")."""
    hypotheses, streams = ID_CASES["one-reference"]
    array = padded(hypotheses, "right")
    refs = [padded(streams[0], "right")]
    result = mtscore.sentence_scores(array, refs, pad_id=None)
    assert_same(result, text_result(array.tolist(), [refs[0].tolist()]))
    assert result.stats.hyp_len.tolist() == [array.shape[1]] * len(array)


@pytest.mark.parametrize(
    "hypotheses, references, what",
    [
        (np.array([[1, 2, 0]]), [[[1, 2]]], "hypotheses"),
        ([[1, 2]], [np.array([[1, 2, 0]])], "reference stream 1"),
        ([[1, 2]], np.array([[[1, 2, 0]]]), "reference stream 1"),
    ],
    ids=["2-D hypotheses", "2-D references", "3-D references"],
)
def test_arrays_need_pad_id_said(hypotheses, references, what):
    """Issue 18, item 7: a padded array scored without ``pad_id`` counted its padding as tokens;
    arrays must now say it (an id, or None), lists of sequences need not."""
    for call in (mtscore.sentence_scores, mtscore.corpus_bleu, lambda h, r: mtscore.BLEU(r).corpus_score(h)):
        with pytest.raises(InputError, match=f"^{what}: a 2-D array of token ids needs pad_id: .*pad_id=None"):
            call(hypotheses, references)
    assert mtscore.corpus_bleu([[1, 2, 3, 4]], [[[1, 2, 3, 4]]]).score == pytest.approx(100.0)  # lists: no pad_id


def test_ids_pad_id_in_lists_is_dropped_too():
    """With lists of sequences, every pad_id is dropped as well."""
    hypotheses = [[PAD, 1, 2, PAD, 3], [4, PAD]]
    streams = [[[1, 2, 3, PAD, PAD], [PAD, 4]]]
    expected = text_result([[1, 2, 3], [4]], [[[1, 2, 3], [4]]])
    assert_same(mtscore.sentence_scores(hypotheses, streams, pad_id=PAD), expected)


def test_ids_all_pad_rows_score_zero():
    """A hypothesis row that is only padding is empty: length 0, score 0."""
    hypotheses = np.array([[PAD, PAD, PAD], [1, 2, PAD]])
    refs = [np.array([[1, 2, 3], [1, 2, PAD]])]
    result = mtscore.sentence_scores(hypotheses, refs, pad_id=PAD)
    assert result.scores[0] == 0.0 and result.scores[1] == pytest.approx(100.0, abs=TOLERANCE)
    assert result.stats.hyp_len.tolist() == [0, 2] and result.stats.ref_len.tolist() == [3, 2]


@pytest.mark.parametrize("case", ID_CASES)
def test_ids_corpus_bleu_equals_text(case):
    """corpus_bleu on ids (lists and padded arrays) equals corpus_bleu on the text."""
    hypotheses, streams = ID_CASES[case]
    expected = mtscore.corpus_bleu(as_text(hypotheses), [as_text(s) for s in streams], tokenize="none")
    assert mtscore.corpus_bleu(hypotheses, streams) == expected
    if not any(row is None for s in streams for row in s):
        arrays = mtscore.corpus_bleu(padded(hypotheses, "left"), [padded(s, "right") for s in streams], pad_id=PAD)
        assert arrays == expected
        assert "|tok:ids|" in str(arrays.signature)


@pytest.mark.parametrize("first", [True, False], ids=["all-none-first", "all-none-second"])
def test_ids_stream_without_any_reference(first):
    """A reference stream may be missing on every segment, as with text."""
    hypotheses = [[1, 2, 3], [4, 5]]
    streams = [[None, None], [[1, 2, 3], [4, 5, 6]]]
    if not first:
        streams.reverse()
    expected = text_result(hypotheses, streams)  # text accepts the all-None stream
    assert_same(mtscore.sentence_scores(hypotheses, streams), expected)


def test_ids_prepared_references():
    """``BLEU(id references, pad_id=...)`` scores several systems of ids."""
    _, streams = ID_CASES["several-references"]
    metric = mtscore.BLEU([padded(s, "right") for s in streams], pad_id=PAD, effective_order=True)
    for hypotheses in (ID_CASES["several-references"][0], [[3, 2, 1], [], [1, 2, 3, 4, 5, 6, 7]]):
        result = metric.sentence_scores(padded(hypotheses, "left"))
        assert_same(result, text_result(hypotheses, streams))


ID_ROW = st.lists(st.sampled_from([1, 2, 3, 4, -1, BIG, 7]), max_size=8)


@st.composite
def id_corpora(draw):
    """(hypotheses, reference streams) of id lists, missing references included (but no stream
    missing entirely: see ``test_ids_stream_without_any_reference``)."""
    n_segments = draw(st.integers(1, 5))
    n_streams = draw(st.integers(1, 3))
    hypotheses = draw(st.lists(ID_ROW, min_size=n_segments, max_size=n_segments))
    streams = [
        draw(st.lists(st.one_of(st.none(), ID_ROW), min_size=n_segments, max_size=n_segments)) for _ in range(n_streams)
    ]
    for index in range(n_segments):
        if all(stream[index] is None for stream in streams):
            streams[0][index] = draw(ID_ROW)
    for stream in streams:
        if all(row is None for row in stream):
            stream[draw(st.integers(0, n_segments - 1))] = draw(ID_ROW)
    return hypotheses, streams


@fixed(max_examples=40)
@given(corpus=id_corpora(), max_order=st.sampled_from(MAX_ORDERS), smoothing=st.sampled_from(SMOOTHINGS))
def test_generated_ids_equal_text(corpus, max_order, smoothing):
    """Generated id corpora (lists with None) score as their text."""
    smooth, value = smoothing
    options = {"max_order": max_order, "smooth": smooth, "smooth_value": value}
    assert_same(mtscore.sentence_scores(*corpus, **options), text_result(*corpus, **options))


# ---------------------------------------------------------------------------
# torch tensors
# ---------------------------------------------------------------------------

DEVICES = ["cpu", "cuda"]


@pytest.fixture(params=DEVICES)
def device(request):
    """A torch device: the CPU, and CUDA when a GPU is present."""
    torch = pytest.importorskip("torch")
    if request.param == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    return torch.device(request.param)


def to_torch(value, device):
    """Arrays (or lists of arrays / id lists) as tensors on ``device``; None and nesting kept."""
    import torch

    if value is None:
        return None
    if isinstance(value, np.ndarray):
        return torch.as_tensor(value, device=device)
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return torch.as_tensor(value, dtype=torch.int64, device=device)
    if isinstance(value, list) and not value:
        return torch.zeros(0, dtype=torch.int64, device=device)
    return [to_torch(v, device) for v in value]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", ID_CASES)
def test_torch_equals_numpy(case, layout, device):
    """Tensors give a float64 tensor of scores on the input's device, equal to the NumPy path."""
    import torch

    hypotheses, references_, pad_id = id_inputs(case, layout)
    expected = mtscore.sentence_scores(hypotheses, references_, pad_id=pad_id)
    result = mtscore.sentence_scores(to_torch(hypotheses, device), to_torch(references_, device), pad_id=pad_id)
    assert isinstance(result.scores, torch.Tensor)
    assert result.scores.dtype == torch.float64 and result.scores.device.type == device.type
    assert len(result) == len(expected)
    np.testing.assert_array_equal(result.scores.cpu().numpy(), expected.scores)
    assert result.stats == expected.stats
    assert_same(result, text_result(*ID_CASES[case]))
    assert str(result.signature) == str(expected.signature)


def test_torch_int32_and_3d_references(device):
    """int32 tensors, and references as one 3-D tensor (streams x segments x positions)."""
    import torch

    hypotheses, streams = ID_CASES["several-references"]
    expected = text_result(hypotheses, streams)
    hyp = torch.as_tensor(padded(hypotheses, "left"), dtype=torch.int32, device=device)
    refs = torch.as_tensor(
        np.stack(_same_width([padded(s, "right") for s in streams])), dtype=torch.int32, device=device
    )
    result = mtscore.sentence_scores(hyp, refs, pad_id=PAD)
    assert result.scores.device.type == device.type
    assert_same(result, expected)


@pytest.mark.parametrize("case", ID_CASES)
def test_torch_corpus_bleu_equals_numpy(case, device):
    """corpus_bleu on tensors equals the NumPy path (and the text)."""
    hypotheses, streams = ID_CASES[case]
    expected = mtscore.corpus_bleu(hypotheses, streams)
    assert mtscore.corpus_bleu(to_torch(hypotheses, device), to_torch(streams, device)) == expected
    if not any(row is None for s in streams for row in s):
        arrays = (padded(hypotheses, "right"), [padded(s, "left") for s in streams])
        numpy_result = mtscore.corpus_bleu(*arrays, pad_id=PAD)
        assert mtscore.corpus_bleu(*(to_torch(a, device) for a in arrays), pad_id=PAD) == numpy_result == expected


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

IDS = np.array([[1, 2, 3], [4, 5, 0]])
ERRORS = {
    "float-hypotheses": (IDS.astype(float), [IDS], {}, InputError, "integer"),
    "float-references": (IDS, [IDS.astype(np.float32)], {}, InputError, "integer"),
    "float-id-lists": ([[1.0, 2.0], [3.0]], [[[1, 2], [3]]], {}, InputError, "integer"),
    "1d-hypotheses": (np.array([1, 2]), [IDS], {}, InputError, "2-D"),
    "3d-hypotheses": (IDS[None], [IDS[None]], {}, InputError, "2-D"),
    "unwrapped-2d-references": (IDS, IDS, {}, InputError, "reference streams"),
    "stream-length-mismatch": (IDS, [IDS, IDS[:1]], {}, LengthMismatchError, "reference stream 2 has 1 segment;"),
    "list-length-mismatch": ([[1, 2], [3]], [[[1, 2]]], {}, LengthMismatchError, "stream 1 has 1 segment;"),
    "3d-length-mismatch": (IDS, np.stack([IDS[:1], IDS[:1]]), {}, LengthMismatchError, "stream 1 has 1 segment;"),
    "lowercase-with-ids": (IDS, [IDS], {"lowercase": True}, InputError, "tokenized"),
    "intl-with-ids": (IDS, [IDS], {"tokenize": "intl"}, InputError, "tokenized"),
    "text-hypotheses-id-references": (["a b", "c"], [IDS], {}, InputError, "both"),
    "id-hypotheses-text-references": (IDS, [["a b", "c"]], {}, InputError, "both"),
    "no-hypotheses-array": (
        np.zeros((0, 3), dtype=np.int64),
        [np.zeros((0, 3), dtype=np.int64)],
        {},
        InputError,
        "no hypotheses",
    ),
    "no-hypotheses-text": ([], [[]], {}, InputError, "no hypotheses"),
    "no-reference-for-a-segment": ([[1], [2]], [[[1], None], [[2], None]], {}, InputError, "no reference"),
    "missing-hypothesis": ([[1], None], [[[1], [2]]], {}, InputError, "None"),
}


@pytest.mark.parametrize(("hypotheses", "refs", "options", "error", "message"), ERRORS.values(), ids=ERRORS.keys())
def test_errors(hypotheses, refs, options, error, message):
    options = {"pad_id": None, **options}  # arrays say they hold no padding: the mistake is another one
    with pytest.raises(error, match=message) as caught:
        mtscore.sentence_scores(hypotheses, refs, **options)
    assert isinstance(caught.value, ValueError)
    # corpus_bleu checks its input the same way.
    with pytest.raises(error, match=message):
        mtscore.corpus_bleu(hypotheses, refs, **options)


TORCH_ERRORS = [
    "float-hypotheses",
    "float-references",
    "1d-hypotheses",
    "unwrapped-2d-references",
    "stream-length-mismatch",
    "3d-length-mismatch",
    "lowercase-with-ids",
    "text-hypotheses-id-references",
]


@pytest.mark.parametrize("name", TORCH_ERRORS)
def test_torch_errors(name):
    """The same mistakes with CPU tensors."""
    torch = pytest.importorskip("torch")
    hypotheses, refs, options, error, message = ERRORS[name]

    def as_tensor(v):
        if isinstance(v, np.ndarray):
            return torch.as_tensor(v)
        if isinstance(v, list) and isinstance(v[0], np.ndarray):
            return [as_tensor(x) for x in v]
        return v

    with pytest.raises(error, match=message):
        mtscore.sentence_scores(as_tensor(hypotheses), as_tensor(refs), pad_id=None, **options)
    with pytest.raises(InputError, match="integer"):
        mtscore.sentence_scores(torch.tensor([[True, False]]), [torch.tensor([[True, False]])], pad_id=None)
