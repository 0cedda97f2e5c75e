"""Corpus scores of files too large for memory: aligned blocks of lines -> statistics -> running sums.

A corpus score is a function of the column sums of per-segment statistics, so the files are read
block by block and each block's statistics are added up. The last block's rows are kept as they
are (NLTK's corpus smoothing looks at the last segment). Memory is bounded by the block size (and,
for a metric that gathers blocks in a compact form before counting them, such as TER, by the bounds
of what it gathers), and the score is the one of a single in-memory pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..files.read import STDIN, read_blocks
from ..progress import Progress
from .stats import Statistics

if TYPE_CHECKING:
    from .metric import Metric
    from .score import ScoreResult

BLOCK_SEGMENTS = 40_000  # segments scored at once: large enough that the engine's per-call cost is spread thin
# Bytes read and decoded at once: about a block of segments, so little more text than one block is held
# (docs/performance.md measures the peaks of other sizes).
BLOCK_BYTES = 2 << 20


class _Lines:
    """The lines of one file, taken a given number at a time."""

    def __init__(self, path: str, block_bytes: int):
        self.blocks = read_blocks(path, block_bytes)
        self.buffer: list[str] = []
        self.taken, self.consumed = 0, 0

    def take(self, count: int) -> list[str]:
        while len(self.buffer) < count:  # read only what is missing: memory stays at about one block
            block = next(self.blocks, None)
            if block is None:
                break
            lines, self.consumed = block
            # Without trailing whitespace, as sacrebleu's command line reads lines (and ``cli.common.read``).
            self.buffer += [line.rstrip() for line in lines]
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        self.taken += len(taken)
        return taken

    def count_rest(self) -> int:
        """All lines of the file, reading what is left only to count it."""
        return self.taken + len(self.buffer) + sum(len(lines) for lines, _ in self.blocks)


def aligned_blocks(
    paths: Sequence[str],
    check: Callable[[list[int]], None],
    segments: int = BLOCK_SEGMENTS,
    block_bytes: int = BLOCK_BYTES,
    progress: Progress | None = None,
) -> Iterator[list[list[str]]]:
    """Blocks of ``segments`` lines of every file at once. At the end, or as soon as one file
    runs out before the others, ``check`` gets every file's line count (and raises if they differ)."""
    readers = [_Lines(os.fspath(path), block_bytes) for path in paths]
    while True:
        parts = [reader.take(segments) for reader in readers]
        if progress:
            progress.advance(readers[0].consumed - progress.done)
        if len({len(part) for part in parts}) > 1 or not parts[0]:
            check([reader.count_rest() for reader in readers])
            return
        yield parts


def stream_scores(
    make_metrics: Callable[[list[list[str]]], Sequence[Metric[Any, Any]]],
    hypothesis_path: str,
    reference_paths: Sequence[str],
    check: Callable[[list[int]], None],
    segments: int | None = None,
    progress: bool = False,
) -> list[ScoreResult]:
    """Corpus scores of one system file against reference files, one block at a time.
    ``make_metrics(reference_streams)`` builds the metrics on a block's references. Each metric
    keeps one row of sums for the blocks before and the last block's rows as they are, and the
    blocks it gathered but has not counted yet (``Metric.stream_batch_full``).
    ``segments``: per block (default ``BLOCK_SEGMENTS``, read at each call)."""
    segments = BLOCK_SEGMENTS if segments is None else segments
    bar = _progress_for(hypothesis_path) if progress else None
    sums: list[_Sums] = []
    metrics: Sequence[Metric[Any, Any]] = []
    for hypotheses, *references in aligned_blocks([hypothesis_path, *reference_paths], check, segments, progress=bar):
        metrics = make_metrics(references)
        sums = sums or [_Sums() for _ in metrics]
        for metric, running in zip(metrics, sums, strict=True):
            running.add(metric, hypotheses)
    # the bar stays up while the gathered blocks are counted
    scores = [metric.score_statistics(running.finish(metric)) for metric, running in zip(metrics, sums, strict=True)]
    if bar:
        bar.close()
    return scores


class _Sums:
    """One metric's statistics over the blocks so far: one row of sums for the blocks before, the
    last block's rows as they are, and the parts of blocks gathered but not counted yet
    (``Metric.stream_batch_full``)."""

    def __init__(self) -> None:
        self.kept: Statistics | None = None
        self.parts: list[Any] = []

    def add(self, metric: Metric[Any, Any], hypotheses: list[str]) -> None:
        """A block, counted now or once the metric has gathered enough."""
        self.parts.append(metric.stream_part(hypotheses))
        if metric.stream_batch_full(self.parts):
            self._count(metric)

    def finish(self, metric: Metric[Any, Any]) -> Statistics:
        """Every block's statistics, the gathered ones counted: sums of those before the last, its rows."""
        if self.parts:
            self._count(metric)
        assert self.kept is not None, "a stream has at least one block"
        return self.kept

    def _count(self, metric: Metric[Any, Any]) -> None:
        for block in metric.count_stream_parts(self.parts):
            self.kept = block if self.kept is None else self.kept.total() + block
        self.parts = []


def _progress_for(path: str) -> Progress | None:
    """A bar over the bytes of the hypothesis file (none for standard input, whose size is unknown)."""
    if path == STDIN:
        return None
    return Progress(f"scoring {os.path.basename(path)}:", os.path.getsize(path), unit="MiB", scale=1 << 20)
