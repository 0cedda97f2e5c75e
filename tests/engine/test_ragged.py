"""The index arithmetic of ragged arrays (``engine.ragged``), against the runs written out one by one."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mtscore.engine import ragged

LENGTHS = st.lists(st.integers(0, 6), max_size=12)


def written_out(lengths: list[int]) -> list[list[int]]:
    """Each run as the flat array's indices it covers, counted item by item."""
    runs, at = [], 0
    for length in lengths:
        runs.append(list(range(at, at + length)))
        at += length
    return runs


@given(LENGTHS)
def test_starts_and_offsets_bound_each_run(lengths):
    runs = written_out(lengths)
    boundaries = ragged.offsets(np.array(lengths, dtype=np.int64))
    starts = ragged.starts(np.array(lengths, dtype=np.int64))
    assert len(boundaries) == len(lengths) + 1 and boundaries[0] == 0
    for run, start, (begin, end) in zip(runs, starts, pairwise(boundaries), strict=True):
        assert list(range(begin, end)) == run and start == begin


@given(LENGTHS)
def test_run_ids_and_places_number_each_item(lengths):
    array = np.array(lengths, dtype=np.int64)
    expected_ids = [number for number, run in enumerate(written_out(lengths)) for _ in run]
    expected_places = [place for run in written_out(lengths) for place in range(len(run))]
    assert ragged.run_ids(array).tolist() == expected_ids
    assert ragged.places(array).tolist() == expected_places


@given(LENGTHS)
def test_remaining_counts_the_items_left_in_each_run(lengths):
    expected = [len(run) - place for run in written_out(lengths) for place in range(len(run))]
    assert ragged.remaining(np.array(lengths, dtype=np.int64)).tolist() == expected


def test_starts_of_each_row_of_a_matrix():
    lengths = np.array([[2, 0, 3], [1, 1, 1]])
    assert ragged.starts(lengths).tolist() == [[0, 2, 2], [0, 1, 2]]


def test_integer_lengths_give_int64_indices():
    """The dtype of the copies replaced: int64 whatever the width of the lengths' integers."""
    for dtype in (np.int32, np.int64):
        lengths = np.array([3, 1, 2], dtype=dtype)
        assert ragged.starts(lengths).dtype == np.int64 and ragged.offsets(lengths).dtype == np.int64
        assert ragged.run_ids(lengths).dtype == np.int64 and ragged.places(lengths).dtype == np.int64
        assert ragged.remaining(lengths).dtype == np.int64
