"""NIST's counting pieces against plain Python: the packed-sort ``unique_inverse`` equals
``np.unique``, n-grams numbered within groups rank by (group, order, id) without a sort and
number again across groups as one group numbers them, and a hypothesis finds exactly the n-grams
its own group's references hold, under the ids the references were numbered with."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtscore.engine.backend import unique_inverse
from mtscore.metrics.nist import NIST
from mtscore.metrics.nist.counting import held_occurrences, occurrences
from mtscore.metrics.nist.ties import first_occurrences


@pytest.mark.parametrize(
    "keys",
    [
        [],
        [5],
        [3, 1, 3, 0, 1, 7, 7, 7],
        list(np.random.default_rng(2).integers(0, 50, 1000)),
        [1 << 60, 3, 1 << 60, 0],  # too wide to pack with positions: np.unique's way
        list(np.random.default_rng(3).integers(0, 1 << 40, 1000)),  # sorted, packed with positions
    ],
)
def test_unique_inverse_is_numpys(keys: list[int]) -> None:
    array = np.asarray(keys, dtype=np.int64)
    distinct, inverse = unique_inverse(array)
    expected, expected_inverse = np.unique(array, return_inverse=True)
    assert distinct.tolist() == expected.tolist() and inverse.tolist() == expected_inverse.tolist()


def _lines(rng: np.random.Generator, n_lines: int, vocab: int, unknown: bool) -> tuple[np.ndarray, np.ndarray]:
    lengths = rng.integers(0, 7, n_lines)
    ids = rng.integers(-1 if unknown else 0, vocab, int(lengths.sum()))
    return ids, lengths


@pytest.mark.parametrize("seed", range(5))
def test_hypotheses_find_their_groups_reference_ngrams(seed: int) -> None:
    rng = np.random.default_rng(seed)
    max_order, n_groups = 4, 6
    ref_ids, ref_lengths = _lines(rng, 2 * n_groups, 3, unknown=False)  # two streams
    ref_ids[:3] = [0, 1, 2]  # every id 0..2 occurs, as in a vocabulary
    ref_groups = np.tile(np.arange(n_groups), 2)
    found, table = occurrences(ref_ids, ref_lengths, max_order, ref_groups)
    numbered = {}  # (group, n-gram) -> id
    ref_line = np.repeat(np.arange(len(ref_lengths)), ref_lengths)
    for n, (starts, ids) in enumerate(found, 1):
        for start, ngram_id in zip(starts.tolist(), ids.tolist(), strict=True):
            key = (int(ref_groups[ref_line[start]]), n, tuple(ref_ids[start : start + n].tolist()))
            assert numbered.setdefault(key, ngram_id) == ngram_id
    assert len(set(numbered.values())) == len(numbered) == table.size
    by_group = sorted(numbered, key=lambda key: (key[0], key[1], numbered[key]))
    ranks, groups = table.group_ranks(n_groups)
    assert [ranks[numbered[key]] for key in by_group] == list(range(table.size))
    assert all(groups[ngram_id] == key[0] for key, ngram_id in numbered.items())
    # Numbered again across groups: as one group numbers them.
    corpus, corpus_ids = table.ungrouped()
    one_group, alone = occurrences(ref_ids, ref_lengths, max_order, np.zeros(len(ref_lengths), dtype=np.int64))
    assert [k.tolist() for k in corpus.keys] == [k.tolist() for k in alone.keys]
    for (_, grouped), (_, ungrouped) in zip(found, one_group, strict=True):
        assert corpus_ids[grouped].tolist() == ungrouped.tolist()
    hyp_ids, hyp_lengths = _lines(rng, n_groups, 3, unknown=True)  # ids the references know, or -1
    held = held_occurrences(hyp_ids, hyp_lengths, table, np.arange(n_groups), table.continuations())
    bounds = np.concatenate([[0], np.cumsum(hyp_lengths)])
    for n, (starts, ids) in enumerate(held, 1):
        expected = {}
        for group in range(n_groups):
            for start in range(bounds[group], bounds[group + 1] - n + 1):
                key = (group, n, tuple(hyp_ids[start : start + n].tolist()))
                if key in numbered:
                    expected[start] = numbered[key]
        assert dict(zip(starts.tolist(), ids.tolist(), strict=True)) == expected
        assert starts.tolist() == sorted(expected)


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_resampling_detail_is_made_when_asked(variant: str) -> None:
    """Rows carry what resampling needs without making it; asked twice, it is made once."""
    metric = NIST([["the cat sat on a mat", "a b c"], ["a cat sat on the mat", "b c d"]], variant=variant)
    statistics = metric.segment_statistics(["the cat sat on the mat", "a b c d"])
    pending = statistics.detail
    assert "detail" not in vars(pending)
    weights = np.array([[1, 1], [2, 0]])
    first = metric.aggregation.resampled_scores(metric, statistics, weights)
    made = vars(pending)["detail"]
    assert metric.aggregation.resampled_scores(metric, statistics, weights).tolist() == first.tolist()
    assert pending.detail is made


@given(st.lists(st.integers(0, 6), max_size=30))
def test_first_occurrences_as_np_unique(values) -> None:
    """The near-ties' first occurrences: ``np.unique``'s ``return_index``, sorted."""
    array = np.array(values, dtype=np.int64)
    expected = np.sort(np.unique(array, return_index=True)[1])
    np.testing.assert_array_equal(first_occurrences(array), expected)
