"""``SeenRows``: rows kept by key up to ``SEEN_LINES``, found in order, shared by threads, pickled empty."""

from __future__ import annotations

import pickle
import threading

import numpy as np

from mtscore.engine import seen
from mtscore.engine.seen import SeenRows


def test_rows_are_found_by_key_in_the_order_asked():
    kept = SeenRows(2, np.int64)
    kept.keep([(0, "a"), (1, "b")], np.array([[1, 2], [3, 4]]))
    found, rows = kept.find([(1, "b"), (2, "a"), (0, "a")])
    assert found.tolist() == [True, False, True] and rows.tolist() == [[3, 4], [1, 2]]
    assert len(kept) == 2 and kept.find([])[1].shape == (0, 2)


def test_no_more_than_seen_lines_are_kept(monkeypatch):
    monkeypatch.setattr(seen, "SEEN_LINES", 3)
    kept = SeenRows(1)
    kept.keep(["a", "b"], np.array([[1.0], [2.0]]))
    kept.keep(["c", "d"], np.array([[3.0], [4.0]]))  # would make 4: none of them kept
    kept.keep(["e"], np.array([[5.0]]))
    assert kept.find(["a", "c", "d", "e"])[0].tolist() == [True, False, False, True] and len(kept) == 3


def test_a_key_kept_twice_by_two_threads_keeps_rows_numbered_by_place():
    """Two threads may keep the same key: the dict then holds fewer keys than there are rows, and every
    key still finds its own row."""
    kept = SeenRows(1, np.int64)
    barrier = threading.Barrier(2)

    def keep(offset: int) -> None:
        barrier.wait()
        for start in range(0, 200, 10):
            keys = [f"k{i}" for i in range(start + offset, start + offset + 10)]
            kept.keep(keys, np.array([[int(key[1:])] for key in keys]))

    threads = [threading.Thread(target=keep, args=(offset,)) for offset in (0, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    keys = [f"k{i}" for i in range(205)]
    found, rows = kept.find(keys)
    assert found.all() and rows[:, 0].tolist() == list(range(205))


def test_pickled_empty_and_usable():
    kept = SeenRows(3)
    kept.keep(["a"], np.ones((1, 3)))
    copy = pickle.loads(pickle.dumps(kept))
    assert len(copy) == 0 and copy.find(["a"])[1].shape == (0, 3)
    copy.keep(["b"], np.zeros((1, 3)))
    assert copy.find(["b"])[0].tolist() == [True]
