"""NIST's mergeable state keeps the counts both variants share and only its own variant's matches,
by name: mteval's summed over the segments, NLTK's per segment; merged, copied and compared as one."""

from __future__ import annotations

import pickle
from dataclasses import fields

import numpy as np
import pytest

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST
from mtscore.metrics.nist.aggregation import NIST_AGGREGATION
from mtscore.metrics.nist.state import CorpusMatches, SegmentMatches, StateOptions

HYPOTHESES = ["the cat sat on the mat", "a dog", ""]
STREAMS = [["the cat sat on a mat", "the dog", "nothing here"], ["a cat is on the mat", None, "empty"]]


def field_names(value: object) -> set[str]:
    return {field.name for field in fields(value)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "part", "absent"),
    [
        ("mteval", CorpusMatches, {"overlaps", "denominators", "lengths"}),
        ("nltk", SegmentMatches, {"matched", "words_by_present"}),
    ],
)
def test_a_state_carries_its_own_variants_matches_only(variant, part, absent):
    state = NIST_AGGREGATION.shard_state(NIST(variant=variant), HYPOTHESES, STREAMS)
    assert type(state.matches) is part
    assert not absent & (field_names(state) | field_names(state.shared) | field_names(state.matches))
    assert state.options == StateOptions(variant=variant, max_order=5, lowercase=True, tokenizer="13a")
    assert state.segments == state.shared.segments == len(HYPOTHESES)


def test_mteval_matches_are_summed_per_ngram_and_reference_words_by_references_present():
    """Segment 2 has one reference ("the dog": 2 words), segments 1 and 3 two (6 + 6 and 2 + 1 words);
    each matched unigram is clipped to its largest count in one reference, then summed over segments."""
    state = NIST_AGGREGATION.shard_state(NIST(), HYPOTHESES, STREAMS)
    assert state.matches.words_by_present.tolist() == [0, 2, 6 + 6 + 2 + 1]
    unigrams = state.matches.matched[0]
    tokens = state.shared.tokens
    matched = {tokens[row[0]].decode(): int(count) for row, count in zip(unigrams.rows, unigrams.counts, strict=True)}
    # "the": twice in the hypothesis, once in each reference; "a" of "a dog" is not in "the dog".
    assert matched == {"the": 1, "cat": 1, "sat": 1, "on": 1, "mat": 1, "dog": 1}


def test_nltk_matches_keep_each_segments_lengths_and_ngrams():
    state = NIST_AGGREGATION.shard_state(NIST(variant="nltk"), HYPOTHESES, STREAMS)
    assert state.matches.lengths.tolist() == [[6, 2, 2], [6, -1, 1]]  # -1: the missing reference
    assert state.matches.denominators[:, 0].tolist() == [6, 2, 0]
    assert state.matches.streams == 2


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_states_survive_pickling_and_merge_into_their_variants_part(variant):
    """Engines move states between processes by pickling them and merge them with ``+``."""
    metric = NIST(variant=variant)
    first, second = (
        metric.aggregation.shard_state(metric, HYPOTHESES[a:b], [s[a:b] for s in STREAMS]) for a, b in ((0, 1), (1, 3))
    )
    copied = pickle.loads(pickle.dumps(first))
    assert copied == first and copied is not first
    merged = copied + second
    assert type(merged.matches) is type(first.matches)
    assert merged == metric.aggregation.shard_state(metric, HYPOTHESES, STREAMS)
    assert metric.aggregation.score_shard_state(metric, merged).score == pytest.approx(
        metric.corpus_score(HYPOTHESES, STREAMS).score, rel=0, abs=1e-12
    )


def test_states_of_other_variants_or_contents_are_unequal():
    mteval, nltk = (NIST_AGGREGATION.shard_state(NIST(variant=v), HYPOTHESES, STREAMS) for v in ("mteval", "nltk"))
    assert mteval != nltk
    assert mteval != NIST_AGGREGATION.shard_state(NIST(), HYPOTHESES[:2], [s[:2] for s in STREAMS])
    assert mteval.__eq__("a state") is NotImplemented
    with pytest.raises(TypeError):
        hash(mteval)


def test_a_merge_or_score_with_other_options_names_both():
    state = NIST_AGGREGATION.shard_state(NIST(), HYPOTHESES, STREAMS)
    expected = "variant mteval, max_order 5, lowercase True, tokenize 13a"
    with pytest.raises(InputError, match=f"different options \\({expected} and variant nltk"):
        state + NIST_AGGREGATION.shard_state(NIST(variant="nltk"), HYPOTHESES, STREAMS)
    with pytest.raises(
        InputError, match=f"made with {expected} cannot be scored by NIST with variant mteval, max_order 4"
    ):
        NIST_AGGREGATION.score_shard_state(NIST(max_order=4), state)
    with pytest.raises(InputError, match=f"other options than this metric's \\({expected}\\)"):
        NIST_AGGREGATION.in_context(NIST(max_order=4), NIST_AGGREGATION.sentence_context(NIST(), STREAMS))


def test_an_empty_state_is_neutral_and_has_no_ngrams():
    metric = NIST(variant="nltk")
    state = metric.aggregation.shard_state(metric, HYPOTHESES, STREAMS)
    empty = metric.aggregation.empty_shard_state(metric)
    assert empty.segments == 0 and len(empty.shared.tokens) == 0
    assert all(len(table.counts) == 0 for table in empty.shared.references)
    assert empty + state == state and state + empty == state
    assert np.array_equal(metric.aggregation.shard_state(metric, [], [[], []]).matches.lengths, np.zeros((2, 0)))
