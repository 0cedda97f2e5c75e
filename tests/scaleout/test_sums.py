"""What the engine adapters share, without any engine: summed states (``core.sums``), the batch
reader (``columns``), and metric objects that travel to worker processes by pickle."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mtscore.columns import ColumnScorer, lines_of, with_column
from mtscore.core.sums import score_state
from mtscore.errors import InputError
from mtscore.metrics import metric_class

HYPS = ["the cat sat on the mat", "a dog", "hello world"]
REFS = [["the cat sat on a mat", "a dog ran", "hello"], ["the cat", None, "world"]]


def test_states_of_shards_add_up_to_the_corpus_score():
    bleu = metric_class("bleu")()
    parts = [bleu.aggregation.shard_state(bleu, HYPS[a:b], [s[a:b] for s in REFS]) for a, b in ((0, 0), (0, 1), (1, 3))]
    assert parts[0].tolist() == bleu.aggregation.empty_shard_state(bleu).tolist() and parts[0].dtype == np.int64
    assert score_state(bleu, sum(parts)) == bleu.corpus_score(HYPS, REFS)
    with pytest.raises(InputError, match="nothing to score"):
        score_state(bleu, parts[0])
    with pytest.raises(InputError, match="whole reference corpus"):  # without every batch's references counted
        ColumnScorer("nist", {}).for_sentences()


def test_a_bleu_object_with_options_pickles():
    bleu = metric_class("bleu")(smooth="floor", smooth_value=0.2, max_order=3)
    copy = pickle.loads(pickle.dumps(bleu))
    assert copy.scoring == bleu.scoring and copy.corpus_score(HYPS, REFS) == bleu.corpus_score(HYPS, REFS)


def test_a_column_scorer_travels_as_its_recipe():
    scorer = ColumnScorer("chrf", {"word_order": 2}, "h", ["r1", "r2"])
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy._metric is None  # rebuilt in the worker from the name and options
    batch = {"h": np.array(HYPS, dtype=object), "r1": REFS[0], "r2": np.array(REFS[1], dtype=object)}
    expected = metric_class("chrf")(word_order=2)
    assert score_state(copy.metric, copy.state(batch)) == expected.corpus_score(HYPS, REFS)
    scored = with_column(batch, "score", copy.scores(batch))
    np.testing.assert_array_equal(scored["score"], expected.sentence_scores(HYPS, REFS))
    with pytest.raises(InputError, match="reference column"):
        ColumnScorer("bleu", {}, "h", [])


def test_missing_values_read_as_none():
    assert lines_of(["a", None, float("nan"), np.float64("nan")]) == ["a", None, None, None]
    assert lines_of(np.array(["a", None], dtype=object)) == ["a", None]
