"""``mtscore.ray`` on a real local Ray runtime (2 CPUs): corpus scores of datasets split
into uneven blocks, empty ones among them, with references missing for some segments, identical
to the in-memory API; sentence-score columns; aligned text files. Skipped without ``ray[data]``
(``pip install "mtscore[ray]"``)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SHARDS, additive_metrics, assert_same, streams_for

from mtscore.errors import InputError
from mtscore.metrics import metric_class

ray = pytest.importorskip("ray", reason='Ray is optional: pip install "mtscore[ray]"')
pytest.importorskip("ray.data", reason='Ray Data is optional: pip install "mtscore[ray]"')
pa = pytest.importorskip("pyarrow")
from mtscore.ray import corpus_score, read_text_files, sentence_scores_fn  # noqa: E402


@pytest.fixture(scope="module")
def runtime():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def dataset(runtime, engine_corpus):
    """One block per shard of ``CUTS``: uneven sizes and empty blocks."""
    rows = engine_corpus[2]
    table = pa.Table.from_pylist(rows)
    return ray.data.from_arrow([table.slice(a, b - a) for a, b in SHARDS])


def test_the_dataset_has_uneven_and_empty_blocks(dataset, engine_corpus):
    sizes = [len(block) for block in ray.get(dataset.to_arrow_refs())]
    assert sorted(sizes) == sorted(b - a for a, b in SHARDS)
    assert 0 in sizes and len(set(sizes)) > 3 and sum(sizes) == len(engine_corpus[0])


@pytest.mark.parametrize("name", additive_metrics())
def test_corpus_score_is_the_in_memory_score(dataset, engine_corpus, name):
    hypotheses, streams, _ = engine_corpus
    streams, columns = streams_for(name, streams)
    whole = metric_class(name)().corpus_score(hypotheses, streams)
    assert_same(name, corpus_score(dataset, name, references=columns), whole)


def test_options_metric_objects_and_what_is_refused(dataset, engine_corpus, runtime):
    hypotheses, streams, _ = engine_corpus
    chrf_pp = metric_class("chrf")(word_order=2)
    expected = chrf_pp.corpus_score(hypotheses, streams)
    assert corpus_score(dataset, "chrf", references=["ref", "ref_b"], word_order=2) == expected
    assert corpus_score(dataset, chrf_pp, references=["ref", "ref_b"]) == expected  # an object travels too
    # Ray's distributed aggregation (partial sums in the workers) gives the very same result.
    assert corpus_score(dataset, chrf_pp, references=["ref", "ref_b"], merge="aggregate") == expected
    with pytest.raises(InputError, match="whole reference corpus"):  # its segment scores need the dataset
        sentence_scores_fn("nist", references=["ref", "ref_b"])
    empty = ray.data.from_arrow(pa.Table.from_pylist(engine_corpus[2]).slice(0, 0))
    with pytest.raises(InputError, match="nothing to score"):
        corpus_score(empty, "bleu")
    with pytest.raises(InputError, match="merge must be"):
        corpus_score(dataset, "bleu", merge="tree")


@pytest.mark.parametrize(
    ("name", "batch_format"),
    [
        ("bleu", "pyarrow"),
        ("bleu", "pandas"),
        ("bleu", "numpy"),
        ("chrf", "pandas"),
        ("ter", "numpy"),
        ("meteor", "pyarrow"),
    ],
)
def test_sentence_score_column_is_sentence_scores(dataset, engine_corpus, name, batch_format):
    hypotheses, streams, _ = engine_corpus
    fn = sentence_scores_fn(name, references=["ref", "ref_b"], column="s")
    rows = dataset.map_batches(fn, batch_format=batch_format, batch_size=50).take_all()
    expected = metric_class(name)().sentence_scores(hypotheses, streams)
    expected = np.asarray(getattr(expected, "scores", expected), dtype=np.float64)
    rows.sort(key=lambda row: row["id"])  # Ray keeps no order unless asked
    assert [row["hyp"] for row in rows] == hypotheses  # every row once
    np.testing.assert_array_equal(np.array([row["s"] for row in rows]), expected)


def test_filtering_on_the_score_column(dataset, engine_corpus):
    hypotheses, streams, _ = engine_corpus
    kept = dataset.map_batches(sentence_scores_fn("chrf", references=["ref", "ref_b"])).filter(expr="score >= 50")
    scores = metric_class("chrf")().sentence_scores(hypotheses, streams)
    assert kept.count() == int((scores >= 50).sum())


def test_text_files_are_read_as_mtscore_reads_them(runtime, tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes("the cat sat\r\na\u2028b c\n\nlast one\n".encode())
    ref.write_bytes(b"\xef\xbb\xbfthe cat sat down\r\na b c\nx\nlast one\n")
    dataset = read_text_files(str(hyp), str(ref), blocks=2)
    rows = dataset.take_all()
    pairs = [("the cat sat", "the cat sat down"), ("a\u2028b c", "a b c"), ("", "x"), ("last one", "last one")]
    assert sorted((row["hyp"], row["ref"]) for row in rows) == sorted(pairs)  # in some order: Ray keeps none
    hyps, refs = [row["hyp"] for row in rows], [[row["ref"] for row in rows]]
    assert corpus_score(dataset, "bleu") == metric_class("bleu")().corpus_score(hyps, refs)
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(Exception, match="different numbers of lines") as raised:  # a Ray task's error, wrapped
        read_text_files(str(hyp), [str(ref), str(short)]).take_all()
    assert "LengthMismatchError" in str(raised.value)
