"""``mtscore.torch``: a stateful score over summed statistics, on one process and on two
processes of ``torch.distributed`` (gloo, real processes), and the torchmetrics adapter whose
int64 state stays exact where torchmetrics' own BLEU state (float32) does not."""

from __future__ import annotations

import numpy as np
import pytest
from gloo_ranks import gloo_ranks
from helpers import references_taken
from shared_data import read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.metrics import METRICS, metric_class

torch = pytest.importorskip("torch")
from mtscore.torch import StreamingScore, torchmetrics_score  # noqa: E402

PAIR, SYSTEM, SEGMENTS = "en-de", "Online-A", 400


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output(PAIR, SYSTEM))[:SEGMENTS]
    streams = [read_lines(path)[:SEGMENTS] for path in references(PAIR, "all")]
    return hypotheses, streams


def additive_metrics() -> list[str]:
    return [name for name in METRICS if metric_class(name).aggregation.additive]


@pytest.mark.parametrize("name", additive_metrics())
def test_batches_score_as_the_whole_corpus(corpus, name):
    """Any split into batches gives the corpus score of the whole, to the last bit."""
    hypotheses, streams = corpus
    streams = references_taken(name, streams)
    rng = np.random.default_rng(7)
    cuts = sorted(rng.choice(np.arange(1, SEGMENTS), size=6, replace=False).tolist())
    scorer = StreamingScore(name)
    for start, end in zip([0, *cuts], [*cuts, SEGMENTS], strict=True):
        scorer.update(hypotheses[start:end], [stream[start:end] for stream in streams])
    whole = metric_class(name)().corpus_score(hypotheses, streams)
    if scorer.state().dtype.kind == "i":  # integer statistics: the very same sums
        assert scorer.compute().score == whole.score
    else:  # float statistics (METEOR's sentence scores, TER's average lengths) summed in another order
        assert scorer.compute().score == pytest.approx(whole.score, rel=0, abs=1e-9)
    scorer.reset()
    with pytest.raises(InputError, match="nothing to score"):
        scorer.compute()


def test_states_merge_and_states_of_other_scorers_are_refused(corpus):
    hypotheses, streams = corpus
    first, second = StreamingScore("chrf", word_order=2), StreamingScore("chrf", word_order=2)
    first.update(hypotheses[:100], [s[:100] for s in streams])
    second.update(hypotheses[100:], [s[100:] for s in streams])
    first.merge_state(second.state())
    assert first.compute() == metric_class("chrf")(word_order=2).corpus_score(hypotheses, streams)
    with pytest.raises(InputError, match="row of"):
        first.merge_state(StreamingScore("bleu").state())
    with pytest.raises(InputError, match="is a NISTState"):
        StreamingScore("nist").merge_state(first.state())


def _scores(rank: int, world: int, hypotheses, streams) -> dict:
    """One rank's scores of its interleaved shard, merged over both ranks."""
    results = {}
    for name, options in (("bleu", {}), ("chrf", {"word_order": 2}), ("ter", {})):
        scorer = StreamingScore(name, **options)
        mine = range(rank, len(hypotheses), world)  # uneven, interleaved shards
        scorer.update([hypotheses[i] for i in mine], [[stream[i] for i in mine] for stream in streams])
        results[name] = scorer.compute().score
    empty = StreamingScore("bleu")  # a rank with no batch of its own still takes part
    if rank == 0:
        empty.update(hypotheses, streams)
    results["rank0_only"] = empty.compute().score
    return results


def test_two_gloo_processes_score_as_one(corpus):
    hypotheses, streams = corpus
    results = gloo_ranks(_scores, 2, hypotheses, streams)
    assert results[0] == results[1]
    expected = {
        "bleu": metric_class("bleu")().corpus_score(hypotheses, streams).score,
        "chrf": metric_class("chrf")(word_order=2).corpus_score(hypotheses, streams).score,
        "ter": metric_class("ter")().corpus_score(hypotheses, streams).score,
    }
    assert results[0]["bleu"] == expected["bleu"] and results[0]["chrf"] == expected["chrf"]
    assert results[0]["ter"] == pytest.approx(expected["ter"], abs=1e-9)  # float sums, added in another order
    assert results[0]["rank0_only"] == expected["bleu"]


def test_torchmetrics_adapter_keeps_counts_exact_past_2_to_the_24(corpus):
    torchmetrics = pytest.importorskip("torchmetrics")
    hypotheses, streams = corpus
    ours = torchmetrics_score("bleu")
    ours.update(hypotheses[:200], [s[:200] for s in streams])
    ours.update(hypotheses[200:], [s[200:] for s in streams])
    assert ours.result() == metric_class("bleu")().corpus_score(hypotheses, streams)
    assert float(ours.compute()) == ours.result().score

    big = 1 << 24
    theirs = torchmetrics.text.BLEUScore()
    theirs.numerator = theirs.numerator + big
    ours.sums = ours.sums + big  # every count far past float32's exact integers
    before = ours.sums.clone()
    theirs.update(["the cat sat"], [["the cat sat"]])
    ours.update(["the cat sat"], [["the cat sat"]])
    assert float(theirs.numerator[0]) == big  # torchmetrics lost the three unigram matches (float32)
    assert int(ours.sums[2] - before[2]) == 3  # ours counted them: int64 state


def test_torchmetrics_adapters_merge_their_states(corpus):
    """``merge_state`` of two adapters of one metric: the corpus score of both halves; of another
    metric or other options: refused with a message."""
    pytest.importorskip("torchmetrics")
    hypotheses, streams = corpus
    first, second = torchmetrics_score("chrf", word_order=2), torchmetrics_score("chrf", word_order=2)
    first.update(hypotheses[:150], [s[:150] for s in streams])
    second.update(hypotheses[150:], [s[150:] for s in streams])
    first.merge_state(second)
    assert first.result() == metric_class("chrf")(word_order=2).corpus_score(hypotheses, streams)
    for other in (torchmetrics_score("chrf"), torchmetrics_score("bleu")):
        with pytest.raises(InputError, match="cannot merge"):
            first.merge_state(other)
