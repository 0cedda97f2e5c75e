"""Clipped matches when every reference group holds one hypothesis and one reference stream (the
runs-free path of ``engine.ngrams``), and when several hypotheses share a group (the runs path):
both equal a brute-force count of each segment's n-grams."""

from collections import Counter

import numpy as np
import pytest

from mtscore.engine.ngrams import ReferenceNgrams


def _corpus(rng, n_segments, vocab, longest):
    lengths = rng.integers(0, longest + 1, n_segments)
    return rng.integers(0, vocab, int(lengths.sum())), lengths


def _brute_force(hypotheses, references, max_order):
    """Each segment's clipped n-gram matches, order by order, with Counters."""
    (hyp_ids, hyp_lengths), (ref_ids, ref_lengths) = hypotheses, references
    hyp_at, ref_at = np.cumsum(hyp_lengths) - hyp_lengths, np.cumsum(ref_lengths) - ref_lengths
    out = np.zeros((len(hyp_lengths), max_order), dtype=np.int64)
    for segment in range(len(hyp_lengths)):
        hyp = hyp_ids[hyp_at[segment] : hyp_at[segment] + hyp_lengths[segment]].tolist()
        ref = ref_ids[ref_at[segment] : ref_at[segment] + ref_lengths[segment]].tolist()
        for n in range(1, max_order + 1):
            mine = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
            theirs = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
            out[segment, n - 1] = sum(min(count, theirs[gram]) for gram, count in mine.items())
    return out


@pytest.mark.parametrize("seed", range(4))
def test_one_hypothesis_per_group_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    vocab, n_segments, max_order = 5, 300, 4  # a small vocabulary: repeated n-grams to clip
    reference = _corpus(rng, n_segments, vocab, 14)
    hypotheses = _corpus(rng, n_segments, vocab + 2, 14)  # ids >= vocab: unknown
    counted = ReferenceNgrams([reference], vocab, max_order).matches(*hypotheses)
    np.testing.assert_array_equal(counted, _brute_force(hypotheses, reference, max_order))


@pytest.mark.parametrize("seed", range(2))
def test_shared_groups_equal_brute_force(seed):
    """References repeated across segments (``groups``) and two systems: several hypotheses per group."""
    rng = np.random.default_rng(seed)
    vocab, n_distinct, max_order = 5, 60, 4
    distinct = _corpus(rng, n_distinct, vocab, 12)
    groups = rng.integers(0, n_distinct, 200)
    starts = np.cumsum(distinct[1]) - distinct[1]
    expanded = (
        np.concatenate([distinct[0][starts[g] : starts[g] + distinct[1][g]] for g in groups]),
        distinct[1][groups],
    )
    systems = [_corpus(rng, len(groups), vocab, 12) for _ in range(2)]
    counted = ReferenceNgrams([distinct], vocab, max_order, groups=groups).matches_of(systems)
    for system, hypotheses in enumerate(systems):
        np.testing.assert_array_equal(counted[system], _brute_force(hypotheses, expanded, max_order))


@pytest.mark.parametrize("longest", [0, 1, 2, 90])
def test_one_hypothesis_per_group_edges(longest):
    """Empty and one-token segments, and runs of one token longer than the walk's step-by-step
    limit (found through the group bounds instead), equal the brute-force count."""
    rng = np.random.default_rng(longest)
    vocab, n_segments, max_order = 2, 40, 4  # two ids: long groups of equal n-grams
    reference = _corpus(rng, n_segments, vocab, longest)
    hypotheses = _corpus(rng, n_segments, vocab, longest)
    counted = ReferenceNgrams([reference], vocab, max_order).matches(*hypotheses)
    np.testing.assert_array_equal(counted, _brute_force(hypotheses, reference, max_order))


def test_one_hypothesis_per_group_one_repeated_token():
    """A hypothesis and a reference of one token repeated (one group of hundreds per order)."""
    hypotheses = (np.zeros(300, dtype=np.int64), np.array([299, 0, 1]))
    reference = (np.zeros(250, dtype=np.int64), np.array([200, 49, 1]))
    counted = ReferenceNgrams([reference], 1, 4).matches(*hypotheses)
    np.testing.assert_array_equal(counted, _brute_force(hypotheses, reference, 4))
    assert counted[0].tolist() == [200, 199, 198, 197]


def test_one_hypothesis_per_group_on_torch_equals_numpy():
    """The boundary walk on torch tensors (CPU) counts what it counts on NumPy arrays, long groups included."""
    torch = pytest.importorskip("torch")
    from mtscore.engine.backend import TorchOps

    rng = np.random.default_rng(5)
    reference, hypotheses = _corpus(rng, 300, 3, 40), _corpus(rng, 300, 4, 40)
    counted = ReferenceNgrams([reference], 3, 4).matches(*hypotheses)
    on_torch = ReferenceNgrams([tuple(map(torch.as_tensor, reference))], 3, 4, TorchOps(torch.device("cpu")))
    np.testing.assert_array_equal(on_torch.matches(*map(torch.as_tensor, hypotheses)), counted)
    np.testing.assert_array_equal(counted, _brute_force(hypotheses, reference, 4))
