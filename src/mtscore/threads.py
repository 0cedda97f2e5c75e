"""Map a function over chunks on a few threads (a leaf: imports nothing from ``mtscore``).

NumPy's sorting, searching and arithmetic release the GIL, so chunks of one array run in parallel.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

THREADS = min(4, os.cpu_count() or 1)

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def map_threads(function: Callable[[Chunk], Result], chunks: Sequence[Chunk], threads: int = THREADS) -> list[Result]:
    """``function`` over ``chunks`` in order, on up to ``threads`` threads when there are several chunks."""
    if len(chunks) < 2 or threads < 2:
        return [function(chunk) for chunk in chunks]
    with ThreadPoolExecutor(min(threads, len(chunks))) as pool:
        return list(pool.map(function, chunks))
