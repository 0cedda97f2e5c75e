"""A sacrebleu user's command lines print what sacrebleu 2.6.0 prints, byte for byte, the version in
signatures aside: one system, several systems, ``-sl``, several metrics, ``--confidence``
and paired tests, on slices of WMT22 en-de and on the bundled examples. The differences that remain
are listed in docs/cli.md ("Differences from sacrebleu's output") and checked at the end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import as_sacrebleu_version, run, sacrebleu_cli, write
from shared_data import REPO_ROOT, wmt22_dir

from mtscore.cli import EXIT_OK

pytest.importorskip("sacrebleu")

EXAMPLES = REPO_ROOT / "examples"
SYSTEMS = ("Online-A", "Online-B", "PROMT")
SEGMENTS = 40


@pytest.fixture(scope="module")
def wmt(tmp_path_factory):
    """The first segments of WMT22 en-de's two references and three systems, as files named like the systems."""
    root, folder = wmt22_dir(), tmp_path_factory.mktemp("wmt22")

    def head(path, name):
        with open(path, encoding="utf-8") as handle:
            return write(folder / name, [next(handle).rstrip("\n") for _ in range(SEGMENTS)])

    refs = [head(root / f"txt/references/generaltest2022.en-de.ref.{r}.de", f"ref.{r}") for r in "AB"]
    systems = [head(root / f"txt/system-outputs/generaltest2022.en-de.hyp.{s}.de", s) for s in SYSTEMS]
    return refs, systems


def same_as_sacrebleu(capsys, *argv):
    code, out, err = run(capsys, *argv)
    assert code == EXIT_OK, err
    assert as_sacrebleu_version(out) == sacrebleu_cli(*argv)


ONE_SYSTEM = [
    [],
    ["-b"],
    ["-f", "text"],
    ["-f", "json"],
    ["-f", "latex"],
    ["-w", "4"],
    ["-sh", "-f", "text"],
    ["-sh"],
    ["-lc", "-tok", "intl"],
    ["-tok", "char", "-f", "text", "-w", "2"],
    ["-m", "bleu", "chrf", "ter"],
    ["-m", "ter", "chrf", "bleu", "-f", "text"],
    ["-m", "ter", "chrf", "-b"],
    ["-m", "chrf", "ter", "-b", "-f", "text"],
    ["-m", "chrf", "-cw", "2", "--chrf-lowercase", "-f", "text"],
    ["-m", "ter", "--ter-normalized", "-sh", "-f", "text"],
    ["--confidence", "-cin", "100"],
    ["--confidence", "-cin", "100", "-f", "text", "-w", "3"],
    ["--confidence", "-cin", "100", "-b"],
    ["--confidence", "-cin", "100", "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["--confidence", "-cin", "100", "-m", "chrf", "ter", "-b"],
]

SENTENCE_LEVEL = [
    ["-sl"],
    ["-sl", "-b"],
    ["-sl", "-f", "text", "-w", "3"],
    ["-sl", "-sh", "-lc"],
    ["-sl", "-m", "chrf"],
    ["-sl", "-m", "ter", "-b", "-w", "2"],
    ["-sl", "-tok", "none", "-s", "floor"],
]

SEVERAL_SYSTEMS = [
    [],
    ["-f", "text"],
    ["-f", "json"],
    ["-f", "latex"],
    ["-b"],
    ["-b", "-f", "text"],
    ["-w", "3", "-sh", "-f", "text"],
    ["-m", "bleu", "chrf", "ter", "-f", "text"],
    ["-m", "ter", "bleu", "chrf"],
    ["-m", "bleu", "chrf", "ter", "-f", "latex", "-w", "2"],
    ["-m", "chrf", "ter", "-b"],
]

PAIRED = [
    ["--paired-bs", "-pbsn", "100", "-f", "text"],
    ["--paired-bs", "-pbsn", "100", "-m", "chrf", "bleu", "-f", "text"],
    ["--paired-bs", "-pbsn", "100", "-m", "bleu", "chrf", "-f", "latex", "-w", "2"],
    ["--paired-ar", "-parn", "100"],
    ["--paired-ar", "-parn", "100", "-m", "bleu", "chrf", "-f", "text"],
    ["--paired-ar", "-parn", "100", "-m", "chrf", "bleu", "-f", "latex"],
    ["--paired-ar", "-parn", "100", "-b"],
    ["--paired-ar", "-parn", "100", "-sh", "-f", "text"],
]


@pytest.mark.parametrize("options", ONE_SYSTEM + SENTENCE_LEVEL, ids=" ".join)
def test_one_system(capsys, wmt, options):
    (ref_a, ref_b), systems = wmt
    same_as_sacrebleu(capsys, ref_a, ref_b, "-i", systems[0], *options)


@pytest.mark.parametrize("options", SEVERAL_SYSTEMS + PAIRED, ids=" ".join)
def test_several_systems(capsys, wmt, options):
    (ref_a, _), systems = wmt
    same_as_sacrebleu(capsys, ref_a, "-i", *systems, *options)


@pytest.mark.parametrize(
    "options",
    [[], ["-f", "text"], ["-sl"], ["-sl", "-b"], ["-m", "bleu", "chrf", "ter", "-f", "text"]],
    ids=" ".join,
)
def test_bundled_examples(capsys, options):
    same_as_sacrebleu(capsys, EXAMPLES / "ref.A.en", EXAMPLES / "ref.B.en", "-i", EXAMPLES / "hyp.en", *options)
    if "-sl" not in options:  # sacrebleu scores one system at a time with -sl
        same_as_sacrebleu(capsys, EXAMPLES / "ref.A.en", "-i", EXAMPLES / "hyp.en", EXAMPLES / "ref.B.en", *options)


def test_num_refs(capsys, tmp_path):
    lines = [(EXAMPLES / name).read_text(encoding="utf-8").splitlines() for name in ("ref.A.en", "ref.B.en")]
    pasted = write(tmp_path / "refs.tsv", [f"{a}\t{b}" for a, b in zip(*lines, strict=True)])
    for options in ([], ["-f", "text"], ["-sl"]):
        same_as_sacrebleu(capsys, pasted, "-nr", "2", "-i", EXAMPLES / "hyp.en", *options)


@pytest.mark.parametrize("variable", ["text", "LaTeX", "tsv"])
def test_sacrebleu_format_variable(capsys, wmt, monkeypatch, variable):
    """``$SACREBLEU_FORMAT`` gives the format sacrebleu gives (the oracle runs without it, given ``-f``
    instead); sacrebleu ignores a value that is not one of its formats, such as ``tsv``."""
    (ref_a, _), systems = wmt
    monkeypatch.setenv("SACREBLEU_FORMAT", variable)
    chosen = [] if variable == "tsv" else ["-f", variable.lower()]
    for argv in ([ref_a, "-i", systems[0]], [ref_a, "-i", *systems], [ref_a, "-i", systems[0], "-sl"]):
        code, out, _ = run(capsys, *argv)
        assert code == EXIT_OK and as_sacrebleu_version(out) == sacrebleu_cli(*argv, *chosen)


# The fuller forms, behind explicit options


def test_sentence_level_json_lines_and_tsv(capsys, wmt):
    (ref_a, _), systems = wmt
    _, out, _ = run(capsys, ref_a, "-i", systems[0], "-sl", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["line"] for row in rows] == [*range(1, SEGMENTS + 1), "corpus"]
    theirs = sacrebleu_cli(ref_a, "-i", systems[0], "-sl", "-b").split()
    assert [f"{row['score']:.1f}" for row in rows[:-1]] == theirs
    _, out, _ = run(capsys, ref_a, "-i", systems[0], "-sl", "-f", "tsv")
    assert out.splitlines()[0].startswith("system\tline\tscore\t") and out.splitlines()[-1].split("\t")[1] == "corpus"


def test_numbers_alone_with_b_and_tsv(capsys, wmt):
    (ref_a, _), systems = wmt
    _, out, _ = run(capsys, ref_a, "-i", *systems, "-m", "bleu", "chrf", "-b", "-f", "tsv")
    rows = json.loads(sacrebleu_cli(ref_a, "-i", *systems, "-m", "bleu", "chrf"))
    assert out.splitlines() == [f"{row['BLEU']}\t{row['chrF2']}" for row in rows]
    _, out, _ = run(capsys, ref_a, "-i", *systems, "--paired-ar", "-parn", "50", "-b", "-f", "tsv")
    assert out.split() == [row["BLEU"] for row in rows]


def test_paired_comparisons(capsys, wmt):
    (ref_a, _), systems = wmt
    argv = [ref_a, "-i", *systems, "--paired-bs", "-pbsn", "100"]
    _, out, _ = run(capsys, *argv, "-f", "text", "--comparisons")
    assert out.count("95% CI of Δ") == 1 and "p (Holm)" in out
    _, out, _ = run(capsys, *argv, "--comparisons")
    assert all("comparisons" in row["BLEU"] for row in json.loads(out))


# What stays different (docs/cli.md lists it)


def test_paired_bootstrap_json_which_sacrebleu_cannot_write(capsys, wmt):
    (ref_a, _), systems = wmt
    code, out, _ = run(capsys, ref_a, "-i", *systems, "--paired-bs", "-pbsn", "100")
    rows = json.loads(out)
    assert code == EXIT_OK and [row["system"] for row in rows] == [f"Baseline: {systems[0]}", *systems[1:]]
    assert list(rows[1]["BLEU"]) == ["score", "p_value", "mean", "ci"]


@pytest.mark.parametrize(
    "options",
    [["-f", "text"], ["-f", "latex"], [], ["--paired-bs", "-pbsn", "50", "-f", "text"], ["--paired-ar", "-parn", "50"]],
    ids=" ".join,
)
def test_names_to_escape_and_wide_characters(capsys, wmt, tmp_path, options):
    """LaTeX's special characters are escaped after padding, wide characters take two columns (as in
    tabulate), and JSON escapes what is not ASCII (as Python's json by default)."""
    (ref_a, _), systems = wmt
    named = [
        write(tmp_path / name, Path(path).read_text(encoding="utf-8").splitlines())
        for name, path in (("sys_1% & $x", systems[0]), ("日本語", systems[1]), ("cafe\u0301", systems[2]))
    ]
    same_as_sacrebleu(capsys, ref_a, "-i", *named, *options)
