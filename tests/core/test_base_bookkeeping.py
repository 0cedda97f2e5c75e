"""What the ``Metric`` base and the result base do once for every metric: the statistics' shape and
the rule for empty input, the version field of signatures, ``to_dict`` with the metric's name, and
the check of whole-number options before a metric's constructor runs."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu

from mtscore.core.options import check_integer, integer_range
from mtscore.core.signature import tool_version
from mtscore.errors import InputError
from mtscore.metrics import METRICS, metric_class, metric_options

HYPS = ["the cat sat on the mat", "a dog ran", "it rains"]
REFS = [["the cat sat on a mat", "the dog ran", "it is raining"]]
# The metrics declaring the width of their statistics (BLEU's carry their order: 2 + 2 * order columns).
FIXED_WIDTH = [name for name in METRICS if metric_class(name)().statistics_width() is not None]
# Results whose ``to_dict`` keys are sacrebleu's attributes exactly, without the name.
SACREBLEU_RESULTS = {"bleu": sacrebleu.corpus_bleu, "ter": sacrebleu.corpus_ter}


def rows_of(name: str) -> tuple[object, np.ndarray]:
    metric = metric_class(name)()
    return metric, metric.segment_statistics(HYPS, REFS)


@pytest.mark.parametrize("name", list(METRICS))
def test_statistics_of_no_segments_are_refused_by_every_metric(name):
    """One rule for empty input: nothing to score is an input error, never a score of 0."""
    metric, rows = rows_of(name)
    with pytest.raises(InputError, match=rf"^{metric.name} statistics must be non-empty: they hold no segments"):
        metric.score_statistics(rows[:0])
    assert math.isfinite(metric.score_statistics(rows[:1]).score)


@pytest.mark.parametrize("corpus_score", [sacrebleu.corpus_bleu, sacrebleu.corpus_chrf, sacrebleu.corpus_ter])
def test_sacrebleu_scores_no_empty_corpus_either(corpus_score):
    """The reference tool has no score for an empty corpus (it fails), so refusing one changes no score."""
    with pytest.raises(IndexError):
        corpus_score([], [[]])


@pytest.mark.parametrize("name", FIXED_WIDTH)
def test_statistics_of_another_width_are_refused_with_one_message(name):
    metric, rows = rows_of(name)
    width = rows.shape[1]
    for bad in (rows[:, :-1], np.hstack([rows, rows[:, :1]]), rows[0]):
        expected = (
            rf"^{metric.name} statistics must be a \(segments, {width}\) matrix: {width} columns per segment, got"
        )
        with pytest.raises(InputError, match=expected):
            metric.score_statistics(bad)


def test_bleu_refuses_statistics_of_an_odd_width():
    metric, rows = rows_of("bleu")
    with pytest.raises(InputError, match="BLEU statistics have 2 \\+ 2 \\* order columns"):
        metric.score_statistics(rows[:, :-1])


@pytest.mark.parametrize("name", list(METRICS))
def test_checking_statistics_before_scoring_them_counts_no_segment(name, monkeypatch):
    """The width is declared, not counted on a segment: counting would cost a metric that runs a
    model, and would show references to one that remembers them (sacrebleu's drop-in, for nrefs)."""
    metric, rows = rows_of(name)
    calls = []
    monkeypatch.setattr(metric, "segment_statistics", lambda *args, **kwargs: calls.append(args))
    monkeypatch.setattr(metric, "prepare", lambda *args, **kwargs: calls.append(args))
    metric.score_statistics(rows)
    assert calls == []


def test_every_builtin_but_bleu_declares_its_width():
    assert {name for name in METRICS if METRICS.is_builtin(name)} - set(FIXED_WIDTH) == {"bleu"}


@pytest.mark.parametrize("name", FIXED_WIDTH)
def test_a_metrics_declared_width_is_that_of_its_statistics(name):
    metric, rows = rows_of(name)
    assert metric.statistics_width() == rows.shape[1]


@pytest.mark.parametrize("name", list(METRICS))
def test_every_builtin_signature_ends_with_this_tools_version(name):
    if not METRICS.is_builtin(name):
        pytest.skip("another package's metric signs as it chooses")
    metric = metric_class(name)()
    fields = list(metric.signature(2).info.items())
    assert fields[0] == ("nrefs", "2") and fields[-1] == ("version", tool_version())
    assert sum(field == "version" for field, _ in fields) == 1


@pytest.mark.parametrize("name", [name for name in METRICS if name not in SACREBLEU_RESULTS])
def test_to_dict_leads_with_the_metrics_name_and_lists_the_results_numbers(name):
    result = metric_class(name)().corpus_score(HYPS, REFS)
    data = result.to_dict()
    assert list(data)[:2] == ["name", "score"]
    assert data["name"] == result.name and data["score"] == result.score
    renamed = {"sys_len": "hyp_len"}  # NIST's key of earlier outputs for its hyp_len
    for key, value in list(data.items())[2:]:
        assert getattr(result, renamed.get(key, key)) == value, key


@pytest.mark.parametrize("name", list(SACREBLEU_RESULTS))
def test_to_dict_of_a_sacrebleu_result_has_sacrebleus_attributes_exactly(name):
    """BLEU's and TER's keys are sacrebleu's own attributes, with sacrebleu's values, and no name."""
    data = metric_class(name)().corpus_score(HYPS, REFS).to_dict()
    theirs = SACREBLEU_RESULTS[name](HYPS, REFS)
    assert "name" not in data and next(iter(data)) == "score"
    for key, value in data.items():
        assert value == pytest.approx(getattr(theirs, key), abs=1e-9), key


BOUNDED = [
    (name, option)
    for name in METRICS
    for option in metric_options(name)
    if option.bounds is not None and option.nargs is None
]


@pytest.mark.parametrize(("name", "option"), BOUNDED, ids=[f"{n}-{o.name}" for n, o in BOUNDED])
def test_a_whole_number_option_is_checked_against_its_declared_bounds(name, option):
    lowest, highest = option.bounds
    cls = metric_class(name)
    too_high = [highest + 1] if highest is not None else []
    for bad in (lowest - 1, *too_high, 1.5, True, "3", None):
        with pytest.raises(InputError, match=rf"^{option.name} must be {integer_range(lowest, highest)}, got "):
            cls(**{option.name: bad})
    cls(**{option.name: np.int64(option.default)})  # a NumPy integer is an integer


def test_the_builtin_orders_declare_bounds():
    """The orders of chrF, Google-BLEU and NIST are bounded integers; chrF's beta, a number, is not."""
    bounded = {(name, option.name) for name, option in BOUNDED}
    assert {("chrf", "char_order"), ("chrf", "word_order"), ("google_bleu", "min_len")} <= bounded
    assert {("google_bleu", "max_len"), ("nist", "max_order")} <= bounded
    assert ("chrf", "beta") not in bounded


def test_bounds_are_checked_before_the_constructor_runs():
    """A subclass's constructor never sees an order out of bounds."""
    seen = []

    class Recording(metric_class("chrf")):
        def __init__(self, references=None, **options):
            seen.append(options)
            super().__init__(references, **options)

    with pytest.raises(InputError, match="char_order must be a non-negative integer up to"):
        Recording(char_order=-1)
    assert seen == []
    assert Recording(char_order=3).char_order == 3 and seen == [{"char_order": 3}]


@pytest.mark.parametrize(
    ("lowest", "highest", "phrase"),
    [
        (1, None, "an integer >= 1"),
        (0, 32, "a non-negative integer up to 32"),
        (1, 100, "a positive integer up to 100"),
        (2, 5, "an integer from 2 to 5"),
    ],
)
def test_integer_range_phrases(lowest, highest, phrase):
    assert integer_range(lowest, highest) == phrase


def test_check_integer_takes_numpy_integers_and_refuses_truth_values():
    check_integer(np.int32(4), "order", 1, 9)
    for bad in (np.True_, True, 4.0, np.float64(4)):
        with pytest.raises(InputError, match="order must be a positive integer up to 9"):
            check_integer(bad, "order", 1, 9)
