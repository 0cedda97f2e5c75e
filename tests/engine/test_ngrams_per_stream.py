"""``ReferenceNgrams.matches_of(per_stream=True)``: all streams in one sort, each clipped on its own,
equal to counting each stream in a table of its own."""

import numpy as np
import pytest

from mtscore.engine.ngrams import ReferenceNgrams


def _corpus(rng, n_segments, vocab, longest):
    lengths = rng.integers(0, longest + 1, n_segments)
    return rng.integers(0, vocab, int(lengths.sum())), lengths


@pytest.mark.parametrize("n_systems", [1, 2])  # 1: one hypothesis per reference, counted without runs
@pytest.mark.parametrize("seed", range(5))
def test_per_stream_equals_one_table_per_stream(seed, n_systems):
    rng = np.random.default_rng(seed)
    vocab, n_segments, max_order = 6, 40, 4  # a small vocabulary: many repeated n-grams to clip
    streams = [_corpus(rng, n_segments, vocab, 12) for _ in range(3)]
    systems = [_corpus(rng, n_segments, vocab + 2, 12) for _ in range(n_systems)]  # ids >= vocab: unknown
    together = ReferenceNgrams(streams, vocab, max_order).matches_of(systems, per_stream=True)
    assert together.shape == (n_systems, n_segments, 3, max_order)
    for stream, one in enumerate(streams):
        alone = ReferenceNgrams([one], vocab, max_order).matches_of(systems)
        np.testing.assert_array_equal(together[:, :, stream], alone)
    # BLEU's clipping (against the largest count in any stream) matches at least as much as any one stream
    combined = ReferenceNgrams(streams, vocab, max_order).matches_of(systems)
    assert (combined >= together.max(axis=2)).all()
