"""Google-BLEU through the command line (``-m google_bleu`` or its alias ``-m gleu``): scores,
``-sl``, several systems and options equal NLTK; ``--confidence`` and ``--paired-bs/-ar`` equal
sacrebleu's own resampling run on NLTK's per-segment statistics."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gleu_oracle import SacreNltkGleu, nltk_gleu, nltk_sentence_gleus
from helpers import run, write
from sacrebleu.significance import PairedTest
from shared_data import read_lines, references, system_output

from mtscore.cli import EXIT_OK, EXIT_USAGE
from mtscore.core.signature import tool_version
from mtscore.significance import paired_test

SYSTEMS = ["Online-A", "PROMT", "Online-B"]
SUBSET = 300


@pytest.fixture(scope="module")
def subset(tmp_path_factory):
    """The first SUBSET lines of the en-de references and systems, as files."""
    folder = tmp_path_factory.mktemp("gleu")
    refs = [write(folder / f"ref.{name}", read_lines(references("en-de", name)[0])[:SUBSET]) for name in ("A", "B")]
    systems = [write(folder / name, read_lines(system_output("en-de", name))[:SUBSET]) for name in SYSTEMS]
    return refs, systems


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("MTSCORE_SEED", raising=False)


def lines_of(paths):
    return [read_lines(path) for path in paths]


def test_name_and_alias_give_nltks_score(capsys, subset):
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", systems[0], "-m", "google_bleu", "-w", "10")
    assert code == EXIT_OK and err == ""
    assert run(capsys, *refs, "-i", systems[0], "-m", "gleu", "-w", "10") == (code, out, err)
    data = json.loads(out)
    theirs, chosen = nltk_gleu(read_lines(systems[0]), lines_of(refs))
    assert data["name"] == "Google-BLEU" and data["score"] == pytest.approx(100 * theirs, abs=1e-9)
    assert data["verbose_score"] == "n_match/n_all = {}/{}".format(*chosen.sum(axis=0))
    assert data["signature"] == f"nrefs:2|case:mixed|tok:13a|ngram:1-4|version:{tool_version()}"
    code, out, _ = run(capsys, *refs, "-i", systems[0], "-m", "gleu", "-b", "-w", "4")
    assert out == f"{100 * theirs:.4f}\n"
    code, out, _ = run(capsys, *refs, "-i", systems[0], "-m", "gleu", "-f", "text", "-sh", "-w", "2")
    assert out.startswith(
        f"Google-BLEU|#:2|c:mixed|tok:13a|n:1-4|v:{tool_version()} = {100 * theirs:.2f} n_match/n_all"
    )


@pytest.mark.parametrize(
    "options, nltk_options",
    [
        (["--gleu-min-len", "2", "--gleu-max-len", "3"], {"min_len": 2, "max_len": 3}),
        (["--gleu-lowercase", "--gleu-tokenize", "intl"], {"lowercase": True, "tokenize": "intl"}),
        (["--gleu-tokenize", "none", "--gleu-max-len", "6"], {"tokenize": "none", "max_len": 6}),
    ],
)
def test_options_reach_the_metric(capsys, subset, options, nltk_options):
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", systems[1], "-m", "gleu", *options, "-w", "10")
    theirs, _ = nltk_gleu(read_lines(systems[1]), lines_of(refs), **nltk_options)
    assert code == EXIT_OK and json.loads(out)["score"] == pytest.approx(100 * theirs, abs=1e-9)


def test_sentence_level_equals_sentence_gleu(capsys, subset):
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", systems[2], "-m", "gleu", "-sl", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    hyps = read_lines(systems[2])
    expected = nltk_sentence_gleus(hyps, lines_of(refs))
    _, chosen = nltk_gleu(hyps, lines_of(refs))
    assert code == EXIT_OK and err == "" and [row["line"] for row in rows] == [*range(1, SUBSET + 1), "corpus"]
    np.testing.assert_allclose([row["score"] for row in rows[:-1]], 100 * np.array(expected), rtol=0, atol=1e-9)
    assert [[row["n_match"], row["n_all"]] for row in rows[:-1]] == chosen.tolist()
    assert rows[-1]["n_match"] == chosen[:, 0].sum() and rows[-1]["signature"].startswith("nrefs:2|")
    code, out, _ = run(capsys, *refs, "-i", systems[2], "-m", "gleu", "google_bleu", "-sl", "-f", "tsv")
    lines = out.splitlines()
    assert code == EXIT_OK and lines[0] == "system\tline\tscore\tn_match\tn_all" and len(lines) == SUBSET + 2
    assert lines[1].split("\t")[3:] == [str(value) for value in chosen[0]]


def test_several_systems_make_one_table(capsys, subset):
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "gleu", "bleu", "-f", "json", "-w", "10")
    rows = json.loads(out)
    assert (
        code == EXIT_OK
        and [list(row) for row in rows]
        == [["system", "Google-BLEU", "Google-BLEU signature", "BLEU", "BLEU signature"]] * 3
    )
    for row, system in zip(rows, systems, strict=True):
        theirs, _ = nltk_gleu(read_lines(system), lines_of(refs))
        assert float(row["Google-BLEU"]) == pytest.approx(100 * theirs, abs=1e-9)
    code, out, _ = run(capsys, *refs, "-i", *systems, "-m", "gleu", "-f", "text")
    assert code == EXIT_OK and out.splitlines()[1].strip("│").split() == ["System", "│", "Google-BLEU"]


def test_confidence_equals_sacrebleus_bootstrap_on_nltk_statistics(capsys, subset, fixed_seed):
    refs, systems = subset
    code, out, _ = run(capsys, *refs, "-i", systems[1], "-m", "gleu", "--confidence", "-w", "6")
    data = json.loads(out)
    expected = SacreNltkGleu().corpus_score(read_lines(systems[1]), lines_of(refs), n_bootstrap=1000)
    assert code == EXIT_OK and data["bs"] == "1000" and data["seed"] == "12345"
    assert data["score"] == pytest.approx(round(expected.score, 6), abs=1e-9)
    assert data["confidence_mean"] == pytest.approx(round(expected._mean, 6), abs=1e-9)
    assert data["confidence_var"] == pytest.approx(round(expected._ci, 6), abs=1e-9)


@pytest.mark.parametrize("test, n", [("bs", 1000), ("ar", 2000)])
def test_paired_tests_equal_sacrebleus_on_nltk_statistics(subset, fixed_seed, test, n):
    refs, systems = subset
    refs_lines = lines_of(refs)
    hyps = {name: read_lines(path) for name, path in zip(SYSTEMS, systems, strict=True)}
    ours = paired_test(hyps, refs_lines, metrics=["gleu"], test=test, n_samples=n)
    metrics = {"Google-BLEU": SacreNltkGleu(refs_lines)}
    _, theirs = PairedTest(list(hyps.items()), metrics, refs_lines, test_type=test, n_samples=n)()
    baseline = metrics["Google-BLEU"]._extract_corpus_statistics(hyps[SYSTEMS[0]], None)
    for name, mine, expected in zip(SYSTEMS, ours.results["Google-BLEU"], theirs["Google-BLEU"], strict=True):
        assert mine.score == pytest.approx(expected.score, abs=1e-9)
        if expected.p_value is not None:
            system = metrics["Google-BLEU"]._extract_corpus_statistics(hyps[name], None)
            ties = randomization_ties(baseline, system, n) if test == "ar" else 0
            assert mine.p_value == pytest.approx(expected.p_value + ties / (n + 1), abs=1e-12)
        for field in ("mean", "ci"):
            value = getattr(expected, field)
            assert getattr(mine, field) == (None if value is None else pytest.approx(value, abs=1e-9))


def randomization_ties(baseline, system, n) -> int:
    """How many of sacrebleu's randomization trials (seed 12345) tie the observed difference exactly:
    ours count them as at least as large (p = (ties + larger + 1) / (n + 1)), sacrebleu's do not."""

    def score(sums):
        return 100 * (sums[..., 0] / sums[..., 1])

    base, other = np.array(baseline), np.array(system)
    observed = abs(score(base.sum(axis=0)) - score(other.sum(axis=0)))
    swap = np.random.default_rng(12345).integers(2, size=(n, len(base)), dtype=bool)
    sampled = np.abs(score(swap @ base + ~swap @ other) - score(~swap @ base + swap @ other))
    return int(np.count_nonzero(sampled == observed))


def test_paired_bootstrap_on_the_command_line(capsys, subset, fixed_seed):
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", *systems, "-m", "gleu", "--paired-bs", "-f", "json", "--no-progress")
    rows = json.loads(out)
    ours = paired_test(
        {name: read_lines(path) for name, path in zip(SYSTEMS, systems, strict=True)},
        lines_of(refs),
        metrics=["google_bleu"],
    )
    assert code == EXIT_OK and err == ""
    assert [row["Google-BLEU"]["p_value"] for row in rows] == [r.p_value for r in ours.results["Google-BLEU"]]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-m", "gleu", "--gleu-min-len", "0"], "min_len must be an integer >= 1"),
        (["-m", "gleu", "--gleu-min-len", "3", "--gleu-max-len", "2"], "below min_len"),
        (["-m", "gleu", "--gleu-tokenize", "moses"], "invalid choice"),
        (["-m", "gleu", "bleu", "-sl"], "one metric at a time"),
        (["-m", "glue"], "invalid choice: 'glue'"),
    ],
)
def test_usage_errors(capsys, subset, argv, message):
    refs, systems = subset
    code, out, err = run(capsys, *refs, "-i", systems[0], *argv)
    assert code == EXIT_USAGE and message in err and out == ""


def test_help_names_the_alias(capsys):
    with pytest.raises(SystemExit) as exited:
        run(capsys, "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert exited.value.code == 0
    listed = text.split("metrics to compute: ")[1].split(" (default")[0]
    assert "google_bleu" in listed.split(", ")
    assert "(default: bleu); gleu is google_bleu" in text and "--gleu-max-len N" in text
