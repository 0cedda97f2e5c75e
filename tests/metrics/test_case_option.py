"""TER's and NIST's case option is ``lowercase``, as every other metric's: True by default (sacrebleu's TER
and mteval lowercase unless told otherwise), False keeping case. The keyword they took before,
``case_sensitive``, still works for one release: it warns, gives the same scores as its ``lowercase``
counterpart, and is refused when it contradicts a ``lowercase`` given with it. The command-line flags
(``--ter-case-sensitive``, ``--nist-case-sensitive``) and the sacrebleu drop-in's ``case_sensitive`` are
the reference tools' own spellings and do not warn. Shards that stored ``case_sensitive`` still merge."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from helpers import run, write

import mtscore
from mtscore import InputError
from mtscore import sacrebleu as drop_in
from mtscore.cli import EXIT_OK
from mtscore.cli.shards import _digest
from mtscore.metrics import metric_class, metric_options, metric_renamed_options
from mtscore.metrics.nist.metric import NIST

HYPOTHESES = ["The Cat sat on the Mat", "A dog BARKED at the moon", "one Two three"]
REFERENCES = [["the cat sat on the mat", "a dog barked at the Moon", "One two three"]]
CASED = ("ter", "nist")
WRAPPERS = {"ter": (mtscore.corpus_ter, mtscore.sentence_ters), "nist": (mtscore.corpus_nist, mtscore.sentence_nists)}


@pytest.mark.parametrize("name", CASED)
def test_the_case_option_is_lowercase_on_by_default_and_its_flag_keeps_case(name):
    option = next(option for option in metric_options(name) if option.name == "lowercase")
    assert option.kind is bool and option.default is True
    assert option.flags == (f"--{name}-case-sensitive",)
    assert option.switch_value(False) is True and option.switch_value(True) is False
    assert metric_class(name)().lowercase is True
    assert not any(option.name == "case_sensitive" for option in metric_options(name))


@pytest.mark.parametrize("name", CASED)
def test_lowercase_false_keeps_case_in_scores_and_signature(name):
    lowered = metric_class(name)(REFERENCES).corpus_score(HYPOTHESES)
    cased = metric_class(name)(REFERENCES, lowercase=False).corpus_score(HYPOTHESES)
    assert lowered.signature.info["case"] == "lc" and cased.signature.info["case"] == "mixed"
    assert cased.score != lowered.score  # the hypotheses differ from their references only in case


def test_ter_lowercase_agrees_with_sacrebleus_case_sensitive():
    for case_sensitive in (False, True):
        theirs = sacrebleu.metrics.TER(case_sensitive=case_sensitive).corpus_score(HYPOTHESES, REFERENCES)
        ours = mtscore.corpus_ter(HYPOTHESES, REFERENCES, lowercase=not case_sensitive)
        assert (ours.score, ours.num_edits, ours.ref_length) == pytest.approx(
            (theirs.score, theirs.num_edits, theirs.ref_length), abs=1e-9
        )


@pytest.mark.parametrize("name", CASED)
@pytest.mark.parametrize("case_sensitive", [False, True])
def test_the_old_keyword_warns_and_scores_as_its_lowercase_counterpart(name, case_sensitive):
    expected = metric_class(name)(REFERENCES, lowercase=not case_sensitive).corpus_score(HYPOTHESES)
    with pytest.warns(DeprecationWarning, match=f"case_sensitive={case_sensitive} is lowercase={not case_sensitive}"):
        metric = metric_class(name)(REFERENCES, case_sensitive=case_sensitive)
    assert metric.lowercase is (not case_sensitive)
    result = metric.corpus_score(HYPOTHESES)
    assert result.score == expected.score and str(result.signature) == str(expected.signature)
    corpus, sentences = WRAPPERS[name]
    with pytest.warns(DeprecationWarning, match="is now"):
        assert corpus(HYPOTHESES, REFERENCES, case_sensitive=case_sensitive).score == expected.score
    with pytest.warns(DeprecationWarning, match="is now"):
        old = sentences(HYPOTHESES, REFERENCES, case_sensitive=case_sensitive)
    assert np.array_equal(old, sentences(HYPOTHESES, REFERENCES, lowercase=not case_sensitive))


@pytest.mark.parametrize("name", CASED)
def test_the_old_keyword_agreeing_with_lowercase_is_taken(name):
    with pytest.warns(DeprecationWarning):
        assert metric_class(name)(case_sensitive=True, lowercase=False).lowercase is False


@pytest.mark.parametrize("name", CASED)
@pytest.mark.parametrize(("case_sensitive", "lowercase"), [(True, True), (False, False)])
def test_the_old_keyword_contradicting_lowercase_is_an_input_error(name, case_sensitive, lowercase):
    with pytest.raises(InputError, match="contradict each other; give only lowercase"):
        metric_class(name)(case_sensitive=case_sensitive, lowercase=lowercase)


@pytest.mark.parametrize("name", CASED)
def test_a_wrapper_given_both_keywords_contradicting_is_an_input_error(name):
    """A wrapper passes every keyword, so only a ``lowercase`` away from its default can be seen to contradict."""
    corpus, _ = WRAPPERS[name]
    with pytest.raises(InputError, match="contradict"):
        corpus(HYPOTHESES, REFERENCES, case_sensitive=False, lowercase=False)


@pytest.mark.parametrize("name", CASED)
def test_the_old_keyword_given_anything_but_a_switch_is_refused_by_name(name):
    with pytest.raises(InputError, match="case_sensitive must be True or False, got 'no'"):
        metric_class(name)(case_sensitive="no")


def test_a_value_by_position_in_the_old_keywords_place_is_refused_not_read_as_lowercase():
    """``lowercase`` is keyword-only: True by position where ``case_sensitive`` stood means the opposite."""
    with pytest.raises(TypeError, match="positional"):
        mtscore.corpus_ter(HYPOTHESES, REFERENCES, False, False, False, True)
    with pytest.raises(TypeError, match="positional"):
        mtscore.corpus_nist(HYPOTHESES, REFERENCES, "mteval", True, "13a", 5)


@pytest.mark.parametrize("name", CASED)
def test_tokenize_by_name_takes_the_old_keyword_with_a_warning(name):
    line = "The Cat SAT"
    with pytest.warns(DeprecationWarning):
        old = mtscore.tokenize(line, metric=name, case_sensitive=True)
    assert old == mtscore.tokenize(line, metric=name, lowercase=False) == "The Cat SAT"
    assert mtscore.tokenize(line, metric=name) == "the cat sat"


def test_nists_case_sensitive_attribute_warns_and_is_not_lowercase():
    with pytest.warns(DeprecationWarning, match="NIST.case_sensitive"):
        assert NIST(lowercase=False).case_sensitive is True


def test_sacrebleu_drop_in_takes_case_sensitive_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = drop_in.TER(case_sensitive=True).corpus_score(HYPOTHESES, REFERENCES)
        function = drop_in.corpus_ter(HYPOTHESES, REFERENCES, case_sensitive=True)
    theirs = sacrebleu.metrics.TER(case_sensitive=True).corpus_score(HYPOTHESES, REFERENCES)
    assert ours.score == pytest.approx(theirs.score, abs=1e-9) and function.score == ours.score
    assert "case:mixed" in str(ours.signature)


@pytest.mark.parametrize("name", CASED)
def test_the_command_line_flag_keeps_case_without_a_warning(capsys, tmp_path, name):
    ref = write(tmp_path / "ref", REFERENCES[0])
    hyp = write(tmp_path / "hyp", HYPOTHESES)
    expected = metric_class(name)(REFERENCES, lowercase=False).corpus_score(HYPOTHESES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, out, err = run(capsys, ref, "-i", hyp, "-m", name, f"--{name}-case-sensitive", "-b", "-w", "6")
    assert (code, err) == (EXIT_OK, "")
    assert float(out) == round(expected.score, 6)


def test_the_hint_for_an_unselected_metrics_flag_names_only_a_flag_that_does_the_same(capsys, tmp_path):
    """``-lc`` turns BLEU's ``lowercase`` on, ``--ter-case-sensitive`` turns TER's off: neither hints at the other."""
    ref = write(tmp_path / "ref", REFERENCES[0])
    hyp = write(tmp_path / "hyp", HYPOTHESES)
    code, _, err = run(capsys, ref, "-i", hyp, "-m", "ter", "-lc")
    assert code == EXIT_OK and "applies to bleu" in err and "--ter-case-sensitive" not in err
    code, _, err = run(capsys, ref, "-i", hyp, "-m", "ter", "--nist-case-sensitive")
    assert code == EXIT_OK and "(ter's is --ter-case-sensitive)" in err


def old_shard(path: Path, new_shard: str) -> str:
    """``new_shard`` (written by ``mtscore stats``) with its options stored as mtscore stored them before the
    case option was renamed: ``case_sensitive`` (the opposite of ``lowercase``) in its place, signed again."""
    with np.load(new_shard, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {name: data[name] for name in data.files if name not in ("meta", "digest")}
    meta["options"] = {
        ("case_sensitive" if name == "lowercase" else name): (not value if name == "lowercase" else value)
        for name, value in meta["options"].items()
    }
    meta_text = json.dumps(meta)
    np.savez(path, meta=np.array(meta_text), digest=np.array(_digest(meta_text, arrays)), **arrays)
    return str(path)


@pytest.mark.parametrize("name", CASED)
@pytest.mark.parametrize("flags", [[], ["case-sensitive"]], ids=["lowercased", "case-sensitive"])
def test_shards_that_stored_case_sensitive_merge_with_new_ones(capsys, tmp_path, name, flags):
    options = [f"--{name}-{flag}" for flag in flags]
    parts = []
    for number, (start, end) in enumerate(((0, 2), (2, 3))):
        ref = write(tmp_path / f"ref{number}", REFERENCES[0][start:end])
        hyp = write(tmp_path / f"hyp{number}", HYPOTHESES[start:end])
        shard = str(tmp_path / f"part{number}.npz")
        code, _, err = run(capsys, "stats", ref, "-i", hyp, "-m", name, "--name", "system", "-o", shard, *options)
        assert code == EXIT_OK, err
        parts.append(shard)
    with np.load(parts[0], allow_pickle=False) as data:
        assert json.loads(str(data["meta"]))["options"]["lowercase"] is (not flags)
    parts[0] = old_shard(tmp_path / "old.npz", parts[0])
    code, out, err = run(capsys, "merge", *parts, "-b", "-w", "6")
    assert code == EXIT_OK, err
    expected = metric_class(name)(REFERENCES, lowercase=not flags).corpus_score(HYPOTHESES)
    assert float(out) == round(expected.score, 6)


@pytest.mark.parametrize("name", CASED)
def test_shards_of_opposite_case_are_not_merged_whichever_name_they_stored(capsys, tmp_path, name):
    ref = write(tmp_path / "ref", REFERENCES[0])
    hyp = write(tmp_path / "hyp", HYPOTHESES)
    lowered, cased = str(tmp_path / "lowered.npz"), str(tmp_path / "cased.npz")
    assert run(capsys, "stats", ref, "-i", hyp, "-m", name, "-o", lowered)[0] == EXIT_OK
    assert run(capsys, "stats", ref, "-i", hyp, "-m", name, "-o", cased, f"--{name}-case-sensitive")[0] == EXIT_OK
    code, out, err = run(capsys, "merge", old_shard(tmp_path / "old.npz", lowered), cased)
    assert code == 2 and out == "" and "shards merge only when made the same way" in err


def test_the_renamed_keywords_are_declared_where_the_command_line_reads_them():
    for name in CASED:
        (renamed,) = metric_renamed_options(name)
        assert (renamed.old, renamed.new, renamed.inverted) == ("case_sensitive", "lowercase", True)
        assert metric_class(name).renamed_options == (renamed,)
