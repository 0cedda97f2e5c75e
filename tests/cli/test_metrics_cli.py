"""``-m bleu chrf ter``: every metric through the command line, confidence intervals and paired
tests, against sacrebleu 2.6.0 (streaming: tests/metrics/test_every_metric_wmt22.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sacrebleu
from helpers import as_sacrebleu_version, run, sacrebleu_cli, write
from sacrebleu.significance import PairedTest
from shared_data import read_lines, references, system_output

from mtscore.cli import EXIT_OK, EXIT_USAGE
from mtscore.core.signature import tool_version
from mtscore.significance import paired_test

SYSTEMS = ["Online-A", "PROMT", "Online-B"]
SUBSET = 300  # sacrebleu's TER is slow: paired tests compare on the first segments


def without_version(text: str) -> str:
    """The output with the tool versions blanked and lines unindented (the version strings differ
    in length, which shifts sacrebleu's alignment on "=")."""
    text = "\n".join(line.lstrip() for line in text.split("\n"))
    return (
        text.replace("version:2.6.0", "version:V")
        .replace(f"version:{tool_version()}", "version:V")
        .replace('"version": "2.6.0"', '"version": "V"')
        .replace(f'"version": "{tool_version()}"', '"version": "V"')
        .replace("v:2.6.0", "v:V")
        .replace(f"v:{tool_version()}", "v:V")
    )


@pytest.fixture(scope="module")
def subset(tmp_path_factory):
    """The first SUBSET lines of the en-de references and systems, as files."""
    folder = tmp_path_factory.mktemp("subset")
    refs = [write(folder / f"ref.{name}", read_lines(references("en-de", name)[0])[:SUBSET]) for name in ("A", "B")]
    systems = [write(folder / name, read_lines(system_output("en-de", name))[:SUBSET]) for name in SYSTEMS]
    return refs, systems


@pytest.mark.parametrize("form", [[], ["-f", "text"], ["-f", "text", "-sh"], ["-b"]])
def test_three_metrics_one_system_equal_sacrebleu(capsys, form):
    refs = references("en-de", "A")
    hyp = system_output("en-de", "Online-A")
    code, out, err = run(capsys, *refs, "-i", hyp, "-m", "bleu", "chrf", "ter", *form)
    assert code == EXIT_OK and err == ""
    assert without_version(out) == without_version(sacrebleu_cli(*refs, "-i", hyp, "-m", "bleu", "chrf", "ter", *form))


@pytest.mark.parametrize(
    "options",
    [
        ["-m", "chrf", "-cw", "2"],
        ["-m", "chrf", "-cc", "4", "-cw", "1", "--chrf-beta", "3", "--chrf-lowercase"],
        ["-m", "chrf", "--chrf-whitespace", "--chrf-eps-smoothing"],
        ["-m", "ter", "--ter-normalized", "--ter-case-sensitive"],
        ["-m", "ter", "--ter-no-punct", "--ter-asian-support"],
        ["-m", "bleu", "chrf", "ter", "-lc", "-tok", "intl", "-cw", "2", "--ter-no-punct", "-w", "4"],
    ],
)
def test_metric_options_reach_the_metrics(capsys, subset, options):
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", systems[0], *options, "-f", "text")
    assert code == EXIT_OK
    assert without_version(out) == without_version(sacrebleu_cli(*refs, "-i", systems[0], *options, "-f", "text"))


def test_several_systems_and_metrics_make_one_table(capsys, subset):
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "bleu", "chrf", "ter", "-f", "json")
    theirs = json.loads(sacrebleu_cli(*refs, "-i", *systems, "-m", "bleu", "chrf", "ter", "-f", "json"))
    ours = json.loads(out)
    assert code == EXIT_OK
    assert [{k: row[k] for k in ("system", "BLEU", "chrF2", "TER")} for row in ours] == theirs
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "bleu", "chrf", "ter", "-f", "text")
    expected = sacrebleu_cli(*refs, "-i", *systems, "-m", "bleu", "chrf", "ter", "-f", "text")
    assert code == EXIT_OK and as_sacrebleu_version(out) == expected


def sacrebleu_metrics(refs_lines):
    return {
        "BLEU": sacrebleu.BLEU(references=refs_lines),
        "chrF2": sacrebleu.CHRF(references=refs_lines),
        "TER": sacrebleu.TER(references=refs_lines),
    }


@pytest.mark.parametrize("test, n", [("bs", 1000), ("ar", 2000)])
def test_paired_tests_for_every_metric_equal_sacrebleu(subset, monkeypatch, test, n):
    """Scores, means and intervals equal sacrebleu's for every metric; so do p-values, except
    that ours also count resamples that tie the observed difference (TER's integer edits make
    ties common): ours are then larger by exactly the ties, counted here from sacrebleu's own scores."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    refs, systems = subset
    refs_lines = [read_lines(path) for path in refs]
    hyps = {name: read_lines(path) for name, path in zip(SYSTEMS, systems, strict=False)}
    ours = paired_test(hyps, refs_lines, metrics=["bleu", "chrf", "ter"], test=test, n_samples=n)
    _, theirs = PairedTest(list(hyps.items()), sacrebleu_metrics(refs_lines), None, test_type=test, n_samples=n)()
    assert ours.metrics == ["BLEU", "chrF2", "TER"]
    for metric in ours.metrics:
        for index, (mine, expected) in enumerate(zip(ours.results[metric], theirs[metric], strict=False)):
            assert mine.score == pytest.approx(expected.score, abs=1e-9)
            if expected.p_value is not None:
                ties = sacrebleu_ties(
                    sacrebleu_metrics(refs_lines)[metric], hyps[SYSTEMS[0]], hyps[SYSTEMS[index]], test, n
                )
                assert mine.p_value == pytest.approx(expected.p_value + ties / (n + 1), abs=1e-12)
                assert metric == "TER" or ties == 0
            for name in ("mean", "ci"):
                value = getattr(expected, name)
                assert getattr(mine, name) == (None if value is None else pytest.approx(value, abs=1e-9))


def sacrebleu_ties(metric, baseline, system, test, n) -> int:
    """How many of sacrebleu's resamples or trials (seed 12345) tie the observed statistic exactly."""
    base_stats = metric._extract_corpus_statistics(baseline, None)
    sys_stats = metric._extract_corpus_statistics(system, None)
    observed = abs(metric._aggregate_and_compute(base_stats).score - metric._aggregate_and_compute(sys_stats).score)
    rng = np.random.default_rng(12345)
    if test == "ar":
        pos = rng.integers(2, size=(n, len(baseline)), dtype=bool)
        first, second = pos @ base_stats + ~pos @ sys_stats, ~pos @ base_stats + pos @ sys_stats
        score = [metric._aggregate_and_compute(row[None]).score for rows in (first, second) for row in rows]
        sampled = np.abs(np.array(score[:n]) - np.array(score[n:]))
    else:
        drawn = rng.choice(len(baseline), size=(n, len(baseline)), replace=True)
        base32, sys32 = np.array(base_stats, dtype="float32"), np.array(sys_stats, dtype="float32")
        base = np.array([metric._compute_score_from_stats(s.sum(0)).score for s in base32[drawn]])
        other = np.array([metric._compute_score_from_stats(s.sum(0)).score for s in sys32[drawn]])
        differences = np.abs(other - base)
        sampled = differences - differences.mean()
    return int(np.count_nonzero(sampled == observed))


def test_paired_json_with_ter_is_plain_json(capsys, subset):
    """sacrebleu 2.6.0 fails here ("float32 is not JSON serializable"); ours prints plain floats."""
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", *systems, "-m", "ter", "chrf", "--paired-bs", "-pbsn", "200")
    rows = json.loads(out)
    assert code == EXIT_OK and err == "" and [list(row) for row in rows] == [["system", "TER", "chrF2"]] * 3
    assert all(isinstance(row["TER"]["ci"], float) for row in rows)


@pytest.mark.parametrize("metric, sacrebleu_metric", [("chrf", sacrebleu.CHRF), ("ter", sacrebleu.TER)])
def test_confidence_for_chrf_and_ter_equals_sacrebleu(capsys, subset, monkeypatch, metric, sacrebleu_metric):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", systems[1], "-m", metric, "--confidence", "-w", "6")
    data = json.loads(out)
    expected = sacrebleu_metric().corpus_score(read_lines(systems[1]), [read_lines(p) for p in refs], n_bootstrap=1000)
    assert code == EXIT_OK
    assert data["confidence_mean"] == pytest.approx(round(expected._mean, 6), abs=1e-9)
    assert data["confidence_var"] == pytest.approx(round(expected._ci, 6), abs=1e-9)


@pytest.mark.parametrize(
    "metric, options, oracle",
    [
        ("chrf", [], sacrebleu.CHRF()),
        ("chrf", ["-cw", "2", "--chrf-lowercase"], sacrebleu.CHRF(word_order=2, lowercase=True)),
        ("ter", [], sacrebleu.TER()),
        ("ter", ["--ter-normalized", "--ter-no-punct"], sacrebleu.TER(normalized=True, no_punct=True)),
    ],
)
def test_sentence_level_chrf_and_ter_equal_sacrebleu(capsys, tmp_path, subset, metric, options, oracle):
    refs, systems = subset
    refs_lines = [read_lines(path)[:60] for path in refs]
    hyps = read_lines(systems[1])[:60]
    ref_files = [write(tmp_path / f"ref{i}", stream) for i, stream in enumerate(refs_lines)]
    hyp_file = write(tmp_path / "hyp", hyps)
    code, out, err = run(capsys, *ref_files, "-i", hyp_file, "-m", metric, *options, "-sl", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    expected = [
        oracle.sentence_score(h, list(r)).score for h, r in zip(hyps, zip(*refs_lines, strict=False), strict=False)
    ]
    assert code == EXIT_OK and err == "" and [row["line"] for row in rows] == [*range(1, 61), "corpus"]
    np.testing.assert_allclose([row["score"] for row in rows[:-1]], expected, rtol=0, atol=1e-9)
    assert rows[-1]["score"] == pytest.approx(oracle.corpus_score(hyps, refs_lines).score, abs=1e-9)
    code, out, _ = run(capsys, *ref_files, "-i", hyp_file, "-m", metric, *options, "-sl", "-f", "text", "-w", "3")
    lines = out.splitlines()
    assert len(lines) == 60 and lines[0].startswith(f"{rows[0]['name']}|nrefs:2|")
    assert lines[0].endswith(f" = {expected[0]:.3f}")
    copy = write(tmp_path / "copy", hyps)
    code, out, _ = run(capsys, *ref_files, "-i", hyp_file, copy, "-m", metric, *options, "-sl", "-b")
    assert code == EXIT_OK and len(out.splitlines()) == 2 * 60 and out.startswith(f"{hyp_file}\t{expected[0]:.1f}\n")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-m", "chrf", "ter", "-sl"], "one metric at a time"),
        (["-m", "chrf", "ter", "-sl", "-f", "tsv"], "one metric at a time"),
        (["-m", "bleu", "chrf", "-f", "tsv"], "statistics of one metric"),
        (["-m", "chrf", "-f", "tsv"], "-sl -f tsv for each segment's statistics"),
        (["-m", "chrf", "-cc", "-1"], "order"),
        (["-m", "nosuchmetric"], "invalid choice"),
    ],
)
def test_metric_usage_errors(capsys, subset, argv, message):
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", systems[0], *argv)
    assert code == EXIT_USAGE and message in err and out == ""


@pytest.mark.parametrize("metric, options", [("chrf", []), ("chrf", ["-cw", "2"]), ("ter", [])])
def test_segment_tsv_lists_sacrebleus_statistics(capsys, subset, metric, options):
    """``-sl -f tsv`` for chrF and TER: each segment's score and the statistics
    it comes from, which are sacrebleu's own, and a corpus row of their sums."""
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", systems[0], "-m", metric, *options, "-sl", "-f", "tsv")
    assert code == EXIT_OK
    header, *rows = [line.split("\t") for line in out.splitlines()]
    assert header[:3] == ["system", "line", "score"] and [row[1] for row in rows[-2:]] == [str(SUBSET), "corpus"]
    oracle = sacrebleu.CHRF(word_order=2 if options else 0) if metric == "chrf" else sacrebleu.TER()
    hypotheses, streams = read_lines(systems[0]), [read_lines(path) for path in refs]
    expected = np.array(oracle._extract_corpus_statistics(hypotheses, streams), dtype=np.float64)
    values = np.array([[float(value) for value in row[3:]] for row in rows])
    np.testing.assert_array_equal(values[:-1], expected)
    np.testing.assert_array_equal(values[-1], expected.sum(axis=0))
    sentence = [oracle.sentence_score(h, [s[i] for s in streams]).score for i, h in enumerate(hypotheses)]
    np.testing.assert_allclose([float(row[2]) for row in rows[:-1]], sentence, rtol=0, atol=1e-9)
    assert float(rows[-1][2]) == pytest.approx(oracle.corpus_score(hypotheses, streams).score, abs=1e-9)


def test_scores_of_sums_for_every_metric_match_score_statistics(subset):
    """The significance seam: scoring column sums is scoring the corpus."""
    refs, systems = subset
    refs_lines = [read_lines(path) for path in refs]
    from mtscore.metrics import metric_class

    for name in ("bleu", "chrf", "ter"):
        metric = metric_class(name)(refs_lines)
        stats = metric.segment_statistics(read_lines(systems[2]))
        total = metric.scores_of_sums(stats.sum(axis=0, keepdims=True))[0]
        assert total == metric.score_statistics(stats).score
        assert np.isfinite(metric.scores_of_sums(stats.astype(np.float32).sum(axis=0, keepdims=True))).all()
