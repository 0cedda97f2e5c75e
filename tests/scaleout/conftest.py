"""What the Ray and Dask tests share: a WMT22 corpus with references missing for some segments,
uneven shard boundaries with empty shards, and the in-memory results to compare with."""

from __future__ import annotations

from itertools import pairwise

import pytest
from helpers import references_taken
from shared_data import read_lines, references, system_output

from mtscore.metrics import METRICS, metric_class

PAIR, SYSTEM, SEGMENTS = "en-de", "Online-A", 300
# Shard boundaries: uneven sizes, two empty shards (a repeated cut) and an empty last one.
CUTS = [0, 7, 7, 120, 121, 260, 300, 300]
SHARDS = list(pairwise(CUTS))  # (start, end) of each shard
# The metrics whose statistics are integers: the engines' scores must be the in-memory ones to the bit.
EXACT = ("bleu", "chrf", "google_bleu", "wer", "cer")


@pytest.fixture(scope="session")
def engine_corpus():
    """Hypotheses, two reference streams (the second missing every 5th segment) and the rows."""
    hypotheses = read_lines(system_output(PAIR, SYSTEM))[:SEGMENTS]
    first, second = (read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")[:2])
    second = [None if i % 5 == 3 else line for i, line in enumerate(second)]
    rows = [
        {"id": i, "hyp": h, "ref": r, "ref_b": s}
        for i, (h, r, s) in enumerate(zip(hypotheses, first, second, strict=True))
    ]
    return hypotheses, [first, second], rows


def additive_metrics() -> list[str]:
    return [name for name in METRICS if metric_class(name).aggregation.additive]


def streams_for(name: str, streams: list) -> tuple[list, tuple[str, ...]]:
    """The reference streams and columns a metric takes (``references_taken``: WER and CER one, the others two)."""
    taken = references_taken(name, streams)
    return taken, ("ref", "ref_b")[: len(taken)]


def assert_same(name: str, ours, whole) -> None:
    """Bit-identical for integer statistics; within 1e-9 for float ones (summed in another order)."""
    if name in EXACT:
        assert ours == whole and ours.score == whole.score
    else:
        assert ours.score == pytest.approx(whole.score, rel=0, abs=1e-9)
