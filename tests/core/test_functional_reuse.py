"""The functional layer keeps the metric a call made for the next call of the same function with the same
options, in the same thread: every result and signature is what a metric made for the call gives, whatever
the calls before it (other options, other numbers of references, other threads, a call that raised)."""

from __future__ import annotations

import dataclasses
import threading
import warnings

import pytest
from helpers import references_taken
from shared_data import read_lines, references, system_output

import mtscore
from mtscore.core import functional
from mtscore.errors import InputError
from mtscore.metrics import BUILTIN, metric_class

HYPS = ["the cat sat on the mat .", "it is raining again today", "a b c d e f"]
REFS = [["the cat is on the mat .", "it rains again today", "a b c d e g"], ["a cat sat on a mat", None, "a b c"]]
# Two option sets per metric whose calls are interleaved: a kept metric of one must not answer the other.
OPTIONS = {
    "bleu": [{}, {"smooth": "floor", "smooth_value": 0.2, "lowercase": True}],
    "chrf": [{}, {"word_order": 2}],
    "ter": [{}, {"lowercase": False}],
    "google_bleu": [{}, {"max_len": 2}],
    "wer": [{}, {"standardize": True}],
    "cer": [{}, {}],  # CER has no option
    "meteor": [{"no_synonyms": True}, {"no_synonyms": True, "alpha": 0.8}],
    "nist": [{"variant": "nltk"}, {"variant": "nltk", "lowercase": True}],
}


def functions(name: str):
    return (
        getattr(mtscore, f"corpus_{name}"),
        getattr(mtscore, f"sentence_{name}"),
        getattr(mtscore, f"sentence_{name}s"),
    )


def described(result) -> tuple:
    """Everything a result holds, as exact text: each field's ``repr`` and the signature."""
    if not dataclasses.is_dataclass(result):
        return (repr(list(result)),)  # sentence_Xs: an array of floats
    values = tuple(repr(getattr(result, field.name)) for field in dataclasses.fields(result))
    return (*values, str(getattr(result, "signature", "")))


def fresh(name: str, function, hypotheses, refs, options: dict):
    """What ``function`` gives with a metric made for this call alone (none kept)."""
    kept = functional.KEPT_PER_THREAD
    functional.KEPT_PER_THREAD = 0
    try:
        return function(hypotheses, refs, **options)
    finally:
        functional.KEPT_PER_THREAD = kept


def test_the_keyword_check_covers_every_metric():
    assert set(OPTIONS) == set(BUILTIN)


@pytest.mark.parametrize("name", list(BUILTIN))
def test_interleaved_options_and_references_give_what_a_fresh_metric_gives(name):
    corpus, sentence, sentences = functions(name)
    one_ref, two_refs = references_taken(name, REFS[:1]), references_taken(name, REFS)
    calls = []
    for options in OPTIONS[name] * 2:
        for refs in (one_ref, two_refs, one_ref):
            calls.append((corpus, HYPS, refs, options))
            calls.append((sentences, HYPS, refs, options))
            present = [stream[0] for stream in refs]
            calls.append((sentence, HYPS[0], present, options))
    for function, hypotheses, refs, options in calls:
        kept = described(function(hypotheses, refs, **options))
        assert kept == described(fresh(name, function, hypotheses, refs, options)), (function.__name__, options)


def test_a_metric_is_kept_per_function_options_and_thread(monkeypatch):
    used: list[tuple[int, object, bool]] = []  # the metrics themselves: kept alive, their ids are never reused
    original = metric_class("bleu").sentence_score

    def spy(self, hypothesis, refs):
        used.append((threading.get_ident(), self, self.signature().info["case"] == "lc"))
        return original(self, hypothesis, refs)

    monkeypatch.setattr(metric_class("bleu"), "sentence_score", spy)
    for lowercase in (False, True, False, True):
        mtscore.sentence_bleu(HYPS[0], [REFS[0][0]], lowercase=lowercase)
    assert used[0][1] is used[2][1] and used[1][1] is used[3][1] and used[0][1] is not used[1][1]
    assert [row[2] for row in used] == [False, True, False, True]

    results: dict[int, list[float]] = {}

    def score_in_a_thread(number: int) -> None:
        results[number] = [mtscore.sentence_bleu(h, [r]).score for h, r in zip(HYPS, REFS[0], strict=True)]

    threads = [threading.Thread(target=score_in_a_thread, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = [fresh("bleu", mtscore.sentence_bleu, h, [r], {}).score for h, r in zip(HYPS, REFS[0], strict=True)]
    assert all(scores == expected for scores in results.values())
    owners: dict[int, set[int]] = {}
    for thread_id, metric, _ in used[4:]:
        owners.setdefault(id(metric), set()).add(thread_id)
    assert all(len(threads_of_metric) == 1 for threads_of_metric in owners.values())


def test_a_call_that_raises_drops_its_metric(monkeypatch):
    used: list[int] = []
    original = metric_class("chrf").sentence_score

    def spy(self, hypothesis, refs):
        used.append(id(self))
        return original(self, hypothesis, refs)

    monkeypatch.setattr(metric_class("chrf"), "sentence_score", spy)
    mtscore.sentence_chrf(HYPS[0], [REFS[0][0]])
    mtscore.sentence_chrf(HYPS[0], [REFS[0][0]])
    with pytest.raises(InputError):
        mtscore.sentence_chrf(None, [REFS[0][0]])
    first = mtscore.sentence_chrf(HYPS[0], [REFS[0][0]])
    assert used[0] == used[1] == used[2] != used[3]
    assert described(first) == described(fresh("chrf", mtscore.sentence_chrf, HYPS[0], [REFS[0][0]], {}))


def test_equal_option_values_of_other_types_get_metrics_of_their_own():
    results = {}
    for value in (1, 1.0, 0.0, -0.0):
        results[repr(value)] = mtscore.sentence_bleu(HYPS[2], [REFS[0][2]], smooth="floor", smooth_value=value)
    for value in (1, 1.0, 0.0, -0.0):
        alone = fresh("bleu", mtscore.sentence_bleu, HYPS[2], [REFS[0][2]], {"smooth": "floor", "smooth_value": value})
        assert described(results[repr(value)]) == described(alone), value
    with pytest.raises(InputError, match="smoothing value must be a finite number, got True"):
        mtscore.sentence_bleu(HYPS[2], [REFS[0][2]], smooth="floor", smooth_value=True)  # equal to 1, kept above


def test_an_option_that_is_an_object_makes_a_metric_for_every_call(monkeypatch):
    made: list[int] = []
    original = metric_class("meteor").__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(metric_class("meteor"), "__init__", counting)
    no_wordnet = object()
    for _ in range(2):
        with pytest.raises((InputError, TypeError, AttributeError)):
            mtscore.sentence_meteor(HYPS[0], [REFS[0][0]], wordnet=no_wordnet)
    for _ in range(2):
        mtscore.sentence_meteor(HYPS[0], [REFS[0][0]], no_synonyms=True)
    assert len(made) == 3


def test_a_renamed_keyword_warns_at_every_call():
    for _ in range(3):
        with pytest.warns(DeprecationWarning, match="case_sensitive"):
            mtscore.sentence_ter(HYPS[0], [REFS[0][0]], case_sensitive=True)


def test_no_more_than_the_kept_number_of_metrics_per_function_and_thread(monkeypatch):
    monkeypatch.setattr(functional, "KEPT_PER_THREAD", 2)
    for order in (1, 2, 3, 4, 1):
        score = mtscore.sentence_chrf(HYPS[0], [REFS[0][0]], char_order=order).score
        assert score == fresh("chrf", mtscore.sentence_chrf, HYPS[0], [REFS[0][0]], {"char_order": order}).score


@pytest.mark.data
@pytest.mark.parametrize("name", list(BUILTIN))
def test_every_wmt22_de_en_segment_scores_as_a_fresh_metric_with_options_interleaved(name):
    hypotheses = read_lines(system_output("de-en", "Online-A"))
    streams = references_taken(name, [read_lines(path) for path in references("de-en", "all")])
    step = 1 if name in ("bleu", "chrf", "wer", "cer", "google_bleu") else 7
    sentence = getattr(mtscore, f"sentence_{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for index in range(0, len(hypotheses), step):
            options = OPTIONS[name][index % 2]
            refs = [stream[index] for stream in streams][: 1 + index % len(streams)]
            kept = described(sentence(hypotheses[index], refs, **options))
            assert kept == described(fresh(name, sentence, hypotheses[index], refs, options)), index
