"""Every registered metric, the test plugin included, passes the same checks on a small generated
corpus: its corpus score equals its reference tool's (``harness.ORACLES``), streamed input scores as
in memory, shards merged by ``mtscore merge`` score as the whole, threads sharing one metric score as
one thread, the metric and its result survive pickling, and bad input is the project's ``InputError``.
The same checks on WMT22 are in ``test_every_metric_wmt22.py``."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from harness import METRIC_NAMES, ORACLES, TOLERANCE, generated_corpus, metric_for, option_arguments, oracle_score
from helpers import references_taken, run, write

from mtscore.cli import score as cli
from mtscore.core import stream
from mtscore.errors import InputError

PLUGIN = "exact"
SYSTEMS, STREAMS = generated_corpus()


@pytest.fixture(params=[*METRIC_NAMES, PLUGIN])
def name(request) -> str:
    """Every built-in metric and the test plugin (registered for the test)."""
    if request.param == PLUGIN:
        request.getfixturevalue("registered")
    return request.param


@pytest.fixture
def files(tmp_path, name) -> tuple[list[str], list[str]]:
    """The generated corpus as files: the metric's reference streams and the systems."""
    refs = [write(tmp_path / f"ref.{i}", stream) for i, stream in enumerate(references_taken(name, STREAMS))]
    systems = [write(tmp_path / system, lines) for system, lines in SYSTEMS.items()]
    return refs, systems


@pytest.mark.parametrize("system", list(SYSTEMS))
@pytest.mark.parametrize("metric_name", METRIC_NAMES)
def test_corpus_score_equals_the_oracle(metric_name, system):
    assert metric_name in ORACLES, f"{metric_name} has no oracle in harness.ORACLES"
    expected = oracle_score(metric_name, SYSTEMS[system], STREAMS)
    score = metric_for(metric_name, STREAMS).corpus_score(SYSTEMS[system]).score
    assert score == pytest.approx(expected, abs=TOLERANCE)


def test_streamed_input_scores_as_in_memory(capsys, monkeypatch, name, files):
    refs, systems = files
    argv = [*refs, "-i", *systems, "-m", name, *option_arguments(name), "-f", "text", "-w", "9"]
    expected = run(capsys, *argv)
    monkeypatch.setattr(cli, "STREAM_BYTES", 0)
    monkeypatch.setattr(stream, "BLOCK_SEGMENTS", 5)
    assert run(capsys, *argv) == expected and expected[0] == 0


def test_shards_merge_to_the_whole(capsys, tmp_path, name):
    hypotheses, streams = SYSTEMS["edited"], references_taken(name, STREAMS)
    half = len(hypotheses) // 2
    shards = []
    for part, lines in enumerate([slice(0, half), slice(None, None), slice(half, None)]):
        refs = [write(tmp_path / f"ref.{part}.{i}", stream[lines]) for i, stream in enumerate(streams)]
        hyp = write(tmp_path / f"hyp.{part}", hypotheses[lines])
        shard = tmp_path / f"part{part}.npz"
        argv = ["stats", *refs, "-i", hyp, "-m", name, *option_arguments(name), "--name", "edited", "-o", shard]
        code, _, err = run(capsys, *argv)
        assert code == 0, err
        shards.append(shard)
    whole, halves = (run(capsys, "merge", *paths, "-f", "text", "-w", "9") for paths in (shards[1:2], shards[::2]))
    assert halves == whole and whole[0] == 0
    expected = metric_for(name, streams).corpus_score(hypotheses).score
    assert float(whole[1].split(" = ", 1)[1].split()[0]) == pytest.approx(expected, abs=1e-9)


def test_threads_sharing_one_metric_score_as_one_thread(name):
    metric = metric_for(name, STREAMS)
    systems = list(SYSTEMS.values()) * 4
    alone = [metric_for(name, STREAMS).corpus_score(hypotheses) for hypotheses in systems]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(metric.corpus_score, systems))
    assert [result.score for result in together] == [result.score for result in alone]
    assert [str(result) for result in together] == [str(result) for result in alone]


def test_metric_and_result_survive_pickling(name):
    metric = metric_for(name, STREAMS)
    result = metric.corpus_score(SYSTEMS["edited"])
    copied = pickle.loads(pickle.dumps(metric))
    assert copied.corpus_score(SYSTEMS["edited"]) == result
    assert np.array_equal(copied.segment_scores(SYSTEMS["random"]), metric.segment_scores(SYSTEMS["random"]))
    assert pickle.loads(pickle.dumps(result)) == result and str(pickle.loads(pickle.dumps(result))) == str(result)


BAD_INPUTS = {
    "no hypotheses": (lambda streams: ([], [stream[:0] for stream in streams]), "no hypotheses"),
    "fewer references than hypotheses": (
        lambda streams: (SYSTEMS["edited"], [stream[:-1] for stream in streams]),
        "every reference stream needs one line per hypothesis",
    ),
    "a number as a reference": (
        lambda streams: (SYSTEMS["edited"], [[1, *stream[1:]] for stream in streams]),
        "segment 0 is int, expected str or None",
    ),
    "a string as the hypotheses": (lambda streams: ("a cat", streams), "got a single str"),
    "no hypotheses at all": (lambda streams: (None, streams), "hypotheses must be a list of str"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_is_an_input_error_that_says_what(name, case):
    make_input, message = BAD_INPUTS[case]
    hypotheses, references = make_input(references_taken(name, STREAMS))
    with pytest.raises(InputError, match=message):
        metric_for(name).corpus_score(hypotheses, references)
