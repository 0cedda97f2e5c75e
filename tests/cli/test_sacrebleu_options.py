"""sacrebleu's command-line options a user types on day one: ``-nr`` (tab-separated
references in one file), ``$SACREBLEU_FORMAT``, ``-q``, ``-nc`` and ``-j``."""

from __future__ import annotations

import pytest
from helpers import run, sacrebleu_cli, write
from shared_data import REPO_ROOT

from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE

EXAMPLES = REPO_ROOT / "examples"
REF_A, REF_B, HYP = (str(EXAMPLES / name) for name in ("ref.A.en", "ref.B.en", "hyp.en"))


def lines(path: str) -> list[str]:
    return open(path, encoding="utf-8").read().splitlines()


@pytest.fixture
def pasted_references(tmp_path) -> str:
    return write(tmp_path / "refs.tsv", [f"{a}\t{b}" for a, b in zip(lines(REF_A), lines(REF_B), strict=True)])


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_num_refs_reads_tab_separated_references_as_separate_files(capsys, pasted_references, metric):
    expected = run(capsys, REF_A, REF_B, "-i", HYP, "-m", metric, "-w", "6")
    assert run(capsys, pasted_references, "-nr", "2", "-i", HYP, "-m", metric, "-w", "6") == expected
    assert expected[0] == EXIT_OK


def test_num_refs_matches_sacrebleu(capsys, pasted_references):
    code, out, _ = run(capsys, pasted_references, "-nr", "2", "-i", HYP, "-b", "-w", "4")
    assert code == EXIT_OK and out == sacrebleu_cli(pasted_references, "-nr", "2", "-i", HYP, "-b", "-w", "4")


def test_num_refs_needs_that_many_fields_on_every_line(capsys, pasted_references):
    code, out, err = run(capsys, pasted_references, "-nr", "3", "-i", HYP)
    assert code == EXIT_INPUT and out == ""
    assert "line 1 has 2 tab-separated fields, expected 3 (--num-refs)" in err


@pytest.mark.parametrize(
    "argv, message",
    [([REF_B, "-nr", "2"], "give only one"), (["-nr", "0"], "--num-refs must be 1 or more")],
)
def test_num_refs_usage_errors(capsys, pasted_references, argv, message):
    code, _, err = run(capsys, pasted_references, *argv, "-i", HYP)
    assert code == EXIT_USAGE and message in err


def test_sacrebleu_format_sets_the_default_format(capsys, monkeypatch):
    text = run(capsys, REF_A, "-i", HYP, "-f", "text")
    json = run(capsys, REF_A, "-i", HYP)
    monkeypatch.setenv("SACREBLEU_FORMAT", "TEXT")
    assert run(capsys, REF_A, "-i", HYP) == text
    assert run(capsys, REF_A, "-i", HYP, "-f", "json") == json  # an explicit -f still wins
    monkeypatch.setenv("SACREBLEU_FORMAT", "yaml")  # not a format: ignored, as sacrebleu ignores it
    assert run(capsys, REF_A, "-i", HYP) == json


def test_quiet_no_color_and_paired_jobs_are_accepted(capsys):
    expected = run(capsys, REF_A, "-i", HYP, REF_B, "--paired-bs", "-f", "text")
    assert run(capsys, REF_A, "-i", HYP, REF_B, "--paired-bs", "-f", "text", "-q", "-nc", "-j", "2") == expected
    assert expected[0] == EXIT_OK


FRENCH_REF = ["Le café est très chaud, dit-il.", "Ça va très bien."]
FRENCH_HYP = ["Le café est chaud, dit-il.", "Ça va bien."]


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "cp1252"])
@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_encoding_reads_files_of_another_encoding(capsys, tmp_path, encoding, metric):
    """``--encoding``: files in another encoding score as their UTF-8 copies."""
    utf8 = [write(tmp_path / f"{name}.u8", lines) for name, lines in (("ref", FRENCH_REF), ("hyp", FRENCH_HYP))]
    other = [
        write(tmp_path / f"{name}.other", lines, encoding=encoding)
        for name, lines in (("ref", FRENCH_REF), ("hyp", FRENCH_HYP))
    ]
    expected = run(capsys, utf8[0], "-i", utf8[1], "-m", metric, "-b", "-w", "6")
    assert run(capsys, other[0], "-i", other[1], "-m", metric, "-b", "-w", "6", "--encoding", encoding) == expected
    code, _, err = run(capsys, other[0], "-i", other[1], "-m", metric)  # read as UTF-8, as by default
    assert code == EXIT_INPUT and ("not UTF-8" in err or "invalid UTF-8" in err)


def test_encoding_errors(capsys, tmp_path):
    ref = write(tmp_path / "ref", FRENCH_REF)
    code, _, err = run(capsys, ref, "-i", ref, "--encoding", "nope")
    assert code == EXIT_USAGE and "unknown encoding 'nope'" in err
    code, _, err = run(capsys, ref, "-i", ref, "--encoding", "ascii")
    assert code == EXIT_INPUT and "not valid ascii at byte offset 6 (0xc3)" in err
