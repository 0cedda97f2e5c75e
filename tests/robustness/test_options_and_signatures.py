"""Options and signatures that must not mislead: one table per kind of mistake, each row run over every
metric it applies to.

- The sacrebleu drop-in's signature reports the references it saw last, as sacrebleu 2.6.0's does
  (the oracle here is sacrebleu itself), and refuses before it has seen any.
- Lines are read as sacrebleu's command line reads them: without trailing whitespace (``str.rstrip``),
  which chrF with ``--chrf-whitespace`` would otherwise count; sacrebleu's command line is the oracle,
  on every way lines reach the command (files, ``-nr``, standard input, pasted systems, test sets aside).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import sacrebleu as theirs
import sacrebleu.significance as their_significance
from helpers import as_sacrebleu_version, run, sacrebleu_cli, write

import mtscore.sacrebleu as ours
import mtscore.sacrebleu.significance as our_significance
from mtscore import BleuInputError

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
    known; so does the drop-in (``BleuInputError`` is a ``ValueError``), saying what to do."""
    with pytest.raises(ValueError):
        getattr(theirs, name)().get_signature()
    with pytest.raises(BleuInputError, match="number of references is unknown"):
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
