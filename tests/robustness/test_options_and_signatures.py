"""Options and signatures that must not mislead: one table per kind of mistake, each row run over every
metric it applies to.

- The sacrebleu drop-in's signature reports the references it saw last, as sacrebleu 2.6.0's does
  (the oracle here is sacrebleu itself), and refuses before it has seen any.
- Lines are read as sacrebleu's command line reads them: without trailing whitespace (``str.rstrip``),
  which chrF with ``--chrf-whitespace`` would otherwise count; sacrebleu's command line is the oracle,
  on every way lines reach the command (files, ``-nr``, standard input, pasted systems, test sets aside).
- Smoothing values outside the range where they give a valid BLEU are refused (exit 1 on the command
  line, ``InputError`` in the API); inside it, the score is sacrebleu's, byte for byte.
- ``pad_id`` must be an integer id or None; messages name what was given (a NumPy array of strings,
  a single metric name given to ``paired_test``).
- An option that does nothing with the others given (it belongs to a metric ``-m`` does not select,
  or acts only with another option) is said on standard error; the output stays sacrebleu's.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import sacrebleu as theirs
import sacrebleu.significance as their_significance
from helpers import as_sacrebleu_version, run, sacrebleu_cli, write

import mtscore.sacrebleu as ours
import mtscore.sacrebleu.significance as our_significance
from mtscore import InputError
from mtscore.metrics import METRICS, metric_options
from mtscore.metrics.bleu import BLEU
from mtscore.metrics.bleu.scoring import SMOOTH_VALUE_RANGES
from mtscore.significance.paired import paired_test

DROP_IN_METRICS = ["BLEU", "CHRF", "TER"]

HYPOTHESES = ["the cat sat on the mat", "a dog barked twice", "x y z"]
STREAM_1 = ["the cat sat on a mat", "the dog barked", "x y"]
STREAM_2 = ["a cat was sitting", "a dog barked twice loudly", "z"]
STREAM_3 = ["the cat", None, "x y z w"]  # a missing reference: the number varies ("var")
STREAM_EMPTY = ["", "", ""]  # an empty line is a reference all the same

# Reference streams of one scoring call: 1, 2 and 3 references, a varying number, and empty lines.
REFERENCE_SETS = {
    "one": [STREAM_1],
    "two": [STREAM_1, STREAM_2],
    "three": [STREAM_1, STREAM_2, STREAM_3],
    "two-with-empty-lines": [STREAM_1, STREAM_EMPTY],
}


def same_signature(mine, oracle) -> None:
    """The two metrics' signatures agree, long and short, but for the tool's version."""
    assert as_sacrebleu_version(str(mine.get_signature())) == str(oracle.get_signature())
    short = as_sacrebleu_version(mine.get_signature().format(short=True))
    assert short == oracle.get_signature().format(short=True)


# Each row: how references reach the metric, as steps of (where, reference set): "init" at creation,
# "call" with corpus_score, "none" a corpus_score that uses the references given at creation,
# "sentence" a sentence_score of the first segment.
SIGNATURE_STEPS = {
    "given at creation": [("init", "two")],
    "given with the call": [("call", "two")],
    "three with the call": [("call", "three")],
    "varying with the call": [("call", "three"), ("call", "one")],
    "empty lines count": [("call", "two-with-empty-lines")],
    "a call overrides creation": [("init", "three"), ("call", "one")],
    "a call without references keeps the last": [("init", "two"), ("call", "one"), ("none", "")],
    "a sentence counts": [("init", "one"), ("sentence", "three")],
}


def apply_steps(metric_class, steps):
    """A metric of ``metric_class`` taken through ``steps``."""
    init = [REFERENCE_SETS[name] for where, name in steps if where == "init"]
    metric = metric_class(references=init[0]) if init else metric_class()
    for where, name in steps:
        if where == "call":
            metric.corpus_score(HYPOTHESES, REFERENCE_SETS[name])
        elif where == "none":
            metric.corpus_score(HYPOTHESES, None)
        elif where == "sentence":
            metric.sentence_score(HYPOTHESES[0], [stream[0] for stream in REFERENCE_SETS[name]])
    return metric


@pytest.mark.parametrize("steps", SIGNATURE_STEPS.values(), ids=SIGNATURE_STEPS.keys())
@pytest.mark.parametrize("name", DROP_IN_METRICS)
def test_drop_in_signature_counts_the_references_last_seen(name, steps):
    """``get_signature()``'s ``nrefs`` is sacrebleu's after the same calls, whether references came
    at creation or with a call."""
    mine, oracle = apply_steps(getattr(ours, name), steps), apply_steps(getattr(theirs, name), steps)
    same_signature(mine, oracle)


@pytest.mark.parametrize("name", DROP_IN_METRICS)
def test_drop_in_signature_before_any_references_is_refused(name):
    """sacrebleu raises ``ValueError`` when asked for a signature before the number of references is
    known; so does the drop-in (``InputError`` is a ``ValueError``), saying what to do."""
    with pytest.raises(ValueError):
        getattr(theirs, name)().get_signature()
    with pytest.raises(InputError, match="number of references is unknown"):
        getattr(ours, name)().get_signature()


@pytest.mark.parametrize("references", ["two", "three"])
@pytest.mark.parametrize("name", DROP_IN_METRICS)
def test_drop_in_paired_test_signature_counts_its_references(name, references):
    """A paired test given references signs with their number, as sacrebleu's ``PairedTest``."""
    systems = [("base", HYPOTHESES), ("other", STREAM_2)]
    streams = REFERENCE_SETS[references]
    mine = our_significance.PairedTest(systems, {name: getattr(ours, name)()}, streams, "bs", 100)
    oracle = their_significance.PairedTest(systems, {name: getattr(theirs, name)()}, streams, "bs", 100)
    (my_signature,) = mine()[0].values()
    (their_signature,) = oracle()[0].values()
    assert as_sacrebleu_version(str(my_signature)) == str(their_signature)


# Lines ending in whitespace of every kind str.rstrip removes: spaces, tabs, a no-break space, an
# ideographic space, a form feed; and one with none.
TRAILING_REFERENCES = ["the cat sat on the mat  ", "a dog barked\t", "hello there world\u00a0", "zz qq\u3000", "x y"]
TRAILING_HYPOTHESES = ["the cat sat on a mat \t", "the dog barked loud   ", "hi world", "zz \u00a0\x0c", "x y "]
# Every sacrebleu metric's options that see whitespace, or ignore it (the others must not change either).
WHITESPACE_COMMANDS = {
    "chrF keeping whitespace": ["-m", "chrf", "--chrf-whitespace"],
    "chrF++ keeping whitespace": ["-m", "chrf", "--chrf-whitespace", "-cw", "2"],
    "chrF": ["-m", "chrf"],
    "BLEU": ["-m", "bleu"],
    "BLEU, character tokens": ["-m", "bleu", "-tok", "char"],
    "TER": ["-m", "ter"],
}


@pytest.mark.parametrize("options", WHITESPACE_COMMANDS.values(), ids=WHITESPACE_COMMANDS.keys())
def test_trailing_whitespace_is_read_as_sacrebleus_command_line_reads_it(capsys, tmp_path, options):
    """Files with trailing whitespace score as sacrebleu's command line scores them (``-w 4``)."""
    reference = write(tmp_path / "ref", TRAILING_REFERENCES)
    hypotheses = write(tmp_path / "hyp", TRAILING_HYPOTHESES)
    argv = [reference, "-i", hypotheses, *options, "-b", "-w", "4"]
    assert run(capsys, *argv)[1] == sacrebleu_cli(*argv)


@pytest.mark.parametrize("options", WHITESPACE_COMMANDS.values(), ids=WHITESPACE_COMMANDS.keys())
def test_trailing_whitespace_of_tab_separated_references(capsys, tmp_path, options):
    """``-nr 2``: the line's trailing whitespace goes, a field's before the tab stays, as in sacrebleu."""
    fields = [line.replace("\t", " ") for line in TRAILING_REFERENCES]  # a tab only between the two fields
    lines = [f"{first} \t{second}" for first, second in zip(fields, reversed(fields), strict=True)]
    reference = write(tmp_path / "refs", lines)
    hypotheses = write(tmp_path / "hyp", TRAILING_HYPOTHESES)
    argv = [reference, "-nr", "2", "-i", hypotheses, *options, "-b", "-w", "4"]
    assert run(capsys, *argv)[1] == sacrebleu_cli(*argv)


def command_output(command: list[str], stdin: str) -> str:
    """Standard output of ``command`` given ``stdin``, in a clean environment but for Python's path."""
    environment = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    result = subprocess.run(command, input=stdin, capture_output=True, text=True, check=True, env=environment)
    return result.stdout


@pytest.mark.parametrize("pasted", [False, True], ids=["one system", "pasted systems"])
@pytest.mark.parametrize("options", WHITESPACE_COMMANDS.values(), ids=WHITESPACE_COMMANDS.keys())
def test_trailing_whitespace_on_standard_input(tmp_path, options, pasted):
    """Hypotheses on standard input (streamed block by block), or systems pasted side by side with
    whitespace before the tabs, as sacrebleu reads them."""
    reference = write(tmp_path / "ref", TRAILING_REFERENCES)
    fields = [line.replace("\t", " ") for line in TRAILING_HYPOTHESES]  # a tab only between systems
    lines = [f"{field}\t{field} " for field in fields] if pasted else TRAILING_HYPOTHESES
    stdin = "".join(line + "\n" for line in lines)
    argv = [reference, *options, "-w", "4", "-f", "text"]
    mine = command_output([sys.executable, "-m", "mtscore", *argv], stdin)
    theirs_ = command_output([sys.executable, "-m", "sacrebleu", *argv], stdin)
    assert as_sacrebleu_version(mine) == theirs_


# A hypothesis with matches of every order but the fourth (floor's and add-k's values then show).
SMOOTHING_REFERENCES = ["the cat sat on the mat", "a dog barked at the man", "hello there world"]
SMOOTHING_HYPOTHESES = ["the cat sat on a mat", "the dog barked at a man", "hi world there"]
# Each row: method, value, whether it is refused. Edges included: both ends of each range.
SMOOTH_VALUES = [
    ("floor", -1.0, True),
    ("floor", -1e-9, True),
    ("floor", 0.0, False),
    ("floor", 0.1, False),
    ("floor", 1.0, False),
    ("floor", 1.5, True),
    ("floor", 1e300, True),
    ("add-k", -1.0, True),
    ("add-k", -0.5, True),
    ("add-k", 0.0, False),
    ("add-k", 2.0, False),
    ("add-k", 1e30, False),
    ("add-k", 1e36, False),
    ("add-k", 1e37, True),
    ("add-k", 1e308, True),
]


def test_smooth_value_ranges_cover_every_method_with_a_value():
    """Every sacrebleu smoothing method that takes a value has a range (none and exp take none)."""
    assert set(SMOOTH_VALUE_RANGES) == {"floor", "add-k"} == {row[0] for row in SMOOTH_VALUES}


@pytest.mark.parametrize("method, value, refused", SMOOTH_VALUES)
def test_smoothing_value_in_range_is_sacrebleus_and_out_of_range_is_refused(capsys, tmp_path, method, value, refused):
    """Out of range: exit 1 naming -sv, the method and the range, and ``InputError`` in the API.
    In range: sacrebleu's command line's output (with ``-ci``: its resampled interval too)."""
    reference = write(tmp_path / "ref", SMOOTHING_REFERENCES)
    hypotheses = write(tmp_path / "hyp", SMOOTHING_HYPOTHESES)
    argv = [reference, "-i", hypotheses, "-s", method, f"-sv={value!r}", "-f", "text", "-w", "4"]
    code, out, err = run(capsys, *argv)
    if refused:
        assert code == 1 and not out
        assert "-sv" in err and method in err and "must be from" in err and "Traceback" not in err
        with pytest.raises(InputError, match="smoothing value"):
            BLEU(smooth=method, smooth_value=value)
        with pytest.raises(InputError, match="smoothing value"):
            ours.BLEU(smooth_method=method, smooth_value=value)
        return
    assert code == 0
    assert as_sacrebleu_version(out) == sacrebleu_cli(*argv)
    with_interval = [*argv, "-ci", "-cin", "20"]
    assert as_sacrebleu_version(run(capsys, *with_interval)[1]) == sacrebleu_cli(*with_interval)


PAD_IDS = {
    "integer": (0, False),
    "NumPy integer": (np.int64(3), False),
    "None": (None, False),
    "str": ("0", True),
    "float": (0.5, True),
    "integral float": (0.0, True),
    "bool": (True, True),
    "NumPy bool": (np.bool_(False), True),
}


@pytest.mark.parametrize("pad_id, refused", PAD_IDS.values(), ids=PAD_IDS.keys())
def test_pad_id_must_be_an_integer_or_none(pad_id, refused):
    """A ``pad_id`` that is not an integer id would match no id and pad nothing: refused by name."""
    hypotheses = np.array([[5, 6, 7, 0], [8, 9, 0, 0]])
    references = [np.array([[5, 6, 7, 0], [8, 9, 1, 0]])]
    if refused:
        with pytest.raises(InputError, match="pad_id must be an integer"):
            BLEU(pad_id=pad_id)
        return
    assert BLEU(pad_id=pad_id).corpus_score(hypotheses, references).score >= 0


TEXT_ARRAYS = {
    "strings": np.array(["the cat sat", "a dog"]),
    "objects": np.array(["the cat sat", "a dog"], dtype=object),
}


@pytest.mark.parametrize("where", ["hypotheses", "references"])
@pytest.mark.parametrize("array", TEXT_ARRAYS.values(), ids=TEXT_ARRAYS.keys())
def test_a_numpy_array_of_strings_is_called_text(array, where):
    """A 1-D array of strings is text in an array, not "a 2-D array of token ids"."""
    hypotheses, references = (array, [["the cat sat", "a dog"]]) if where == "hypotheses" else (["x", "y"], [array])
    with pytest.raises(InputError, match=r"NumPy array of .* items, not token ids") as error:
        BLEU().corpus_score(hypotheses, references)
    assert "2-D array of token ids (segments" not in str(error.value)


PAIRED_METRICS = {
    "one name": ("bleu", ["BLEU"]),
    "one alias": ("gleu", ["Google-BLEU"]),
    "names": (["bleu", "chrf"], ["BLEU", "chrF2"]),
}


@pytest.mark.parametrize("metrics, names", PAIRED_METRICS.values(), ids=PAIRED_METRICS.keys())
def test_paired_test_takes_one_metric_name_or_several(metrics, names):
    """A single name is one metric, not its letters ("unknown metric 'b'")."""
    systems = {"base": HYPOTHESES, "other": STREAM_2}
    assert paired_test(systems, [STREAM_1], metrics, n_samples=10).metrics == names


@pytest.mark.parametrize("metrics", [[], 5, ["bleu", 3]], ids=["empty", "a number", "a number in the list"])
def test_paired_test_refuses_what_is_no_metric(metrics):
    with pytest.raises(InputError, match="metric"):
        paired_test({"base": HYPOTHESES, "other": STREAM_2}, [STREAM_1], metrics, n_samples=10)


def option_argv(option) -> list[str]:
    """The command-line arguments that give ``option`` a valid value other than its default."""
    flag = option.flags[-1]
    if option.kind is bool:
        return [flag]
    choices = option.choice_list()
    if choices:
        return [flag, str(next(choice for choice in choices if choice != option.default))]
    if option.nargs == "+":  # BLEU's weights: one per order
        return [flag, "0.25", "0.25", "0.25", "0.25"]
    return [flag, {int: "3", float: "0.3", str: "/nonexistent"}[option.kind]]


def unused_metric_options():
    """(option's metric, option, a selected metric) for every option of every metric, with a
    selected metric other than its own (BLEU's options with chrF, every other's with BLEU)."""
    rows = []
    for metric in METRICS:
        selected = "chrf" if metric == "bleu" else "bleu"
        rows += [pytest.param(metric, option, selected, id=f"{option.flags[-1]}") for option in metric_options(metric)]
    return rows


@pytest.mark.parametrize("metric, option, selected", unused_metric_options())
def test_an_option_of_a_metric_not_selected_is_said_to_be_ignored(capsys, tmp_path, metric, option, selected):
    """Every metric's every option, given while -m selects another: a warning naming the option and
    its metric on standard error, and the output of the command without it."""
    reference = write(tmp_path / "ref", SMOOTHING_REFERENCES)
    hypotheses = write(tmp_path / "hyp", SMOOTHING_HYPOTHESES)
    plain = [reference, "-i", hypotheses, "-m", selected, "-b"]
    code, out, err = run(capsys, *plain, *option_argv(option))
    assert code == 0, err
    assert out == run(capsys, *plain)[1]
    assert f"warning: {'/'.join(option.flags)} applies to {metric}, which -m does not select" in err


def test_lowercase_of_bleu_with_chrf_names_chrfs_own():
    """``-m chrf -lc``: chrF stays case-sensitive; the warning names chrF's own option."""
    from mtscore.cli.score import unused_option_warnings

    warnings = unused_option_warnings({"lowercase"}, None, ["chrf"])
    assert warnings == [
        "-lc/--lowercase applies to bleu, which -m does not select: it is ignored (chrf's is --chrf-lowercase)"
    ]


# Options acting only with another: the arguments, and the option named in the warning.
CONDITIONAL = {
    "-cin without -ci": (["-cin", "20"], "--confidence-n"),
    "-pbsn without -pbs": (["-pbsn", "20"], "--paired-bs-n"),
    "-parn without -par": (["-parn", "20"], "--paired-ar-n"),
    "--seed without resampling": (["--seed", "7"], "--seed"),
    "-sv with exp": (["-s", "exp", "-sv", "0.3"], "--smooth-value"),
    "-sv with none": (["-s", "none", "-sv", "0.3"], "--smooth-value"),
    "-sv with the default (exp)": (["-sv", "0.3"], "--smooth-value"),
}


@pytest.mark.parametrize("extra, flag", CONDITIONAL.values(), ids=CONDITIONAL.keys())
def test_an_option_that_acts_only_with_another_is_said_to_be_ignored(capsys, tmp_path, extra, flag):
    """sacrebleu accepts these silently: the output stays sacrebleu's, standard error says why the
    option does nothing; ``-q`` keeps it quiet."""
    reference = write(tmp_path / "ref", SMOOTHING_REFERENCES)
    hypotheses = write(tmp_path / "hyp", SMOOTHING_HYPOTHESES)
    argv = [reference, "-i", hypotheses, *extra, "-f", "text"]
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert f"warning: {flag} acts only" in err
    if "--seed" not in extra:  # sacrebleu has no --seed
        assert as_sacrebleu_version(out) == sacrebleu_cli(*argv)
    assert run(capsys, *argv, "-q")[2] == ""


ACTING = {
    "-cin with -ci": ["-ci", "-cin", "20"],
    "-sv with floor": ["-s", "floor", "-sv", "0.3"],
    "-sv with add-k": ["-s", "add-k", "-sv", "2"],
    "chrF's option with chrF": ["-m", "chrf", "--chrf-whitespace"],
    "the defaults": [],
}


@pytest.mark.parametrize("extra", ACTING.values(), ids=ACTING.keys())
def test_an_option_that_acts_gives_no_warning(capsys, tmp_path, extra):
    reference = write(tmp_path / "ref", SMOOTHING_REFERENCES)
    hypotheses = write(tmp_path / "hyp", SMOOTHING_HYPOTHESES)
    code, _, err = run(capsys, reference, "-i", hypotheses, *extra)
    assert code == 0 and "warning" not in err
