"""Edges that used to end in a traceback, read without bound, or write output that can be misread: one
table per class, run over every metric it applies to (``mtscore.metrics.METRICS``).

- Tracebacks: a switch (a ``bool`` option) given a string; NLTK's drop-in given tokens that are not str
  (NLTK scores them: the numbers must be NLTK's) or weights that are not numbers; a test-set cache folder
  that cannot be entered; standard output in an encoding without the characters of the results.
- Bounded reading: a small compressed file that expands past the streaming threshold is streamed.
- Output that cannot be misread: system names with tabs or line breaks where they become a column; the
  report's command with each argument isolated; p-values of a test on one segment flagged.
"""

from __future__ import annotations

import gzip
import os
import pathlib
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import as_sacrebleu_version, run, write
from nltk.translate import bleu_score as nltk_bleu

from mtscore import InputError
from mtscore import nltk as drop_in
from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_OUTPUT, EXIT_USAGE, main
from mtscore.metrics import METRICS, metric_class, metric_options

REF = ["the cat sat on the mat", "it is raining again today"]
HYP = ["the cat sat on a mat", "it rains again today"]
SACREBLEU_METRICS = ("bleu", "chrf", "ter")  # the metrics sacrebleu's command line scores too


def _switches() -> list[tuple[str, str]]:
    return [(name, option.name) for name in METRICS for option in metric_options(name) if option.kind is bool]


# --- Tracebacks: a switch given a value that is not True or False ----------------------------------------

NOT_SWITCHES = ["no", "False", "", None, 2, 0.5, [True]]


@pytest.mark.parametrize(("metric", "switch"), _switches())
@pytest.mark.parametrize("value", NOT_SWITCHES, ids=repr)
def test_a_switch_given_anything_but_true_or_false_is_refused_by_name(metric, switch, value):
    with pytest.raises(InputError, match=f"{switch} must be True or False, got {value!r}".replace("[", r"\[")):
        metric_class(metric)(**{switch: value})


@pytest.mark.parametrize(("metric", "switch"), _switches())
@pytest.mark.parametrize("value", [True, False, 1, 0], ids=repr)
def test_a_switch_takes_true_false_and_their_integers(metric, switch, value):
    """The values a switch had always taken still give the metric (0 and 1 as False and True)."""
    metric_class(metric)(**{switch: value})


def test_corpus_ter_with_a_string_for_normalized_is_an_input_error():
    import mtscore

    with pytest.raises(InputError, match="normalized must be True or False, got 'no'"):
        mtscore.corpus_ter(HYP, [REF], normalized="no")


# --- Tracebacks: NLTK's drop-in with tokens that are not str (NLTK scores them) ---------------------------

TOKEN_LISTS = {
    "ints": ([[1, 2, 3, 4, 5, 6], [1, 2, 3, 9, 5, 6]], [1, 2, 3, 4, 5, 7]),
    "mixed hashables": ([[1, "a", (2, 3), 4.5, None, "b"]], [1, "a", (2, 3), 4.5, "b"]),
    "an int beside its str": ([[1, "1", 2, 3, 4, 5]], [1, "1", 2, 3, 4, 6]),
    "equal numbers of other types": ([[1, True, 1.0, 4, 5, 6]], [1, 1, 1, 4, 5, 7]),
    "bytes": ([[b"the", b"cat", b"sat", b"on", b"the", b"mat"]], [b"the", b"cat", b"sat", b"on", b"a", b"mat"]),
}
SMOOTHING = [None, "method1", "method4", "method7"]


def _smoothing(module, method):
    return None if method is None else getattr(module.SmoothingFunction(), method)


@pytest.mark.parametrize("method", SMOOTHING)
@pytest.mark.parametrize("case", list(TOKEN_LISTS))
def test_nltk_drop_in_scores_tokens_that_are_not_str_as_nltk(case, method):
    references, hypothesis = TOKEN_LISTS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK's and ours: "the hypothesis contains 0 counts of ..."
        expected = nltk_bleu.sentence_bleu(references, hypothesis, smoothing_function=_smoothing(nltk_bleu, method))
        got = drop_in.sentence_bleu(references, hypothesis, smoothing_function=_smoothing(drop_in, method))
        expected_corpus = nltk_bleu.corpus_bleu([references] * 2, [hypothesis, hypothesis[::-1]])
        got_corpus = drop_in.corpus_bleu_as_nltk([references] * 2, [hypothesis, hypothesis[::-1]])
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert got_corpus == pytest.approx(expected_corpus, rel=1e-12, abs=1e-300)
    for n in (1, 2, 3):
        precision = drop_in.modified_precision(references, hypothesis, n)
        oracle = nltk_bleu.modified_precision(references, hypothesis, n)
        assert Fraction(precision) == Fraction(oracle)
        assert (precision.numerator, precision.denominator) == (oracle.numerator, oracle.denominator)


def test_nltk_drop_in_refuses_an_unhashable_token_by_segment():
    with pytest.raises(InputError, match="segment 0, reference 0 holds a token of type list"):
        drop_in.sentence_bleu([[1, [2], 3]], [1, 2, 3])


BAD_WEIGHTS = {
    "a str": "abcd",
    "bytes": b"abcd",
    "empty": (),
    "an empty tuple in a list": [()],
    "a str among numbers": (0.5, "x"),
    "a number": 5,
    "None": None,
    "a list with a str": [(0.5, 0.5), "ab"],
}


@pytest.mark.parametrize("function", ["sentence_bleu", "corpus_bleu", "corpus_bleu_as_nltk"])
@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
def test_nltk_drop_in_refuses_weights_that_are_not_numbers(case, function):
    references, hypothesis = [["the", "cat", "sat", "on", "the", "mat"]], ["the", "cat", "sat", "on", "a", "mat"]
    arguments = (references, hypothesis) if function == "sentence_bleu" else ([references], [hypothesis])
    with pytest.raises(InputError, match="weights must be a non-empty tuple of numbers"):
        getattr(drop_in, function)(*arguments, weights=BAD_WEIGHTS[case])


@pytest.mark.parametrize("weights", [(0.5, 0.5), [0.25] * 4, [(0.5, 0.5), (1.0,)], (1, 0, 0, 0)], ids=repr)
def test_nltk_drop_in_keeps_scoring_weights_of_numbers_as_nltk(weights):
    references, hypothesis = [["the", "cat", "sat", "on", "the", "mat"]], ["the", "cat", "sat", "on", "a", "mat"]
    assert drop_in.sentence_bleu(references, hypothesis, weights) == pytest.approx(
        nltk_bleu.sentence_bleu(references, hypothesis, weights), rel=1e-12
    )


# --- Tracebacks: a test-set cache that cannot be entered --------------------------------------------------

CACHE_COMMANDS = {
    "score against -t": ["-t", "wmt22", "-l", "de-en", "-i", "{hyp}"],
    "--echo": ["-t", "wmt22", "-l", "de-en", "--echo", "src"],
    "--download": ["--download", "wmt22", "-l", "de-en"],
    "--list of a set's fields": ["-t", "wmt22", "--list"],
}


@pytest.mark.parametrize("command", list(CACHE_COMMANDS))
def test_a_cache_folder_that_cannot_be_entered_is_an_input_error_naming_it(command, tmp_path, monkeypatch, capsys):
    """Tests run as root, whom permissions do not stop: looking inside the folder is made to fail as it
    does for a user without the right to enter it."""
    cache = tmp_path / "cache"
    (cache / "wmt22").mkdir(parents=True)
    monkeypatch.setenv("SACREBLEU", str(cache))
    real_stat = pathlib.Path.stat

    def stat(path, **kwargs):
        if str(path).startswith(f"{cache / 'wmt22'}{os.sep}"):
            raise PermissionError(13, "Permission denied", str(cache / "wmt22"))
        return real_stat(path, **kwargs)

    monkeypatch.setattr(pathlib.Path, "stat", stat)
    hyp = write(tmp_path / "hyp", HYP)
    code, out, err = run(capsys, *(part.format(hyp=hyp) for part in CACHE_COMMANDS[command]))
    assert (code, out) == (EXIT_INPUT, ""), err
    assert f"cannot read the test-set cache at {cache}: {cache / 'wmt22'}: Permission denied" in err
    assert "Traceback" not in err


# --- Tracebacks: standard output in an encoding without the results' characters ---------------------------


def _child_environment(**variables: str) -> dict[str, str]:
    """This environment, with the mtscore this process imported first on the path (the tree under test)."""
    import mtscore

    package_root = str(Path(mtscore.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **variables}


def _mtscore(args: list[str], encoding: str, cwd: Path) -> subprocess.CompletedProcess:
    env = _child_environment(PYTHONIOENCODING=encoding)
    return subprocess.run([sys.executable, "-m", "mtscore", *args], capture_output=True, env=env, cwd=cwd, timeout=300)


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.slow
def test_an_ascii_standard_output_gets_the_utf8_results_as_sacrebleu_writes_them(metric, tmp_path):
    """sacrebleu reopens standard output as UTF-8 whatever the locale: ``μ`` and ``±`` of --confidence come
    out as UTF-8 bytes, the same as with a UTF-8 standard output."""
    write(tmp_path / "ref", REF)
    write(tmp_path / "hyp", HYP)
    args = ["ref", "-i", "hyp", "-m", metric, "--confidence", "-f", "text", "--confidence-n", "50"]
    ascii_run, utf8_run = _mtscore(args, "ascii", tmp_path), _mtscore(args, "utf-8", tmp_path)
    assert ascii_run.returncode == EXIT_OK, ascii_run.stderr.decode()
    assert ascii_run.stdout == utf8_run.stdout
    assert "μ".encode() in ascii_run.stdout
    if metric in SACREBLEU_METRICS:
        env = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "ascii"}
        oracle = subprocess.run(
            [sys.executable, "-m", "sacrebleu", *args], capture_output=True, env=env, cwd=tmp_path, check=True
        )
        assert as_sacrebleu_version(ascii_run.stdout.decode()) == oracle.stdout.decode()


class _AsciiOnly:
    """A standard output that cannot be switched to UTF-8 and encodes ASCII only."""

    encoding, errors = "ascii", "strict"

    def write(self, text: str) -> int:
        text.encode("ascii")
        return len(text)

    def flush(self) -> None:
        pass


def test_an_output_that_cannot_take_the_results_characters_is_an_output_error(tmp_path, monkeypatch, capsys):
    ref, hyp = write(tmp_path / "ref", REF), write(tmp_path / "hyp", HYP)
    monkeypatch.setattr(sys, "stdout", _AsciiOnly())
    code = main([ref, "-i", hyp, "--confidence", "--confidence-n", "50", "-f", "text"])
    err = capsys.readouterr().err
    assert code == EXIT_OUTPUT
    assert "cannot write the results: standard output takes ascii only, which has no '\\u03bc'" in err


# --- Bounded reading: a small compressed file that expands past the streaming threshold -------------------

LINE = b"the cat sat on the mat and it is raining again today in the town of somewhere far away from here\n"
PEAK_LIMIT_MIB = 250  # the whole text alone is 185 MiB; read whole it peaks above 700 MiB


def test_a_gzip_that_expands_to_far_more_than_it_weighs_is_read_in_bounded_memory(tmp_path):
    """A 0.7 MB gzip of 194 MB of text (multi-member, like concatenated gzip files) against a two-line
    reference: the line counts differ, which is found by streaming it, not by holding it."""
    member = gzip.compress(LINE * 10_000, compresslevel=9, mtime=0)
    (tmp_path / "hyp.gz").write_bytes(member * 200)
    write(tmp_path / "ref", REF)
    # The peak of this process's own memory (VmHWM): getrusage's ru_maxrss would also count the memory
    # of the forked copy of pytest that exec replaced.
    child = (
        "import re, sys\n"
        "from mtscore.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "status = open('/proc/self/status').read()\n"
        "print('peak', re.search(r'VmHWM:\\s+(\\d+) kB', status).group(1), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child, "ref", "-i", "hyp.gz", "-b"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_child_environment(),
        timeout=300,
    )
    assert done.returncode == EXIT_INPUT, done.stderr
    assert "hyp.gz has 2000000 lines but ref has 2" in done.stderr
    peak_kib = int(done.stderr.rsplit("peak ", 1)[1])
    assert peak_kib < PEAK_LIMIT_MIB * 1024, f"peak {peak_kib // 1024} MiB"


STREAMING_METRICS = [name for name in METRICS if metric_class(name)().aggregation.streams]  # NIST's weights need it all


@pytest.mark.parametrize("metric", STREAMING_METRICS)
@pytest.mark.parametrize("packing", ["gzip", "bz2", "lzma"])
def test_a_compressed_file_larger_than_the_threshold_once_expanded_is_streamed_to_the_same_score(
    metric, packing, tmp_path, monkeypatch, capsys
):
    import bz2
    import lzma

    from mtscore.cli import score

    pack = {"gzip": lambda data: gzip.compress(data, mtime=0), "bz2": bz2.compress, "lzma": lzma.compress}[packing]
    ref = write(tmp_path / "ref", REF * 50)
    hyp = write(tmp_path / "hyp", HYP * 50)
    (tmp_path / "hyp.packed").write_bytes(pack(Path(hyp).read_bytes()))
    expanded = os.path.getsize(ref) + os.path.getsize(hyp)
    monkeypatch.setattr(score, "STREAM_BYTES", expanded - 10)  # the packed pair weighs less, expands to more
    chosen = []
    real_stream = score._stream
    monkeypatch.setattr(score, "_stream", lambda *args: chosen.append(True) or real_stream(*args))
    code, packed_out, err = run(capsys, ref, "-i", tmp_path / "hyp.packed", "-m", metric, "--no-progress")
    assert code == EXIT_OK, err
    assert chosen, "the compressed input was read whole"
    monkeypatch.setattr(score, "STREAM_BYTES", 1 << 40)
    assert run(capsys, ref, "-i", hyp, "-m", metric, "--no-progress")[1] == packed_out


# --- Output that cannot be misread: system names that would break rows -----------------------------------

ROW_BREAKS = {"tab": "\t", "newline": "\n", "carriage return": "\r"}
# Where a system's name becomes a tab-separated column: (arguments, metrics it applies to)
NAMED_COLUMNS = {
    "-f tsv": (["-f", "tsv"], ["bleu"]),
    "-sl -b of several systems": (["-sl", "-b"], list(METRICS)),
    "-sl of several systems": (["-sl"], list(METRICS)),
    "-sl -f tsv": (["-sl", "-f", "tsv"], list(METRICS)),
}


def _named_cases() -> list[tuple[str, str, str]]:
    return [
        (form, metric, kind)
        for form, (_, metrics) in NAMED_COLUMNS.items()
        for metric in metrics
        for kind in ROW_BREAKS
    ]


@pytest.mark.parametrize(("form", "metric", "kind"), _named_cases())
def test_a_system_name_that_would_break_its_row_is_refused(form, metric, kind, tmp_path, capsys):
    ref = write(tmp_path / "ref", REF)
    plain = write(tmp_path / "plain", HYP)
    odd = write(tmp_path / f"odd{ROW_BREAKS[kind]}name", HYP)
    args, _ = NAMED_COLUMNS[form]
    code, out, err = run(capsys, ref, "-i", plain, odd, "-m", metric, *args)
    assert (code, out) == (EXIT_USAGE, ""), err
    assert f"the hypothesis file name {odd!r} holds a tab or a line break" in err


@pytest.mark.parametrize(
    ("form", "metric"), [(form, metric) for form, (_, metrics) in NAMED_COLUMNS.items() for metric in metrics]
)
def test_plain_system_names_still_make_their_rows(form, metric, tmp_path, capsys):
    ref = write(tmp_path / "ref", REF)
    first, second = write(tmp_path / "first system", HYP), write(tmp_path / "second", REF)
    args, _ = NAMED_COLUMNS[form]
    code, out, err = run(capsys, ref, "-i", first, second, "-m", metric, *args)
    assert code == EXIT_OK, err
    rows = out.splitlines()
    assert len({row.count("\t") for row in rows if "\t" in row}) == 1


@pytest.mark.parametrize("kind", list(ROW_BREAKS))
def test_a_name_with_a_row_break_is_kept_where_json_escapes_it(kind, tmp_path, capsys):
    ref = write(tmp_path / "ref", REF)
    odd = write(tmp_path / f"odd{ROW_BREAKS[kind]}name", HYP)
    code, out, err = run(capsys, ref, "-i", write(tmp_path / "plain", HYP), odd, "-sl", "-f", "json")
    assert code == EXIT_OK, err
    assert len(out.splitlines()) == 2 * (len(REF) + 1)


# --- Output that cannot be misread: the report's command, p-values of one segment -------------------------

SHOWN_ARGUMENTS = {
    "a right-to-left override": ("hyp\u202etxt.exe", "$'hyp\\u202etxt.exe'"),
    "a tab": ("hyp\tB", "$'hyp\\x09B'"),
    "a line separator": ("hyp\u2028B", "$'hyp\\u2028B'"),
    "a quote and a control": ("it's\x1b", "$'it\\'s\\x1b'"),
    "right-to-left letters": ("מערכת", "'מערכת'"),
    "a space": ("system B", "'system B'"),
}


@pytest.mark.parametrize("case", list(SHOWN_ARGUMENTS))
def test_the_report_shows_each_argument_of_its_command_isolated_and_visible(case, tmp_path, monkeypatch, capsys):
    name, shown = SHOWN_ARGUMENTS[case]
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "ref", REF)
    write(tmp_path / "A", HYP)
    write(tmp_path / name, REF)
    code, out, err = run(capsys, "report", "ref", "-i", "A", name, "--resamples", "20")
    assert code == EXIT_OK, err
    command = out.split("<h3>Command</h3><pre><code>", 1)[1].split("</code>", 1)[0]
    assert command.startswith("mtscore report <bdi>")
    assert f"<bdi>{shown.replace(chr(39), '&#x27;')}</bdi>" in command
    assert "\u202e" not in command and "\t" not in command and "\u2028" not in command


def _one_segment_files(tmp_path: Path) -> tuple[str, str, str]:
    return (
        write(tmp_path / "ref", ["the cat sat on the mat"]),
        write(tmp_path / "base", ["the cat sat on the mat"]),
        write(tmp_path / "other", ["a dog ran to the hat"]),
    )


PAIRED_METRICS = list(METRICS)


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
@pytest.mark.parametrize("metric", PAIRED_METRICS)
def test_a_paired_test_on_one_segment_says_it_cannot_support_its_p_values(metric, test, tmp_path, capsys):
    ref, base, other = _one_segment_files(tmp_path)
    code, out, err = run(capsys, ref, "-i", base, other, "-m", metric, test, "--paired-ar-n", "50", "-f", "text")
    assert code == EXIT_OK, err
    assert "(p = " in out  # sacrebleu's table, as sacrebleu prints it
    assert "test ran on 1 segment: one segment cannot support a significance claim" in err
    code, extended, err = run(capsys, ref, "-i", base, other, "-m", metric, test, "--all-pairs", "-f", "text")
    assert code == EXIT_OK, err
    assert "Note: the paired" in extended


def test_a_paired_test_on_two_segments_says_nothing_more(tmp_path, capsys):
    ref = write(tmp_path / "ref", REF)
    code, out, err = run(capsys, ref, "-i", write(tmp_path / "a", HYP), write(tmp_path / "b", REF), "--paired-bs")
    assert code == EXIT_OK
    assert "cannot support" not in err + out


def test_the_api_and_the_report_flag_a_paired_test_on_one_segment(tmp_path, capsys):
    import mtscore

    with pytest.warns(UserWarning, match="one segment cannot support a significance claim"):
        mtscore.paired_test({"a": ["the cat sat"], "b": ["a dog ran"]}, [["the cat sat"]], metrics=["chrf"])
    ref, base, other = _one_segment_files(tmp_path)
    code, out, err = run(capsys, "report", ref, "-i", base, other, "--resamples", "20")
    assert code == EXIT_OK, err
    assert "one segment cannot support a significance claim" in out
