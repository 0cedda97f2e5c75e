"""Generated NIST corpora split into shards, for the tests of NIST's mergeable states and contexts."""

from __future__ import annotations

from hypothesis import strategies as st

from mtscore.metrics.nist import NIST

VARIANTS = ("mteval", "nltk")
# Few words, a digit (mteval's "0" rule), case and punctuation: n-grams repeat across segments and shards.
WORDS = st.lists(st.sampled_from(["a", "b", "c", "0", "A", "."]), max_size=8).map(" ".join)


@st.composite
def split_corpora(draw) -> tuple[NIST, list[str], list[list[str | None]], list[int]]:
    """A NIST metric of drawn options, 1-6 hypotheses, 1-3 reference streams (some references missing,
    every segment keeping one) and the cuts of up to 5 shards (empty ones too)."""
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    hypotheses = draw(st.lists(WORDS, min_size=n, max_size=n))
    streams = [draw(st.lists(st.one_of(WORDS, st.none()), min_size=n, max_size=n)) for _ in range(k)]
    for i in range(n):  # every segment keeps a reference
        if all(stream[i] is None for stream in streams):
            streams[0][i] = draw(WORDS)
    cuts = sorted([*draw(st.lists(st.integers(0, n), max_size=4)), 0, n])
    metric = NIST(
        variant=draw(st.sampled_from(VARIANTS)),
        case_sensitive=draw(st.booleans()),
        max_order=draw(st.integers(1, 5)),
        tokenize=draw(st.sampled_from(["13a", "none"])),
    )
    return metric, hypotheses, streams, cuts
