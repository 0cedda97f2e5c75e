"""Paired tests of many systems: every pair at once equals each pair on its own, chunked draws and
batched scoring change nothing, the shared resample counts are sacrebleu's draws, and ten systems
still give sacrebleu's p-values, means and intervals."""

from __future__ import annotations

import random

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest
from shared_data import read_lines, references, system_output

from mtscore import BLEU, CHRF, TER
from mtscore.significance import paired, paired_test_statistics
from mtscore.significance import resampling as significance
from mtscore.significance.resampling import holm

WMT = ["JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y", "OpenNMT", "PROMT"]
SEGMENTS = 300  # TER's statistics are slow to extract: the first segments are enough here


def perturbed(lines: list[str], seed: int) -> list[str]:
    """A copy with words dropped and neighbours swapped (deterministic): one more system."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = [w for w in line.split(" ") if rng.random() > 0.1] or line.split(" ")[:1]
        for _ in range(len(words) // 8):
            i = rng.randrange(max(len(words) - 1, 1))
            words[i : i + 2] = words[i : i + 2][::-1]
        out.append(" ".join(words))
    return out


@pytest.fixture(scope="module")
def corpus():
    """Ten systems (nine WMT22 en-de outputs and a perturbed copy) and references A and B."""
    hyps = {name: read_lines(system_output("en-de", name))[:SEGMENTS] for name in WMT}
    hyps["PROMT-perturbed"] = perturbed(hyps["PROMT"], 7)
    refs = [read_lines(path)[:SEGMENTS] for name in ("A", "B") for path in references("en-de", name)]
    return hyps, refs


@pytest.fixture(scope="module")
def scored(corpus):
    """BLEU, chrF and TER with every system's per-segment statistics."""
    hyps, refs = corpus
    metrics = {m.name: m for m in (BLEU(refs), CHRF(refs), TER(refs))}
    return metrics, {name: m.systems_statistics(list(hyps.values())) for name, m in metrics.items()}


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)


def run(scored, systems, test, n, all_pairs=False):
    metrics, statistics = scored
    chosen = {name: [stats[i] for i in systems] for name, stats in statistics.items()}
    return paired_test_statistics(metrics, chosen, [str(i) for i in systems], test, n, all_pairs=all_pairs)


@pytest.mark.parametrize("test, n", [("bs", 300), ("ar", 500)])
def test_all_pairs_of_many_systems_equal_each_pair_alone(scored, test, n):
    """45 pairs scored in batches give what a test of the two systems alone gives."""
    k = len(scored[1]["BLEU"])
    everything = run(scored, range(k), test, n, all_pairs=True)
    assert len(everything.comparisons) == 3 * k * (k - 1) // 2
    for a in range(k):
        for b in range(a + 1, k):
            alone = run(scored, [a, b], test, n)
            for metric in everything.metrics:
                mine, expected = everything.comparison(metric, b, a), alone.comparison(metric, 1, 0)
                assert (mine.delta, mine.lower, mine.upper, mine.p_value) == (
                    expected.delta,
                    expected.lower,
                    expected.upper,
                    expected.p_value,
                )
    for metric in everything.metrics:
        found = [c for c in everything.comparisons if c.metric == metric]
        assert [c.p_holm for c in found] == holm([c.p_value for c in found]).tolist()
    baseline_only = run(scored, range(k), test, n)
    assert baseline_only.results == everything.results  # scores, p-values against the first, intervals


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_chunks_and_batches_change_nothing(scored, monkeypatch, test):
    """Draws taken a few rows at a time, counted a row or two at a time, and one system or pair
    per scoring call: the very results of the default sizes."""
    systems = range(5)
    expected = run(scored, systems, test, 333, all_pairs=True)
    monkeypatch.setattr(significance, "_CHUNK_BYTES", 8 * SEGMENTS * 40)  # a few dozen resamples or trials a chunk
    monkeypatch.setattr(significance, "_COUNT_BYTES", 8 * SEGMENTS * 3)  # counted 3 resamples at a time
    monkeypatch.setattr(paired, "_SCORE_ROWS", 1)  # one system or pair per call
    small = run(scored, systems, test, 333, all_pairs=True)
    assert small.results == expected.results and small.comparisons == expected.comparisons


@pytest.mark.parametrize("n", [1, 5, 97])
def test_resample_counts_are_sacrebleus_draws(monkeypatch, n):
    """Each resample's multiplicities count sacrebleu's ``rng.choice`` draws, and the generator is
    left where sacrebleu's is, whatever the chunk sizes."""
    monkeypatch.setattr(significance, "_CHUNK_BYTES", 8 * max(n, 1) * 7)  # 7 resamples a chunk
    monkeypatch.setattr(significance, "_COUNT_BYTES", 8 * max(n, 1) * 2)  # counted 2 at a time
    theirs, ours = np.random.default_rng(12345), np.random.default_rng(12345)
    drawn = theirs.choice(n, size=(50, n), replace=True)
    expected = np.stack([np.bincount(row, minlength=n) for row in drawn])
    chunks = [w.copy() for w in significance.bootstrap_weights(n, 50, ours)]  # the buffer is reused
    assert [len(c) for c in chunks] == [7] * 7 + [1]
    np.testing.assert_array_equal(np.concatenate(chunks), expected)
    np.testing.assert_array_equal(ours.integers(0, 1000, size=20), theirs.integers(0, 1000, size=20))


@pytest.mark.parametrize("test, n", [("bs", 300), ("ar", 500)])
def test_ten_systems_equal_sacrebleu(corpus, test, n):
    hyps, refs = corpus
    ours = paired_test_statistics(
        {"BLEU": BLEU(refs)}, {"BLEU": BLEU(refs).systems_statistics(list(hyps.values()))}, list(hyps), test, n
    )
    _, theirs = PairedTest(
        list(hyps.items()), {"BLEU": sacrebleu.BLEU(references=refs)}, None, test_type=test, n_samples=n
    )()
    assert len(theirs["BLEU"]) == 10
    for mine, expected in zip(ours.results["BLEU"], theirs["BLEU"], strict=True):
        assert mine.score == pytest.approx(expected.score, abs=1e-9)
        assert mine.p_value == expected.p_value  # same draws, same counts: exactly equal
        for name in ("mean", "ci"):
            value = getattr(expected, name)
            assert getattr(mine, name) == (None if value is None else pytest.approx(value, abs=1e-9))
