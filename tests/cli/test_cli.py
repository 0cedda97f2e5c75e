"""The command line: invocation forms, output formats, and every bad input (message + exit code)."""

from __future__ import annotations

import builtins
import gzip
import io
import json
import subprocess
import sys

import pytest
import sacrebleu
from helpers import run, write

from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE, main

HYP = ["The cat sat on the mat.", "It is raining again today.", "Three apples and bread."]
REF_A = ["The cat sat on the mat.", "It is raining today again.", "Three apples and a loaf of bread."]
REF_B = ["A cat was on the mat.", "Today it rains again.", "She bought three apples and bread."]


@pytest.fixture
def files(tmp_path):
    return {
        "hyp": write(tmp_path / "hyp.txt", HYP),
        "ref_a": write(tmp_path / "ref_a.txt", REF_A),
        "ref_b": write(tmp_path / "ref_b.txt", REF_B),
        "dir": str(tmp_path),
    }


def oracle(hyps, refs, **kwargs):
    return sacrebleu.metrics.BLEU(**kwargs).corpus_score(hyps, refs)


# Invocation forms and outputs


def test_json_output_has_sacrebleus_keys(capsys, files):
    code, out, err = run(capsys, files["ref_a"], files["ref_b"], "-i", files["hyp"])
    assert code == EXIT_OK and err == ""
    data = json.loads(out)
    assert list(data) == [
        "name",
        "score",
        "signature",
        "verbose_score",
        "nrefs",
        "case",
        "eff",
        "tok",
        "smooth",
        "version",
    ]
    expected = oracle(HYP, [REF_A, REF_B])
    assert data["score"] == round(expected.score, 1)
    assert data["verbose_score"] == expected._verbose
    assert data["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:mtscore-")


def test_text_output_is_sacrebleus_line(capsys, files):
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], "-f", "text", "-w", "2")
    expected = oracle(HYP, [REF_A])
    assert code == EXIT_OK
    assert out.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:mtscore-")
    assert out.rstrip().endswith(f"= {expected.score:.2f} {expected._verbose}")


def test_score_only_and_width(capsys, files):
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], "-b", "-w", "4")
    assert code == EXIT_OK and out == f"{oracle(HYP, [REF_A]).score:.4f}\n"


def test_options_reach_the_metric(capsys, files):
    args = ["-tok", "intl", "-lc", "-s", "floor", "-sv", "0.2", "-e", "--max-ngram-order", "3", "-b", "-w", "6"]
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], *args)
    expected = oracle(
        HYP,
        [REF_A],
        tokenize="intl",
        lowercase=True,
        smooth_method="floor",
        smooth_value=0.2,
        effective_order=True,
        max_ngram_order=3,
    )
    assert code == EXIT_OK and out.strip() == f"{expected.score:.6f}"


def test_several_systems_make_a_table(capsys, files, tmp_path):
    other = write(tmp_path / "other.txt", REF_B)
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], other, "-f", "text")
    assert code == EXIT_OK
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in out.splitlines() if line.startswith("│")]
    assert rows[0] == ["System", "BLEU"]  # sacrebleu's grid
    assert rows[1] == [files["hyp"], f"{oracle(HYP, [REF_A]).score:.1f}"]
    assert rows[2] == [other, f"{oracle(REF_B, [REF_A]).score:.1f}"]
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], other)
    rows = json.loads(out)
    assert [row["system"] for row in rows] == [files["hyp"], other]
    assert rows[0]["BLEU"] == f"{oracle(HYP, [REF_A]).score:.1f}"


def test_stdin_pipe_and_exit_code(files):
    """End to end through a real process: `cat HYP | mtscore REF`."""
    result = subprocess.run(
        [sys.executable, "-m", "mtscore", files["ref_a"], "-b", "-w", "3"],
        input="\n".join(HYP).encode() + b"\n",
        capture_output=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().strip() == f"{oracle(HYP, [REF_A]).score:.3f}"


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["-V"])
    assert exit_info.value.code == 0 and capsys.readouterr().out.startswith("mtscore ")
    with pytest.raises(SystemExit) as exit_info:
        main(["-h"])
    assert exit_info.value.code == 0 and "exit codes" in capsys.readouterr().out


def test_help_does_not_import_numpy():
    code = (
        "import sys; from mtscore.cli.score import build_parser; build_parser().format_help(); "
        "print('numpy' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("subcommand", ["stats", "merge", "report", "explain"])
def test_subcommand_help_does_not_import_numpy(subcommand):
    code = (
        "import sys, contextlib, io; from mtscore.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main([{subcommand!r}, '--help'])\n"
        "print('numpy' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# Line handling: only "\n" ends a segment; CRLF, BOM and gzip are transparent.


def test_unicode_line_separators_stay_inside_a_segment(capsys, tmp_path):
    hyps = ["a\u2028b c", "d\x85e\x0cf", "g\rh i"]
    refs = ["a b c", "d e f", "g h i"]
    hyp = write(tmp_path / "hyp.txt", hyps)
    ref = write(tmp_path / "ref.txt", refs)
    code, out, _ = run(capsys, ref, "-i", hyp, "-b", "-w", "9")
    assert code == EXIT_OK
    assert out.strip() == f"{oracle(hyps, [refs]).score:.9f}"


def test_crlf_bom_and_gzip_give_the_same_score(capsys, files, tmp_path):
    plain = run(capsys, files["ref_a"], "-i", files["hyp"], "-b", "-w", "9")[1]
    crlf = write(tmp_path / "crlf.txt", HYP, newline="\r\n")
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + (tmp_path / "hyp.txt").read_bytes())
    packed = tmp_path / "hyp.txt.gz"
    packed.write_bytes(gzip.compress((tmp_path / "hyp.txt").read_bytes()))
    for path in (crlf, str(bom), str(packed)):
        assert run(capsys, files["ref_a"], "-i", path, "-b", "-w", "9") == (EXIT_OK, plain, "")


def test_last_line_without_newline(capsys, files, tmp_path):
    path = tmp_path / "no_eol.txt"
    path.write_text("\n".join(HYP), encoding="utf-8")
    assert run(capsys, files["ref_a"], "-i", str(path), "-b")[0] == EXIT_OK


@pytest.mark.parametrize(
    "hyps,refs",
    [
        (["", "a b c d e"], ["x y", "a b c d e"]),  # an empty hypothesis
        (["a b", "a b c d e"], ["", "a b c d e"]),  # an empty reference
        (["", ""], ["x y", "z"]),  # all hypotheses empty
    ],
    ids=["empty-hyp", "empty-ref", "all-empty-hyps"],
)
def test_empty_segments_score_like_sacrebleu(capsys, tmp_path, hyps, refs):
    hyp, ref = write(tmp_path / "h.txt", hyps), write(tmp_path / "r.txt", refs)
    code, out, err = run(capsys, ref, "-i", hyp, "-b", "-w", "9")
    assert (code, err) == (EXIT_OK, "")
    assert out.strip() == f"{oracle(hyps, [refs]).score:.9f}"


# Bad input: a clear message and exit 2


def test_hypothesis_and_reference_lengths_differ(capsys, files, tmp_path):
    short = write(tmp_path / "short.txt", HYP[:2])
    code, _, err = run(capsys, files["ref_a"], "-i", short)
    assert code == EXIT_INPUT
    assert short in err and files["ref_a"] in err and "2 lines" in err and "has 3" in err


def test_reference_files_differ_in_length(capsys, files, tmp_path):
    short = write(tmp_path / "short.txt", REF_B[:1])
    code, _, err = run(capsys, files["ref_a"], short, "-i", files["hyp"])
    assert code == EXIT_INPUT and short in err and "3 lines" in err and "has 1" in err


def test_missing_file(capsys, files):
    code, _, err = run(capsys, files["ref_a"], "-i", "/nonexistent/hyp.txt")
    assert code == EXIT_INPUT and "/nonexistent/hyp.txt: no such file" in err


def test_directory(capsys, files):
    code, _, err = run(capsys, files["dir"], "-i", files["hyp"])
    assert code == EXIT_INPUT and "is a directory" in err


def test_unreadable_file(capsys, files, monkeypatch):
    real_open = builtins.open

    def deny(path, *args, **kwargs):
        if str(path) == files["hyp"]:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", deny)
    code, _, err = run(capsys, files["ref_a"], "-i", files["hyp"])
    assert code == EXIT_INPUT and f"{files['hyp']}: permission denied" in err


def test_invalid_utf8_names_file_line_and_offset(capsys, files, tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("first line\nsecond caf\u00e9\nthird\n".encode("latin-1"))
    code, _, err = run(capsys, files["ref_a"], "-i", str(bad))
    assert code == EXIT_INPUT
    assert str(bad) in err and "line 2" in err and "byte offset 21" in err and "0xe9" in err


def test_invalid_gzip(capsys, files, tmp_path):
    bad = tmp_path / "broken.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    code, _, err = run(capsys, files["ref_a"], "-i", str(bad))
    assert code == EXIT_INPUT and "not a valid gzip file" in err


def test_empty_file(capsys, files, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    code, _, err = run(capsys, files["ref_a"], "-i", str(empty))
    assert code == EXIT_INPUT and "is empty" in err


def test_empty_standard_input():
    result = subprocess.run([sys.executable, "-m", "mtscore", "ref.txt"], input=b"", capture_output=True)
    # The reference is read first: with a missing reference the error names it.
    assert result.returncode == EXIT_INPUT


def test_empty_standard_input_with_reference(files):
    result = subprocess.run([sys.executable, "-m", "mtscore", files["ref_a"]], input=b"", capture_output=True)
    assert result.returncode == EXIT_INPUT and b"standard input is empty" in result.stderr
    assert b"Traceback" not in result.stderr


def test_no_input_on_a_terminal(capsys, files, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    code, _, err = run(capsys, files["ref_a"])
    assert code == EXIT_USAGE and "no hypotheses" in err


# Usage errors: exit 1


@pytest.mark.parametrize(
    "argv,message",
    [
        ([], "no reference files"),
        (["ref.txt", "-tok", "nope", "-i", "h"], "invalid choice"),
        (["ref.txt", "-i", "h", "--max-ngram-order", "0"], "max order"),
        (["ref.txt", "-i", "h", "--weights", "0.5", "0.2"], "weights"),
        (["ref.txt", "-i", "h", "h"], "twice"),
        (["ref.txt", "-i", "h", "--bogus"], "unrecognized arguments"),
        (["ref.txt", "-i", "h", "-w", "-1"], "--width"),
    ],
    ids=["no-refs", "tokenizer", "max-order", "weights", "same-file-twice", "unknown-option", "width"],
)
def test_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == EXIT_USAGE and message in err and out == ""
    assert "Traceback" not in err


def test_top_level_help_lists_every_command_with_a_line(capsys):
    from mtscore.cli.commands import COMMANDS

    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    listed = out.split("commands (mtscore COMMAND --help for each):\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.split()[0] for line in listed] == list(COMMANDS)
    assert all(len(line.split()) > 2 for line in listed)


@pytest.mark.parametrize("command", ["explain", "report", "stats", "merge"])
def test_help_command_shows_the_commands_own_help(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    own = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["help", command])
    assert capsys.readouterr().out == own and own.startswith(f"usage: mtscore {command}")


def test_help_alone_is_the_top_level_help_and_an_unknown_command_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["help"])
    assert capsys.readouterr().out == top
    assert main(["help", "nope"]) == 1
    assert "help takes one of: explain, report" in capsys.readouterr().err
    assert main(["help", "--help"]) == 0 and capsys.readouterr().out.startswith("usage: mtscore help")


def test_every_command_spells_its_output_format_the_same():
    """The same spelling for the same thing: every command that takes an output format takes -f and --format."""
    from mtscore.cli import explain, report, score, shards

    parsers = [score.build_parser(), report.build_parser(), shards.build_merge_parser(), explain.build_parser()]
    spellings = [
        sorted(action.option_strings) for parser in parsers for action in parser._actions if action.dest == "format"
    ]
    assert spellings and all(spelling == ["--format", "-f"] for spelling in spellings)
