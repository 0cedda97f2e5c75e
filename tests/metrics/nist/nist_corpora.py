"""Generated NIST corpora split into shards, for the tests of NIST's mergeable states and contexts."""

from __future__ import annotations

from hypothesis import strategies as st
from shared_data import read_lines, references, system_output

from mtscore.metrics.nist import NIST

VARIANTS = ("mteval", "nltk")
CUTS = [0, 7, 7, 120, 121, 1300, 2037, 2037]  # uneven shards of WMT22 en-de, two empty ones
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
        lowercase=draw(st.booleans()),
        max_order=draw(st.integers(1, 5)),
        tokenize=draw(st.sampled_from(["13a", "none"])),
    )
    return metric, hypotheses, streams, cuts


def en_de_with_gaps() -> tuple[list[str], list[list[str | None]]]:
    """WMT22 en-de Online-A and both references, the second missing for every fifth segment."""
    hypotheses = read_lines(system_output("en-de", "Online-A"))
    first, second = (read_lines(path) for path in references("en-de", "all"))
    second = [None if i % 5 == 3 else line for i, line in enumerate(second)]  # missing references
    assert len(hypotheses) == CUTS[-1]
    return hypotheses, [first, second]
