"""NIST through ``mtscore.torch``: ``StreamingScore`` merges every batch's n-gram tables,
on one process and across two real ``torch.distributed`` processes (gloo, ``all_gather_object``),
and scores them as the in-memory API scores the whole corpus, both variants; so does the torchmetrics
adapter, whose NIST state travels as bytes, with a process that has no batch of its own."""

from __future__ import annotations

import itertools

import pytest
from gloo_ranks import gloo_ranks
from shared_data import read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.metrics.nist import NIST

torch = pytest.importorskip("torch")
from mtscore.torch import StreamingScore, torchmetrics_score  # noqa: E402

SEGMENTS = 400
CUTS = [0, 13, 13, 200, 201, 400]  # uneven batches, an empty one


@pytest.fixture(scope="module")
def corpus():
    hypotheses = read_lines(system_output("en-de", "Online-A"))[:SEGMENTS]
    first, second = (read_lines(path)[:SEGMENTS] for path in references("en-de", "all"))
    return hypotheses, [first, [None if i % 7 == 2 else line for i, line in enumerate(second)]]


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_batches_score_as_the_whole_corpus(corpus, variant):
    hypotheses, streams = corpus
    scorer, other = StreamingScore("nist", variant=variant), StreamingScore("nist", variant=variant)
    for start, end in itertools.pairwise(CUTS):
        (scorer if start < 200 else other).update(hypotheses[start:end], [s[start:end] for s in streams])
    scorer.merge_state(other.state())
    whole = NIST(variant=variant).corpus_score(hypotheses, streams)
    result = scorer.compute()
    assert result.score == pytest.approx(whole.score, rel=0, abs=1e-9)
    assert (result.matches, result.totals, result.ref_len) == (whole.matches, whole.totals, whole.ref_len)
    scorer.reset()
    with pytest.raises(InputError, match="nothing to score"):
        scorer.compute()
    with pytest.raises(InputError, match="different options"):
        scorer.merge_state(StreamingScore("nist", variant=variant, max_order=3).state())


@pytest.mark.parametrize("variant", ["mteval", "nltk"])
def test_torchmetrics_adapter_merges_nist_tables(corpus, variant):
    """The adapter keeps NIST's n-gram tables (as bytes): batches score as the whole corpus, as
    ``StreamingScore`` scores them, and ``reset`` forgets them."""
    pytest.importorskip("torchmetrics")
    hypotheses, streams = corpus
    ours, streaming = torchmetrics_score("nist", variant=variant), StreamingScore("nist", variant=variant)
    for start, end in itertools.pairwise(CUTS):
        batch = (hypotheses[start:end], [s[start:end] for s in streams])
        ours.update(*batch)
        streaming.update(*batch)
    whole = NIST(variant=variant).corpus_score(hypotheses, streams)
    result = ours.result()
    assert result.score == streaming.compute().score
    assert result.score == pytest.approx(whole.score, rel=0, abs=1e-9)
    assert (result.matches, result.totals, result.ref_len) == (whole.matches, whole.totals, whole.ref_len)
    assert ours.compute().item() == result.score
    ours.reset()
    with pytest.raises(InputError, match="nothing to score"):
        ours.result()


def test_torchmetrics_adapter_over_many_nist_batches(corpus):
    """More batches than the adapter keeps frames of (they are merged into one now and then), and
    another adapter's merged in: the corpus score of everything."""
    pytest.importorskip("torchmetrics")
    hypotheses, streams = corpus
    ours, other = torchmetrics_score("nist"), torchmetrics_score("nist")
    for start, end in itertools.pairwise([*range(0, 300, 7), 300]):
        ours.update(hypotheses[start:end], [s[start:end] for s in streams])
    other.update(hypotheses[300:], [s[300:] for s in streams])
    ours.merge_state(other)
    whole = NIST().corpus_score(hypotheses, streams)
    assert len(ours.frames) <= 17
    assert ours.result().score == pytest.approx(whole.score, rel=0, abs=1e-9)
    assert ours.result().matches == whole.matches


def _scores(rank: int, world: int, hypotheses, streams) -> dict:
    """One rank's NIST results of its interleaved shard, merged over both ranks."""
    results = {}
    for variant in ("mteval", "nltk"):
        scorer = StreamingScore("nist", variant=variant)
        mine = range(rank, len(hypotheses), world)  # interleaved shards
        scorer.update([hypotheses[i] for i in mine], [[stream[i] for i in mine] for stream in streams])
        results[variant] = scorer.compute().to_dict()
    lonely = StreamingScore("nist")  # a rank with no batch of its own still takes part
    if rank == 1:
        lonely.update(hypotheses, streams)
    results["rank1_only"] = lonely.compute().score
    if torchmetrics_installed():
        adapter = torchmetrics_score("nist", variant="nltk")  # rank 0 with no batch of its own
        for start, end in itertools.pairwise(CUTS):
            if rank == 1 and start < end:
                adapter.update(hypotheses[start:end], [s[start:end] for s in streams])
        results["torchmetrics_rank1_only"] = adapter.compute().item()
    return results


def torchmetrics_installed() -> bool:
    try:
        import torchmetrics  # noqa: F401
    except ImportError:
        return False
    return True


def test_two_gloo_processes_score_nist_as_one(corpus):
    hypotheses, streams = corpus
    results = gloo_ranks(_scores, 2, hypotheses, streams)
    assert results[0] == results[1]  # every process merges the same states in rank order
    for variant in ("mteval", "nltk"):
        whole = NIST(variant=variant).corpus_score(hypotheses, streams).to_dict()
        ours = results[0][variant]
        assert ours["score"] == pytest.approx(whole["score"], rel=0, abs=1e-9)
        assert [ours[key] for key in ("matches", "totals", "ref_len")] == [
            whole[key] for key in ("matches", "totals", "ref_len")
        ]
    assert results[0]["rank1_only"] == pytest.approx(NIST().corpus_score(hypotheses, streams).score, abs=1e-9)
    if torchmetrics_installed():
        whole = NIST(variant="nltk").corpus_score(hypotheses, streams).score
        assert results[0]["torchmetrics_rank1_only"] == pytest.approx(whole, rel=0, abs=1e-9)
