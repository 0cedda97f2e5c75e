"""NIST's mergeable state: shards of a corpus reduced to n-gram tables, merged in any
grouping, score as the whole corpus in memory, for both variants: on WMT22 with references
missing for some segments, uneven and empty shards; mteval's oracle rows; NLTK's near-ties;
generated corpora with the token ``0``, case and empty lines; and what a merge refuses."""

from __future__ import annotations

import csv
from functools import reduce
from itertools import pairwise

import pytest
from helpers import fixed
from hypothesis import given
from nist_corpora import CUTS, VARIANTS, en_de_with_gaps, split_corpora
from shared_data import SHARED_DIR, oracles_dir, read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST
from mtscore.metrics.nist.aggregation import NIST_AGGREGATION
from mtscore.metrics.nist.state import NISTState

TOLERANCE = 1e-9


def shard_states(metric: NIST, hypotheses: list, streams: list, cuts: list[int]) -> list[NISTState]:
    return [
        metric.aggregation.shard_state(metric, hypotheses[a:b], [s[a:b] for s in streams]) for a, b in pairwise(cuts)
    ]


def assert_same_result(ours, whole) -> None:
    """Integer sums equal; information, reference length (mteval: a mean, 1/3 is inexact) and
    score within 1e-9 (summed in another order)."""
    assert (ours.matches, ours.totals, ours.hyp_len) == (whole.matches, whole.totals, whole.hyp_len)
    assert ours.ref_len == pytest.approx(whole.ref_len, rel=TOLERANCE, abs=TOLERANCE)
    assert ours.info == pytest.approx(whole.info, rel=TOLERANCE, abs=TOLERANCE)
    assert ours.score == pytest.approx(whole.score, rel=0, abs=TOLERANCE)
    assert ours.signature == whole.signature.with_fields(nrefs="1")  # no references given to the metric


@pytest.fixture(scope="module")
def en_de():
    return en_de_with_gaps()


@pytest.mark.parametrize("variant", VARIANTS)
def test_shards_merge_to_the_in_memory_score(en_de, variant):
    hypotheses, streams = en_de
    metric = NIST(variant=variant)
    whole = metric.corpus_score(hypotheses, streams)
    states = shard_states(metric, hypotheses, streams, CUTS)
    assert [s.segments for s in states] == [b - a for a, b in pairwise(CUTS)]
    merged = sum(states[1:], states[0])
    assert_same_result(metric.aggregation.score_shard_state(metric, merged), whole)
    # The state of the whole corpus at once is the merge of its shards.
    assert metric.aggregation.shard_state(metric, hypotheses, streams) == merged


@pytest.mark.parametrize("variant", VARIANTS)
def test_merge_is_associative_and_commutative(en_de, variant):
    hypotheses, streams = en_de
    metric = NIST(variant=variant)
    a, b, c = shard_states(metric, hypotheses, streams, [0, 500, 501, 2037])
    assert (a + b) + c == a + (b + c)
    empty = metric.aggregation.empty_shard_state(metric)
    assert a + empty == a and empty + a == a
    if variant == "mteval":  # tables only: the very same state
        assert a + b == b + a and (c + a) + b == a + (b + c)
    else:  # NLTK keeps its segments in the order merged: another order, the same score
        assert (
            metric.aggregation.score_shard_state(metric, b + a).score
            == metric.aggregation.score_shard_state(metric, a + b).score
        )
    whole = metric.corpus_score(hypotheses, streams)
    for merged in (c + (b + a), (c + a) + b):
        assert metric.aggregation.score_shard_state(metric, merged).score == pytest.approx(
            whole.score, rel=0, abs=TOLERANCE
        )


def test_states_made_differently_do_not_merge(en_de):
    hypotheses, streams = en_de
    part = (hypotheses[:20], [s[:20] for s in streams])
    with pytest.raises(InputError, match="different options"):
        NIST_AGGREGATION.shard_state(NIST(), *part) + NIST_AGGREGATION.shard_state(NIST(max_order=4), *part)
    with pytest.raises(InputError, match="different options"):
        NIST_AGGREGATION.shard_state(NIST(), *part) + NIST_AGGREGATION.shard_state(NIST(variant="nltk"), *part)
    with pytest.raises(InputError, match="cannot be scored"):
        NIST_AGGREGATION.score_shard_state(NIST(lowercase=False), NIST_AGGREGATION.shard_state(NIST(), *part))


def _oracle_rows() -> list[dict[str, str]]:
    path = SHARED_DIR / "data" / "oracles" / "nist_mteval_v13a_wmt22.tsv"
    if not path.is_file():
        return [{}]
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [row for row in rows if row["pair"] == "en-de"][:3]


@pytest.mark.parametrize("row", _oracle_rows(), ids=lambda row: "-".join(list(row.values())[:3]) or "missing")
def test_mteval_oracle_from_merged_shards(row):
    """mteval-v13a.pl's numbers (the oracle of ``test_nist_oracle``) from three shards' merged state."""
    oracles_dir()
    streams = [read_lines(references(row["pair"], name)[0]) for name in row["refs"].split("+")]
    hypotheses = read_lines(system_output(row["pair"], row["system"]))
    metric = NIST(lowercase=False)
    cuts = [0, 333, 1000, len(hypotheses)]
    result = metric.aggregation.score_shard_state(
        metric, reduce(NISTState.__add__, shard_states(metric, hypotheses, streams, cuts))
    )
    assert result.matches == [int(x) for x in row["matches_1-5"].split(",")]
    assert result.totals == [int(x) for x in row["hyp_ngrams_1-5"].split(",")]
    info = [float(x) for x in row["info_gain_1-5"].split(",")]
    assert result.info == pytest.approx(info, rel=TOLERANCE, abs=TOLERANCE)
    assert result.ref_len == pytest.approx(float(row["avg_ref_len"]), abs=TOLERANCE)
    assert result.score == pytest.approx(float(row["nist"]), abs=TOLERANCE)


# References whose information sums are equal as reals but not in NLTK's float order
# (``test_nist_nltk``): the pick, and so the score, must follow NLTK's arithmetic after a merge too.
NEAR_TIE_HYPS = ["a b c d e f", ""]
NEAR_TIE_REFS = [["a b c g g h", "b c c c d e e e"], ["d e f g g", "i"]]


def test_nltk_near_ties_after_a_merge():
    for streams in (NEAR_TIE_REFS, NEAR_TIE_REFS[::-1]):
        for hyps in (NEAR_TIE_HYPS, ["f e d c b a", ""]):
            metric = NIST(variant="nltk", lowercase=False, tokenize="none", max_order=1)
            whole = metric.corpus_score(hyps, streams)
            merged = reduce(NISTState.__add__, shard_states(metric, hyps, streams, [0, 0, 1, 2]))
            # The other pick would be 0.1336 instead of 0.0805: within 1e-9 is the same pick.
            assert metric.aggregation.score_shard_state(metric, merged).score == pytest.approx(
                whole.score, rel=0, abs=TOLERANCE
            )


@fixed(max_examples=150)
@given(split_corpora())
def test_generated_corpora_split_anywhere(corpus):
    metric, hypotheses, streams, cuts = corpus
    whole = metric.corpus_score(hypotheses, streams)
    states = shard_states(metric, hypotheses, streams, cuts)
    assert_same_result(metric.aggregation.score_shard_state(metric, sum(states[1:], states[0])), whole)
