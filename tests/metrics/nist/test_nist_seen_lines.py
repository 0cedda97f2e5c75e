"""Systems scored one at a time against references prepared once: a hypothesis another system had
at the same segment keeps its row (``engine.seen.SEEN_LINES`` of them at most) instead of being
counted again. Every system's rows equal those of a fresh metric to the bit, and so do its exact
resamples (whose detail counts every hypothesis), for both variants; empty hypotheses, missing
references, one-word lines and the same line at another segment included."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st

from mtscore.engine import seen
from mtscore.metrics.nist import NIST

WORDS = st.lists(st.sampled_from(["a", "b", "c", "0"]), max_size=6).map(" ".join)


@st.composite
def systems_sharing_lines(draw):
    """1-3 reference streams (some references missing, never all of a segment's) and 2-4 systems
    whose lines are often an earlier system's at the same segment, sometimes one of another segment."""
    n = draw(st.integers(1, 5))
    streams = [draw(st.lists(WORDS | st.none(), min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 3)))]
    for i in range(n):
        if all(stream[i] is None for stream in streams):
            streams[0][i] = draw(WORDS)
    systems = [draw(st.lists(WORDS, min_size=n, max_size=n))]
    for _ in range(draw(st.integers(1, 3))):
        kinds = draw(st.lists(st.sampled_from(["same", "same", "other segment", "new"]), min_size=n, max_size=n))
        system = []
        for i, kind in enumerate(kinds):
            earlier = draw(st.sampled_from(systems))
            system.append(
                earlier[i]
                if kind == "same"
                else draw(st.sampled_from(earlier))
                if kind == "other segment"
                else draw(WORDS)
            )
        systems.append(system)
    return systems, streams


@fixed(max_examples=120)
@given(systems_sharing_lines(), st.sampled_from(["mteval", "nltk"]), st.sampled_from([1 << 17, 0, 2]))
def test_rows_of_lines_seen_before_equal_a_fresh_count(data, variant: str, kept: int) -> None:
    systems, streams = data
    weights = np.random.default_rng(0).multinomial(len(systems[0]), [1 / len(systems[0])] * len(systems[0]), size=6)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seen, "SEEN_LINES", kept)
        metric = NIST(streams, variant=variant, tokenize="none", max_order=3)
        for hyps in [*systems, *systems[::-1]]:  # the second round: every line seen before
            fresh = NIST(streams, variant=variant, tokenize="none", max_order=3)
            ours, theirs = metric.segment_statistics(hyps), fresh.segment_statistics(hyps)
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
            np.testing.assert_array_equal(
                metric.aggregation.resampled_scores(metric, ours, weights),
                fresh.aggregation.resampled_scores(fresh, theirs, weights),
            )
        assert len(metric._references.seen) <= kept


def test_wmt22_systems_one_at_a_time_equal_fresh_counts() -> None:
    """Two WMT22 en-de systems share about a quarter of their lines; the second's rows, kept or
    counted, equal a fresh metric's."""
    from shared_data import read_lines, system_output
    from shared_data import references as reference_files

    streams = [read_lines(path) for path in reference_files("en-de", "all")]
    first, second = (read_lines(system_output("en-de", name)) for name in ("Online-A", "Online-B"))
    assert sum(a == b for a, b in zip(first, second, strict=True)) > len(first) // 10
    metric = NIST(streams, variant="nltk", lowercase=False)
    metric.segment_statistics(first)
    fresh = NIST(streams, variant="nltk", lowercase=False)
    np.testing.assert_array_equal(
        np.asarray(metric.segment_statistics(second)), np.asarray(fresh.segment_statistics(second))
    )


def test_prepared_references_pickle_without_the_rows_they_kept() -> None:
    """A metric sent to a worker (pickled) leaves the rows kept from scoring behind, and scores the same."""
    import pickle

    refs = [["the cat sat on the mat", "a b c"], ["a cat sat", None]]
    metric = NIST(refs, variant="nltk")
    for hyps in (["the cat", "a b c"], ["the cat", "a b"]):
        metric.corpus_score(hyps)
    assert len(metric._references.seen)
    copy = pickle.loads(pickle.dumps(metric))
    assert not len(copy._references.seen)
    for hyps in (["the cat", "a b"], ["a cat", "a b c"]):
        ours, theirs = copy.segment_statistics(hyps), metric.segment_statistics(hyps)
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


def test_threads_sharing_a_metric_keep_consistent_rows() -> None:
    """Systems scored from several threads against one metric: each gets a fresh metric's rows."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    words = np.array(["a", "b", "c", "d", "0"])
    refs = [[" ".join(rng.choice(words, 6)) for _ in range(40)] for _ in range(2)]
    pool = [[" ".join(rng.choice(words, rng.integers(0, 7))) for _ in range(40)] for _ in range(3)]
    systems = [[pool[rng.integers(3)][i] for i in range(40)] for _ in range(24)]
    for variant in ("mteval", "nltk", "nltk", "nltk"):  # threads interleave differently each time
        metric = NIST(refs, variant=variant)
        with ThreadPoolExecutor(4) as threads:
            rows = list(threads.map(lambda hyps, m=metric: np.asarray(m.segment_statistics(hyps)), systems))
        for hyps, ours in zip(systems, rows, strict=True):
            np.testing.assert_array_equal(ours, np.asarray(NIST(refs, variant=variant).segment_statistics(hyps)))
