"""Rows of statistics kept by key, so that a line counted once is not counted again.

Systems scored one at a time against the same references often translate a segment alike; a
metric whose row depends on a segment's hypothesis alone (Google-BLEU, NIST) keeps each counted
line's row under (segment, line) and finds it for the next system. At most ``SEEN_LINES`` rows are
kept, every thread's calls share them (one lock), and a pickled copy keeps none (a worker counts
its own).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

SEEN_LINES = 1 << 17  # rows kept, at most (read at each ``keep``)


class SeenRows:
    """Rows (``width`` numbers of ``dtype``) by key, numbered by their place in one array."""

    def __init__(self, width: int, dtype: Any = np.float64):
        self._slots: dict[Hashable, int] = {}
        self._rows = np.zeros((0, width), dtype=dtype)
        self.lock = threading.Lock()  # also for a caller's own state that goes with the rows

    def __len__(self) -> int:
        return len(self._slots)

    def find(self, keys: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
        """Which keys have a row (a mask), and their rows in order."""
        with self.lock:
            return self.find_locked(keys)

    def find_locked(self, keys: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
        """``find``, the lock already held."""
        slots = np.fromiter(map(self._slots.get, keys, repeat(-1)), dtype=np.int64, count=len(keys))
        seen = slots >= 0
        return seen, self._rows[slots[seen]]

    def keep(self, keys: Sequence[Hashable], rows: np.ndarray) -> None:
        """Keep these keys' rows, unless that would make more than ``SEEN_LINES``."""
        with self.lock:
            self.keep_locked(keys, rows)

    def keep_locked(self, keys: Sequence[Hashable], rows: np.ndarray) -> None:
        """``keep``, the lock already held. Rows are numbered by their place in the array, not by the
        number of keys: another thread may have kept a key counted here too."""
        held = len(self._rows)
        if held + len(keys) <= SEEN_LINES:
            self._slots.update(zip(keys, range(held, held + len(keys)), strict=True))
            self._rows = np.concatenate([self._rows, rows])

    def __getstate__(self) -> dict:
        """Pickled empty, without its lock."""
        return {"_slots": {}, "_rows": self._rows[:0]}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.lock = threading.Lock()
