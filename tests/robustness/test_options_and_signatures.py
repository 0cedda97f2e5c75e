"""Options and signatures that must not mislead: one table per kind of mistake, each row run over every
metric it applies to.

- The sacrebleu drop-in's signature reports the references it saw last, as sacrebleu 2.6.0's does
  (the oracle here is sacrebleu itself), and refuses before it has seen any.
"""

from __future__ import annotations

import pytest
import sacrebleu as theirs
import sacrebleu.significance as their_significance
from helpers import as_sacrebleu_version

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
