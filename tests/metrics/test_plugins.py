"""A metric of another package, registered with one ``mtscore.metrics`` entry point, works everywhere a
built-in one does: ``-m NAME`` with ``-sl``, several systems, ``--confidence``, the paired tests,
``report``, ``stats``/``merge``, and the library's registry, streaming and summed states.

The plugin is a real distribution made in a temporary folder (a module and its ``*.dist-info`` with
``entry_points.txt``, what ``pip install`` leaves in site-packages), put on ``sys.path``; its metric
is exact match (the module docs/plugins.md shows), whose expected numbers are counted by hand from
the texts below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mtscore.metrics import BUILTIN, METRICS, metric_class, metric_options, metric_title

REF = ["the cat sat", "a dog ran", "it rains", "good night"]
SYSTEMS = {
    "hyp1": ["the cat sat", " a dog ran", "it pours", "good night"],  # 2 of 4 exact (3 stripped)
    "hyp2": ["the cat sat", "a cat ran", "it pours", "good day"],  # 1 of 4
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, lines in {"ref": REF, **SYSTEMS}.items():
        path = tmp_path / name
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths[name] = str(path)
    return paths


def mtscore(plugin_path: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command line in a fresh process that finds the plugin on its path."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([str(plugin_path), src, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "mtscore", *argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def test_registry_lists_the_plugin_after_the_builtins(registered):
    assert list(METRICS)[: len(BUILTIN)] == list(BUILTIN) and list(METRICS)[len(BUILTIN) :] == ["exact"]
    assert METRICS["exact"] == "mtscore_exact:ExactMatch"
    assert metric_class("exact").__name__ == "ExactMatch"
    assert [option.name for option in metric_options("exact")] == ["strip"]
    assert metric_title("exact") == "Exact match"
    assert not METRICS.is_builtin("exact") and METRICS.is_builtin("gleu")


def test_registry_without_the_plugin_has_only_the_builtins():
    METRICS.refresh()
    assert list(METRICS) == list(BUILTIN)


def test_api_scores_streams_and_sums_the_plugin_metric(registered, files):
    from mtscore.core.stream import stream_scores
    from mtscore.core.sums import merge_states, score_state
    from mtscore.metrics import metric_object
    from mtscore.significance import paired_test

    metric = metric_object("exact", {"strip": True})
    assert metric.corpus_score(SYSTEMS["hyp1"], [REF]).score == 75.0
    assert list(metric.sentence_scores(SYSTEMS["hyp1"], [REF])) == [100.0, 100.0, 0.0, 100.0]
    halves = metric.statistics(SYSTEMS["hyp1"][:2], [REF[:2]]) + metric.statistics(SYSTEMS["hyp1"][2:], [REF[2:]])
    assert metric.score_statistics(halves).score == 75.0
    states = [metric.aggregation.shard_state(metric, SYSTEMS["hyp1"][i : i + 1], [REF[i : i + 1]]) for i in range(4)]
    assert score_state(metric, merge_states(states)).score == 75.0
    (streamed,) = stream_scores(
        lambda references: [metric_class("exact")(references)],
        files["hyp1"],
        [files["ref"]],
        check=lambda counts: None,
        segments=3,
    )
    assert streamed.score == 50.0
    result = paired_test({"a": SYSTEMS["hyp1"], "b": SYSTEMS["hyp2"]}, [REF], metrics=["exact"], n_samples=200)
    assert "EM" in str(result)


def test_command_line_scores_with_the_plugin_options(plugin_path, files):
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], "-m", "exact", "-b")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "50.0"
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], "-m", "exact", "--exact-strip", "-f", "text")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "EM|nrefs:1|strip:yes = 75.0"


def test_command_line_help_lists_the_plugin(plugin_path):
    done = mtscore(plugin_path, "--help")
    assert done.returncode == 0 and "exact" in done.stdout and "--exact-strip" in done.stdout


def test_sentence_level_several_systems_and_bleu_beside_it(plugin_path, files):
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], "-m", "exact", "-sl", "-b")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["100.0", "0.0", "0.0", "100.0"]
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], files["hyp2"], "-m", "bleu", "exact", "-f", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(row["system"], row["EM"], row["EM signature"]) for row in rows] == [
        (files["hyp1"], "50.0", "nrefs:1|strip:no"),
        (files["hyp2"], "25.0", "nrefs:1|strip:no"),
    ]
    assert all("BLEU" in row for row in rows)


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_confidence_and_paired_tests(plugin_path, files, test):
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], "-m", "exact", "--confidence", "-f", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 50.0
    done = mtscore(plugin_path, files["ref"], "-i", files["hyp1"], files["hyp2"], "-m", "exact", test, "-f", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows[1]["EM"]["score"] == 25.0 and 0 < rows[1]["EM"]["p_value"] <= 1


def test_report_with_the_plugin_metric(plugin_path, files, tmp_path):
    page = tmp_path / "report.html"
    done = mtscore(
        plugin_path, "report", files["ref"], "-i", files["hyp1"], files["hyp2"], "-m", "exact", "-o", str(page)
    )
    assert done.returncode == 0, done.stderr
    assert "Exact match" in page.read_text(encoding="utf-8") or "EM" in page.read_text(encoding="utf-8")


def test_stats_and_merge_with_the_plugin_metric(plugin_path, files, tmp_path):
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    shards = []
    for part, (start, stop) in enumerate([(0, 2), (2, 4)]):
        (ref_part := tmp_path / f"ref.{part}").write_text("".join(f"{line}\n" for line in REF[start:stop]))
        (hyp_part := tmp_path / f"hyp.{part}").write_text("".join(f"{line}\n" for line in SYSTEMS["hyp1"][start:stop]))
        shard = tmp_path / f"part{part}.npz"
        done = mtscore(
            plugin_path, "stats", str(ref_part), "-i", str(hyp_part), "-m", "exact", "--name", "hyp1", "-o", str(shard)
        )
        assert done.returncode == 0, done.stderr
        shards.append(str(shard))
    del ref, hyp
    done = mtscore(plugin_path, "merge", *shards, "-b")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "50.0"
