"""The functional layer: every metric's ``corpus_X``, ``sentence_X`` and ``sentence_Xs`` take the
keywords of its constructor with the constructor's defaults (one place), say them in their docstring,
and give what the metric's methods give."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from helpers import references_taken

import mtscore
from mtscore.metrics import BUILTIN, metric_class, metric_options

HYPS = ["the cat sat on the mat .", "it is raining again today", "a b c d e f"]
REFS = [["the cat is on the mat .", "it rains again today", "a b c d e g"], ["a cat sat on a mat", None, "a b c"]]
# A non-default value of one option per metric, so that the test sees options reach the metric.
OTHER = {
    "bleu": {"smooth": "floor", "smooth_value": 0.2},
    "chrf": {"word_order": 2},
    "ter": {"lowercase": False},
    "google_bleu": {"max_len": 2},
    "wer": {"standardize": True},
    "cer": {},
    "meteor": {"no_synonyms": True},
    "nist": {"variant": "nltk"},
}


def functions(name: str):
    suffix = {"google_bleu": "google_bleu"}.get(name, name)
    return (
        getattr(mtscore, f"corpus_{suffix}"),
        getattr(mtscore, f"sentence_{suffix}"),
        getattr(mtscore, f"sentence_{suffix}s"),
    )


def constructor_keywords(name: str) -> dict[str, inspect.Parameter]:
    parameters = inspect.signature(metric_class(name).__init__).parameters
    return {key: value for key, value in parameters.items() if key not in ("self", "references")}


@pytest.mark.parametrize("name", list(BUILTIN))
def test_wrappers_take_the_constructors_keywords_and_defaults(name):
    keywords = constructor_keywords(name)
    sentence_defaults = metric_class(name).sentence_defaults
    for number, function in enumerate(functions(name)):
        parameters = list(inspect.signature(function).parameters.values())
        assert [p.name for p in parameters[:2]] == (
            ["hypothesis", "references"] if number == 1 else ["hypotheses", "references"]
        )
        renamed = metric_class(name).renamed_options
        assert [p.name for p in parameters[2:]] == [*keywords, *(option.old for option in renamed)]
        for option in renamed:  # the old keyword and its new name are taken by keyword only
            old, new = (next(p for p in parameters if p.name == n) for n in (option.old, option.new))
            assert old.default is None and old.kind is new.kind is inspect.Parameter.KEYWORD_ONLY
            assert f"    {option.old}: deprecated, use ``{option.new}``" in function.__doc__
        for parameter in parameters[2 : 2 + len(keywords)]:
            expected = keywords[parameter.name].default
            if number > 0 and parameter.name in sentence_defaults:
                expected = sentence_defaults[parameter.name]
            assert parameter.default == expected, (function.__name__, parameter.name)
        for keyword in keywords:
            assert f"    {keyword}: " in function.__doc__, (function.__name__, keyword)


@pytest.mark.parametrize("name", list(BUILTIN))
def test_declared_options_are_constructor_keywords_with_the_same_defaults(name):
    keywords = constructor_keywords(name)
    for option in metric_options(name):
        assert option.name in keywords, option.name
        default = keywords[option.name].default
        assert option.default == default or (option.kind is bool and option.default is None and default is False)


@pytest.mark.parametrize("name", list(BUILTIN))
def test_wrappers_give_what_the_metric_gives(name):
    refs = references_taken(name, REFS)
    options = OTHER[name]
    corpus, sentence, sentences = functions(name)
    metric = metric_class(name)(**options)
    assert corpus(HYPS, refs, **options).score == metric.corpus_score(HYPS, refs).score
    segment = metric_class(name)(**metric_class(name).sentence_options({**constructor_defaults(name), **options}))
    assert (
        sentence(HYPS[0], [stream[0] for stream in refs], **options).score
        == segment.sentence_score(HYPS[0], [stream[0] for stream in refs]).score
    )
    scores = sentences(HYPS, refs, **options)
    assert isinstance(scores, np.ndarray) and scores.dtype == np.float64 and scores.shape == (len(HYPS),)
    assert np.array_equal(
        scores, np.asarray(metric_class(name)(**segment_options(name, options)).segment_scores(HYPS, refs))
    )


def constructor_defaults(name: str) -> dict:
    return {key: value.default for key, value in constructor_keywords(name).items()}


def segment_options(name: str, options: dict) -> dict:
    cls = metric_class(name)
    return cls.sentence_options({**constructor_defaults(name), **cls.sentence_defaults, **options})


def test_options_may_be_given_by_position_as_before():
    assert mtscore.corpus_chrf(HYPS, REFS, 6, 2).score == mtscore.corpus_chrf(HYPS, REFS, word_order=2).score
    with pytest.raises(TypeError):
        mtscore.corpus_chrf(HYPS, REFS, nonsense=1)


def test_sentence_bleu_takes_every_keyword_of_corpus_bleu_and_sentence_bleus_is_an_array():
    assert (
        list(inspect.signature(mtscore.sentence_bleu).parameters)[2:]
        == list(inspect.signature(mtscore.corpus_bleu).parameters)[2:]
    )
    assert list(mtscore.sentence_bleus(HYPS, REFS)) == list(mtscore.sentence_scores(HYPS, REFS).scores)
