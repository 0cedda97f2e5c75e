"""Exact NIST resampling: a resample's score (weights from the resampled reference corpus) equals
corpus NIST of the resampled corpus built explicitly, to 1e-9 (float64), for both variants; the
significance layer uses it for -ci, paired bootstrap and the intervals of randomization tests."""

from __future__ import annotations

import numpy as np
import pytest
from shared_data import read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST
from mtscore.significance import bootstrap_confidence, paired_test
from mtscore.significance.paired import paired_test_statistics

TOLERANCE = 1e-9
HYPS = ["the cat sat on the mat", "0 1 2 3", "", "a dog . a dog", "it is 0 degrees"]
REFS = [
    ["the cat sat on a mat", "0 1 2", "nothing", "a dog and a cat", "it is 0 degrees today"],
    ["a cat sat on the mat", None, "", "the dog . a dog", "0 degrees"],
]


def _brute(metric_options: dict, hyps: list[str], streams: list[list], weights: np.ndarray) -> float:
    rows = np.repeat(np.arange(len(hyps)), weights)
    return NIST(**metric_options).corpus_score([hyps[i] for i in rows], [[s[i] for i in rows] for s in streams]).score


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_small_corpus_against_brute_force(variant: str) -> None:
    metric = NIST(REFS, variant=variant)
    statistics = metric.segment_statistics(HYPS)
    rng = np.random.default_rng(1)
    weights = np.stack([np.ones(5, dtype=int)] + [rng.multinomial(5, [0.2] * 5) for _ in range(30)])
    fast = metric.aggregation.resampled_scores(metric, statistics, weights)
    assert fast[0] == pytest.approx(metric.corpus_score(HYPS).score, abs=TOLERANCE)
    for row, score in zip(weights, fast, strict=True):
        assert score == pytest.approx(_brute({"variant": variant}, HYPS, REFS, row), abs=TOLERANCE)


def test_nltk_near_tie_under_resampling() -> None:
    """References whose information sums tie as reals but not in NLTK's float order (see
    test_nist_nltk.py): each resample settles them as NLTK does on the resampled corpus. Doubling
    every segment keeps the counts' ratios, and so the near-tie."""
    nist_score = pytest.importorskip("nltk.translate.nist_score")
    hyps, refs = ["a b c d e f", ""], [["a b c g g h", "b c c c d e e e"], ["d e f g g", "i"]]
    options = {"variant": "nltk", "max_order": 1}
    metric = NIST(refs, **options)
    weights = np.array([[1, 1], [2, 2], [3, 3], [1, 0], [2, 1], [1, 3], [0, 2]])
    for row, score in zip(
        weights, metric.aggregation.resampled_scores(metric, metric.segment_statistics(hyps), weights), strict=True
    ):
        assert score == pytest.approx(_brute(options, hyps, refs, row), abs=TOLERANCE)
        rows = np.repeat(np.arange(2), row)
        if row[0]:  # NLTK divides by zero without hypothesis words
            theirs = nist_score.corpus_nist(
                [[refs[0][i].split(), refs[1][i].split()] for i in rows], [hyps[i].split() for i in rows], n=1
            )
            assert score == pytest.approx(theirs, abs=TOLERANCE)


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_wmt22_against_brute_force(variant: str) -> None:
    streams = [read_lines(path) for path in references("en-de", "all")]
    hyps = read_lines(system_output("en-de", "Online-A"))
    metric = NIST(streams, variant=variant)
    statistics = metric.segment_statistics(hyps)
    rng = np.random.default_rng(7)
    weights = np.stack([np.bincount(rng.integers(0, len(hyps), len(hyps)), minlength=len(hyps)) for _ in range(2)])
    for row, score in zip(weights, metric.aggregation.resampled_scores(metric, statistics, weights), strict=True):
        assert score == pytest.approx(_brute({"variant": variant}, hyps, streams, row), abs=TOLERANCE)


def test_rows_without_detail_are_refused() -> None:
    metric = NIST(REFS)
    statistics = metric.segment_statistics(HYPS)
    with pytest.raises(InputError, match="matches per n-gram"):
        metric.aggregation.resampled_scores(metric, np.asarray(statistics)[:3], np.ones((1, 3)))
    with pytest.raises(InputError, match="matches per n-gram"):
        bootstrap_confidence(metric, metric.statistics(HYPS).matrix, 10)


def test_confidence_uses_exact_resamples() -> None:
    metric = NIST(REFS)
    statistics = metric.segment_statistics(HYPS)
    mean, half = bootstrap_confidence(metric, statistics, 50, seed=3)
    rng = np.random.default_rng(3)
    drawn = rng.integers(0, 5, size=(50, 5))
    weights = np.stack([np.bincount(row, minlength=5) for row in drawn])
    scores = np.sort([_brute({}, HYPS, REFS, row) for row in weights])
    assert mean == pytest.approx(scores.mean(), abs=TOLERANCE)
    assert half == pytest.approx(0.5 * (scores[50 - 1 - 1] - scores[1]), abs=TOLERANCE)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_share_draws_with_bleu(test: str) -> None:
    systems = {"base": HYPS, "other": ["the cat sat", "0 1 2 3 4", "x", "a dog and a dog", "it is 0"]}
    with_nist = paired_test(systems, REFS, metrics=["bleu", "nist"], test=test, n_samples=40, seed=5)
    alone = paired_test(systems, REFS, metrics=["bleu"], test=test, n_samples=40, seed=5)
    assert with_nist.results["BLEU"] == alone.results["BLEU"]  # adding NIST changes no BLEU number
    assert with_nist.comparisons[0] == alone.comparisons[0]
    nist = with_nist.results["NIST"]
    assert nist[0].score == pytest.approx(NIST(REFS).corpus_score(HYPS).score, abs=TOLERANCE)
    if test == "bs":  # each system's bootstrap mean is the mean of exact resampled scores
        rng = np.random.default_rng(5)
        weights = np.stack([np.bincount(row, minlength=5) for row in rng.integers(0, 5, size=(40, 5))])
        scores = [_brute({}, HYPS, REFS, row) for row in weights]
        assert nist[0].mean == pytest.approx(np.mean(scores), abs=TOLERANCE)


def test_randomization_keeps_the_corpus_weights() -> None:
    """A randomization trial swaps hypotheses, not references: the rows' sums are exact there."""
    metric = NIST(REFS)
    a = metric.segment_statistics(HYPS)
    b = metric.segment_statistics(list(reversed(HYPS)))
    result = paired_test_statistics({"NIST": metric}, {"NIST": [a, b]}, ["a", "b"], "ar", 200, seed=1)
    assert 0 < result.comparisons[0].p_value <= 1


SYSTEMS = [
    HYPS,
    ["the cat sat on a mat", "0 1 2", "nothing at all", "a dog and a dog", "0 degrees"],
    ["a cat", "1 2 3 0", "", "the dog . a cat and a dog", "it is 0 degrees today , it is"],
]


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
@pytest.mark.parametrize("chunk_values", [1, 45, 160, 4 << 20])
def test_systems_resampled_together_score_as_each_alone(variant: str, chunk_values: int, monkeypatch) -> None:
    """Systems scored on the same resamples in one call share the reference counts, cut into pieces
    at every system's own chunk bounds (small chunks make them differ and leave one resample alone in
    a chunk): each system's scores are still those it gets alone, to the bit, and the brute force's."""
    monkeypatch.setattr("mtscore.metrics.nist.resampling._CHUNK_VALUES", chunk_values)
    metric = NIST(REFS, variant=variant)
    other = NIST([REFS[0]], variant=variant)  # other references: counted apart, in the same call
    statistics = [metric.segment_statistics(hyps) for hyps in SYSTEMS] + [other.segment_statistics(SYSTEMS[1])]
    rng = np.random.default_rng(3)
    weights = np.stack([rng.multinomial(5, [0.2] * 5) for _ in range(23)])
    together = metric.aggregation.shared_resampled_scores(metric, statistics, weights)
    assert together.shape == (len(statistics), len(weights))
    for system, scores in zip(statistics, together, strict=True):
        assert scores.tobytes() == metric.aggregation.resampled_scores(metric, system, weights).tobytes()
    for hyps, scores in zip(SYSTEMS, together, strict=False):
        for row, score in zip(weights, scores, strict=True):
            assert score == pytest.approx(_brute({"variant": variant}, hyps, REFS, row), abs=TOLERANCE)
    for row, score in zip(weights, together[-1], strict=True):
        assert score == pytest.approx(_brute({"variant": variant}, SYSTEMS[1], [REFS[0]], row), abs=TOLERANCE)


def test_wmt22_systems_resampled_together_score_as_each_alone() -> None:
    """On a real test set (many chunks per system, each system's own bounds), the shared reference
    counts give every system the scores it gets alone, to the bit."""
    streams = [read_lines(path) for path in references("en-de", "all")]
    metric = NIST(streams)
    statistics = [metric.segment_statistics(read_lines(system_output("en-de", s))) for s in ("Online-A", "PROMT")]
    n = len(statistics[0])
    rng = np.random.default_rng(11)
    weights = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(120)])
    together = metric.aggregation.shared_resampled_scores(metric, statistics, weights)
    for system, scores in zip(statistics, together, strict=True):
        assert scores.tobytes() == metric.aggregation.resampled_scores(metric, system, weights).tobytes()
