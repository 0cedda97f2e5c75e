"""TER's banded engine equals sacrebleu 2.6.0: long segments stored as a band of the
beam (memory rows x beam, checked with tracemalloc), the banded and wide-beam paths on generated
text, and several references, where a pair may stop early once it cannot give the minimum."""

from __future__ import annotations

import random
import tracemalloc
from itertools import pairwise

import numpy as np
import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER

from mtscore.metrics.ter import TER, corpus_ter, sentence_ter
from mtscore.metrics.ter import align as ter_align
from mtscore.metrics.ter import beam as ter_beam
from mtscore.threads import map_threads


def long_pair(n: int = 2000, seed: int = 3) -> tuple[str, str]:
    """An ``n``-word reference and a hypothesis with substitutions, a 10-word drift off the
    pseudo-diagonal (10 deletions, later 10 insertions) and a shifted block."""
    rng = random.Random(seed)
    ref = [f"w{rng.randrange(5000)}" for _ in range(n)]
    hyp = list(ref)
    for k in range(12):
        hyp[rng.randrange(n)] = f"x{k}"
    del hyp[400:410]
    hyp[1600:1600] = [f"y{k}" for k in range(10)]
    block = hyp[900:903]
    del hyp[900:903]
    hyp[915:915] = block
    return " ".join(hyp), " ".join(ref)


def same(hypothesis: str, references: list[str]) -> None:
    ours, theirs = sentence_ter(hypothesis, references), SacreTER().sentence_score(hypothesis, references)
    assert (ours.num_edits, ours.ref_length) == (theirs.num_edits, theirs.ref_length)


@pytest.mark.slow
def test_two_thousand_word_segments_equal_sacrebleu():
    hypothesis, reference = long_pair()
    same(hypothesis, [reference])
    assert sentence_ter(hypothesis, [reference]).num_edits == 33


@pytest.mark.slow
def test_two_thousand_word_segments_memory_is_rows_times_beam():
    """Whole matrices of 2,001 x 2,001 cells took over 80 MB; the band (2,001 x 52 cells per
    matrix) and the candidate search stay under 8 MB (tracemalloc sees NumPy's buffers)."""
    hypothesis, reference = long_pair()
    sentence_ter("a b", ["a b"])  # imports and caches outside the measure
    tracemalloc.start()
    try:
        sentence_ter(hypothesis, [reference])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak


def test_long_pairs_are_banded_short_ones_dense():
    """The band is used where it is narrower than a third of the reference, and is tercom's beam;
    with a wide beam (length ratio above 50), row 0 is stored from mid-row."""
    ids = np.arange(400, dtype=np.int32)
    band = ter_beam.Band(ids[None, :300], ids[None, :300], np.array([300]), np.array([300]), np.int16, 1 << 13)
    assert not band.dense and band.w == 2 * ter_beam.BEAM_WIDTH + 1
    short = ter_beam.Band(ids[None, :40], ids[None, :40], np.array([40]), np.array([40]), np.int16, 1 << 13)
    assert short.dense and short.w == 41
    wide = ter_beam.Band(ids[None, :5], ids[None, :400], np.array([5]), np.array([400]), np.int16, 1 << 13)
    assert not wide.dense and wide.w > 2 * ter_beam.BEAM_WIDTH + 1 and wide.off[0, 0] > 0


@st.composite
def edited(draw, min_words: int, max_words: int, vocabulary: int):
    """A reference and a hypothesis made from it by a few substitutions, deletions, insertions and
    block moves (few shift candidates, so that sacrebleu stays fast on long text)."""
    words = st.integers(0, vocabulary - 1).map(lambda i: f"w{i}")
    ref = draw(st.lists(words, min_size=min_words, max_size=max_words))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["sub", "del", "ins", "move", "run"]))
        at = draw(st.integers(0, max(0, len(hyp) - 1)))
        if kind == "sub" and hyp:
            hyp[at] = draw(words)
        elif kind == "del" and hyp:
            del hyp[at]
        elif kind == "ins":
            hyp.insert(at, draw(words))
        elif kind == "run":  # a drift off the diagonal: up to 35 words deleted or inserted
            size = draw(st.integers(1, 35))
            if draw(st.booleans()):
                del hyp[at : at + size]
            else:
                hyp[at:at] = [f"z{k}" for k in range(size)]
        elif kind == "move" and len(hyp) > 4:
            size = draw(st.integers(1, 4))
            block = hyp[at : at + size]
            del hyp[at : at + size]
            to = draw(st.integers(max(0, at - 40), min(len(hyp), at + 40)))
            hyp[to:to] = block
    return " ".join(hyp), " ".join(ref)


@fixed(max_examples=12)
@given(pair=edited(160, 220, vocabulary=60))
def test_generated_banded_segments(pair):
    """References longer than three times the band (153 words): the banded path, both ways round."""
    hypothesis, reference = pair
    same(hypothesis, [reference])
    same(reference, [hypothesis])


@fixed(max_examples=15)
@given(
    short=st.lists(st.sampled_from([f"w{i}" for i in range(8)]), min_size=1, max_size=7),
    long=st.lists(st.sampled_from([f"w{i}" for i in range(8)]), min_size=300, max_size=480),
)
def test_generated_wide_beam_banded(short, long):
    """A length ratio above 50 (a wider beam), stored whole or as a band."""
    hypothesis, reference = " ".join(short), " ".join(long)
    same(hypothesis, [reference])
    same(reference, [hypothesis])


@fixed(max_examples=30)
@given(data=st.data())
def test_generated_several_references_stop_early_exactly(data):
    """Several references, some equal, permuted or near each other (bounds and ties meet): the
    fewest edits per segment stay sacrebleu's, though some pairs stop early."""
    vocabulary = st.sampled_from(list("abcdef"))
    n = data.draw(st.integers(1, 4))
    hypotheses = [" ".join(data.draw(st.lists(vocabulary, max_size=25))) for _ in range(n)]
    streams = []
    for _ in range(data.draw(st.integers(2, 4))):
        stream = []
        for hypothesis in hypotheses:
            kind = data.draw(st.sampled_from(["same", "permuted", "other", "prefix"]))
            words = hypothesis.split()
            if kind == "permuted":
                words = data.draw(st.permutations(words))
            elif kind == "other":
                words = data.draw(st.lists(vocabulary, max_size=25))
            elif kind == "prefix":
                words = words[: data.draw(st.integers(0, len(words)))]
            stream.append(" ".join(words))
        streams.append(stream)
    ours = TER(streams).segment_statistics(hypotheses)
    metric = SacreTER()
    theirs = [metric.sentence_score(h, [s[i] for s in streams]) for i, h in enumerate(hypotheses)]
    assert ours[:, 0].tolist() == [t.num_edits for t in theirs]
    assert ours[:, 1].tolist() == [t.ref_length for t in theirs]


def test_stopping_early_keeps_each_minimum_and_saves_work(monkeypatch):
    """Two references, one close to the hypothesis: the far one stops before any shift."""
    rounds = []
    run_round = ter_align._Pairs.run_round

    def counting(self, chunk):
        rounds.append(len(chunk))
        return run_round(self, chunk)

    monkeypatch.setattr(ter_align._Pairs, "run_round", counting)
    hypotheses = ["a b c d e f g h", "x y z"]
    streams = [["a b c d e f h g", "z y x"], ["h g f e d c b a q q", "x y z w"]]
    score = corpus_ter(hypotheses, streams)
    assert score.num_edits == SacreTER().corpus_score(hypotheses, streams).num_edits
    assert rounds[0] == 3  # the far reference of the first segment (bound 10 > 1 edit) never shifts


def test_lower_bound_is_below_every_count():
    rng = np.random.default_rng(5)
    hyps = [rng.integers(-1, 6, rng.integers(0, 30)).astype(np.int32) for _ in range(300)]
    refs = [rng.integers(0, 6, rng.integers(0, 30)).astype(np.int32) for _ in range(300)]
    bound = ter_align._fewest_edits_bound(ter_align._Pairs(hyps, refs))
    assert (bound <= ter_align.count_edits(hyps, refs)).all()
    assert (bound >= 0).all()


@pytest.mark.slow
def test_chunks_on_threads_count_as_sacrebleu(monkeypatch):
    """A round's chunks run on threads (they write disjoint pairs): with tiny chunks and four
    threads, every segment's fewest edits over two references are still sacrebleu's."""
    threaded = []

    def on_four_threads(function, chunks):
        threaded.append(len(chunks))
        return map_threads(function, chunks, threads=4)

    monkeypatch.setattr(ter_align, "_CELL_BUDGET", 2_000)
    monkeypatch.setattr(ter_align, "map_threads", on_four_threads)
    rng = random.Random(11)
    vocabulary = list("abcdefgh")
    references = [[" ".join(rng.choices(vocabulary, k=rng.randrange(1, 30))) for _ in range(200)] for _ in range(2)]
    hypotheses = []
    for reference in references[0]:
        words = reference.split()
        cut = rng.randrange(len(words) + 1)
        head = words[:cut]
        rng.shuffle(head)
        hypotheses.append(" ".join(head + words[cut:] + rng.choices(vocabulary, k=rng.randrange(3))))
    ours = TER(references).segment_statistics(hypotheses)
    metric = SacreTER()
    theirs = [metric.sentence_score(h, [s[i] for s in references]) for i, h in enumerate(hypotheses)]
    assert ours[:, 0].tolist() == [t.num_edits for t in theirs]
    assert max(threaded) > 4  # many chunks per round did run on the threads


def test_gathered_blocks_keep_each_segments_statistics():
    """Blocks' pairs counted at once (streaming) give each block the rows it has alone, in order,
    whatever each block's references: two streams, one with a missing reference, a single one."""
    rng = random.Random(4)

    def line(n):
        return " ".join(rng.choices(list("abcdefg"), k=n))

    blocks = []
    for n_segments, n_refs, missing in ((7, 2, False), (5, 2, True), (9, 1, False), (1, 3, False)):
        hypotheses = [line(rng.randrange(0, 25)) for _ in range(n_segments)]
        streams = [[line(rng.randrange(1, 25)) for _ in range(n_segments)] for _ in range(n_refs)]
        if missing:
            streams[1][2] = None
        blocks.append((hypotheses, streams))
    metrics = [TER(streams) for _, streams in blocks]
    parts = [metric.stream_part(hypotheses) for metric, (hypotheses, _) in zip(metrics, blocks, strict=True)]
    together = metrics[-1].count_stream_parts(parts)
    alone = [metric.segment_statistics(hypotheses) for metric, (hypotheses, _) in zip(metrics, blocks, strict=True)]
    assert [statistics.matrix.tolist() for statistics in together] == [rows.tolist() for rows in alone]
    metric = SacreTER()
    for (hypotheses, streams), rows in zip(blocks, alone, strict=True):
        present = [[s[i] for s in streams if s[i] is not None] for i in range(len(hypotheses))]
        assert rows[:, 0].tolist() == [
            metric.sentence_score(h, r).num_edits for h, r in zip(hypotheses, present, strict=True)
        ]


def test_gathered_blocks_are_spent_once_counted():
    """Counting gathered blocks takes their ids (held once, not copied beside the blocks): each block
    is left with none, and the rows are those of the blocks counted one by one."""
    rng = random.Random(6)
    words = list("abcdef")
    blocks = [
        (
            [" ".join(rng.choices(words, k=rng.randrange(1, 20))) for _ in range(6)],
            [[" ".join(rng.choices(words, k=rng.randrange(1, 20))) for _ in range(6)]],
        )
        for _ in range(3)
    ]
    metrics = [TER(streams) for _, streams in blocks]
    parts = [metric.stream_part(hypotheses) for metric, (hypotheses, _) in zip(metrics, blocks, strict=True)]
    assert all(part.words > 0 for part in parts)
    together = metrics[0].count_stream_parts(parts)
    assert all(part.words == 0 for part in parts)
    alone = [metric.segment_statistics(hypotheses) for metric, (hypotheses, _) in zip(metrics, blocks, strict=True)]
    assert [statistics.matrix.tolist() for statistics in together] == [rows.tolist() for rows in alone]


def test_joined_ids_are_left_as_given_unless_shifted_in_place():
    """Shifts rotate hypothesis ids: a caller's joined ids stay as they were, int32 or int64, unless
    it lets them be shifted in place; the counts are the same either way."""
    hyps = [np.array([1, 2, 3, 4, 5, 6], dtype=np.int32), np.array([7, 8, 9], dtype=np.int32)]
    refs = [np.array([4, 5, 6, 1, 2, 3], dtype=np.int32), np.array([9, 7, 8], dtype=np.int32)]
    expected = ter_align.count_edits(hyps, refs).tolist()
    assert expected == [1, 1]  # each a single shift
    for dtype in (np.int32, np.int64):
        flat, lengths = ter_align.joined(hyps)
        flat = flat.astype(dtype)
        given_ids = flat.copy()
        assert ter_align.count_edits((flat, lengths), ter_align.joined(refs)).tolist() == expected
        assert np.array_equal(flat, given_ids)
    flat, lengths = ter_align.joined(hyps)
    assert ter_align.count_edits((flat, lengths), ter_align.joined(refs), shift_in_place=True).tolist() == expected
    assert not np.array_equal(flat, ter_align.joined(hyps)[0])  # shifted where it was


def test_lower_bounds_found_in_runs_of_pairs_are_the_same(monkeypatch):
    """The shared-words bound is found for runs of a few words' pairs at a time (little memory):
    the same bound as all pairs at once, and the same fewest edits over two references."""
    rng = np.random.default_rng(8)
    hyps = [rng.integers(-1, 9, rng.integers(0, 40)).astype(np.int32) for _ in range(400)]
    refs = [rng.integers(0, 9, rng.integers(0, 40)).astype(np.int32) for _ in range(400)]
    at_once = ter_align._fewest_edits_bound(ter_align._Pairs(hyps, refs))
    groups = np.repeat(np.arange(200), 2)
    edits = ter_align.count_edits(hyps, refs, groups)
    monkeypatch.setattr(ter_align, "_BOUND_WORDS", 50)
    assert np.array_equal(ter_align._fewest_edits_bound(ter_align._Pairs(hyps, refs)), at_once)
    assert len(ter_align._fewest_edits_bound(ter_align._Pairs([], []))) == 0
    fewest = np.minimum(edits[0::2], edits[1::2])
    in_runs = ter_align.count_edits(hyps, refs, groups)
    assert np.array_equal(np.minimum(in_runs[0::2], in_runs[1::2]), fewest)


def test_chunks_cover_every_pair_once_within_budget_longest_first():
    """Chunks hold every pair once, each sorted by hypothesis length, longest first (the band's
    order), within the cell budget unless a pair alone exceeds it, one run of length steps after another."""
    rng = np.random.default_rng(9)
    nh = rng.integers(1, 120, 5000)
    nr = np.maximum(1, nh + rng.integers(-30, 60, 5000))
    pairs = rng.permutation(5000)[:4000]
    chunks = ter_align._chunks(pairs, nh, nr)
    assert sorted(np.concatenate(chunks).tolist()) == sorted(pairs.tolist())
    for chunk in chunks:
        assert (np.diff(nh[chunk]) <= 0).all()
        cells = len(chunk) * (nh[chunk].max() + 1) * ter_beam.band_width(nh[chunk], nr[chunk]).max()
        assert len(chunk) == 1 or cells <= ter_align._CELL_BUDGET
    steps = [nh[chunk] // ter_align._ROWS_STEP for chunk in chunks]  # chunks follow the length steps
    assert all(before.max() <= after.min() for before, after in pairwise(steps))
