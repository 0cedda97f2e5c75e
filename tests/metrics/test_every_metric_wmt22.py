"""Every built-in metric on a WMT22 en-de sample (two systems, two references): its corpus score
equals its reference tool's (``harness.ORACLES``), and the command line streaming the files block by
block prints what it prints reading them whole."""

from __future__ import annotations

import pytest
from harness import METRIC_NAMES, TOLERANCE, metric_for, option_arguments, oracle_score
from helpers import references_taken, run, wordnet_or_skip, write
from shared_data import read_lines, references, system_output

from mtscore.cli import score as cli
from mtscore.core import stream
from mtscore.metrics import metric_class

SEGMENTS = 200
SYSTEMS = ["Online-A", "PROMT"]


@pytest.fixture(scope="module")
def sample() -> tuple[dict[str, list[str]], list[list[str]]]:
    """The first SEGMENTS lines of two en-de systems and of references A and B."""
    streams = [read_lines(references("en-de", name)[0])[:SEGMENTS] for name in ("A", "B")]
    return {name: read_lines(system_output("en-de", name))[:SEGMENTS] for name in SYSTEMS}, streams


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_corpus_score_equals_the_oracle(sample, name):
    systems, streams = sample
    metric = metric_for(name, streams)
    for hypotheses in systems.values():
        expected = oracle_score(name, hypotheses, streams)
        assert metric.corpus_score(hypotheses).score == pytest.approx(expected, abs=TOLERANCE)


# Each metric alone with its oracle's options, and the metrics that take the same references together
# with their defaults (METEOR's WordNet synonyms included).
STREAMED = [[name] for name in METRIC_NAMES] + [
    [name for name in METRIC_NAMES if metric_class(name).max_references is None],
    [name for name in METRIC_NAMES if metric_class(name).max_references == 1],
]


@pytest.mark.parametrize("names", STREAMED, ids="+".join)
def test_streamed_files_score_as_in_memory(capsys, monkeypatch, tmp_path, sample, names):
    systems, streams = sample
    if len(names) == 1:
        options = option_arguments(names[0])
    else:
        options = []
        if "meteor" in names:
            wordnet_or_skip()
    refs = [write(tmp_path / f"ref.{i}", lines) for i, lines in enumerate(references_taken(names[0], streams))]
    hyps = [write(tmp_path / system, lines) for system, lines in systems.items()]
    argv = [*refs, "-i", *hyps, "-m", *names, *options, "-f", "text", "-w", "9"]
    expected = run(capsys, *argv)
    monkeypatch.setattr(cli, "STREAM_BYTES", 0)
    monkeypatch.setattr(stream, "BLOCK_SEGMENTS", 70)
    assert run(capsys, *argv) == expected and expected[0] == 0
