"""The functional layer, written once: ``corpus_X``, ``sentence_X`` and ``sentence_Xs`` of every metric,
made from the metric's class.

Each function takes the hypotheses and references, then the keywords of the metric's constructor
with the constructor's own defaults (the one place a default is written), creates the metric and
calls ``corpus_score``, ``sentence_score`` or ``sentence_scores``. Its signature, as ``inspect`` and
the API docs show it, and its docstring (a parameter section from the metric's ``Option``
declarations) are made here too. A metric whose single segments take other defaults (BLEU's
effective order) declares them in ``Metric.sentence_defaults`` and ``Metric.sentence_options``.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from .metric import Metric
from .score import SacrebleuFormat

ScoreT = TypeVar("ScoreT", bound=SacrebleuFormat)

_TEXT = inspect.Parameter.POSITIONAL_OR_KEYWORD
_BY_NAME = inspect.Parameter.KEYWORD_ONLY

# What each function's first two parameters are, by name (a sentence function's references are one segment's).
_LEADING = {
    "hypotheses": "The system's outputs, one str per segment.",
    "hypothesis": "The system's output for one segment (a str).",
    "references": "Reference streams, each a list as long as ``hypotheses`` (``None``: a missing reference).",
    "segment references": "The segment's references, a list of str (``None``: missing).",
}


def metric_keywords(metric: type[Metric[Any, Any]]) -> list[inspect.Parameter]:
    """The keywords of ``metric``'s constructor (its options), with their defaults and annotations, then
    the keywords it took before (``Metric.renamed_options``, default ``None``: not given).

    An option that has a renamed keyword, and the renamed keywords, are keyword-only and last: a value
    given by position in the old keyword's place is refused instead of being read with the new meaning
    (TER's ``case_sensitive`` stood fourth, and True there means the opposite of ``lowercase=True``)."""
    parameters = list(inspect.signature(metric.__init__).parameters.values())[1:]  # self
    keywords = [
        parameter
        for parameter in parameters
        if parameter.name != "references" and parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    renamed = {option.new for option in metric.renamed_options}
    positional = [keyword.replace(kind=_TEXT) for keyword in keywords if keyword.name not in renamed]
    by_name = [keyword.replace(kind=_BY_NAME) for keyword in keywords if keyword.name in renamed]
    old = [
        inspect.Parameter(option.old, _BY_NAME, default=None, annotation="bool | None")
        for option in metric.renamed_options
    ]
    return [*positional, *by_name, *old]


def _creator(metric: type[Metric[Any, Any]], keywords: list[inspect.Parameter]) -> Callable[..., Metric[Any, Any]]:
    """What creates the metric from a function's keywords: the class itself, or for a metric with renamed
    keywords a function that leaves out an option at its default when its old keyword is given (the old
    keyword then says the value; one given at another value than the old one's is refused by the class)."""
    renamed = metric.renamed_options
    if not renamed:
        return metric
    defaults = {keyword.name: keyword.default for keyword in keywords}

    def create(**options: Any) -> Metric[Any, Any]:
        for option in renamed:
            if options.get(option.old) is not None and options.get(option.new) == defaults.get(option.new):
                del options[option.new]
        return metric(**options)

    return create


def _function(
    metric: type[Metric[Any, Any]],
    name: str,
    leading: list[inspect.Parameter],
    call: Callable[[Metric[Any, Any], Any, Any], Any],
    summary: str,
    returns: str,
    sentence: bool,
) -> Callable[..., Any]:
    keywords = metric_keywords(metric)
    if sentence:
        keywords = [
            keyword.replace(default=metric.sentence_defaults[keyword.name])
            if keyword.name in metric.sentence_defaults
            else keyword
            for keyword in keywords
        ]
    signature = inspect.Signature([*leading, *keywords])

    function = _compiled(metric, name, [parameter.name for parameter in leading], keywords, call, sentence)
    function.__name__ = function.__qualname__ = name
    function.__module__ = sys._getframe(2).f_globals.get("__name__", metric.__module__)  # as namedtuple does
    function.__signature__ = signature  # type: ignore[attr-defined]
    function.__doc__ = _docstring(metric, summary, [parameter.name for parameter in leading], keywords, returns)
    return function


def _compiled(
    metric: type[Metric[Any, Any]],
    name: str,
    leading: list[str],
    keywords: list[inspect.Parameter],
    call: Callable[[Metric[Any, Any], Any, Any], Any],
    sentence: bool,
) -> Callable[..., Any]:
    """A function of exactly these parameters (``leading``, then ``keywords`` with their defaults) that
    creates the metric from the keywords (through ``sentence_options`` for single segments) and
    returns ``call(metric, first, second)``. It is compiled from its source, so that Python itself
    binds the arguments (and names a missing or unknown one) without an ``inspect`` step per call."""
    namespace: dict[str, Any] = {
        "_metric_": _creator(metric, keywords),
        "_call_": call,
        "_sentence_options_": metric.sentence_options,
    }
    parameters = list(leading)
    for number, keyword in enumerate(keywords):
        if keyword.kind is inspect.Parameter.KEYWORD_ONLY and "*" not in parameters:
            parameters.append("*")
        namespace[f"_default_{number}_"] = keyword.default
        parameters.append(f"{keyword.name}=_default_{number}_")
    arguments = ", ".join(f"{keyword.name!r}: {keyword.name}" for keyword in keywords)
    options = f"_sentence_options_({{{arguments}}})" if sentence else f"{{{arguments}}}"
    source = (
        f"def {name}({', '.join(parameters)}):\n    return _call_(_metric_(**{options}), {leading[0]}, {leading[1]})\n"
    )
    exec(compile(source, f"<mtscore.core.functional: {name}>", "exec"), namespace)
    return namespace[name]


def _docstring(
    metric: type[Metric[Any, Any]], summary: str, leading: list[str], keywords: list[inspect.Parameter], returns: str
) -> str:
    helps = {option.name: option.help for option in metric.options}
    helps |= {option.old: option.help() for option in metric.renamed_options}
    lines = [summary, "", "Args:"]
    for name in leading:
        key = "segment references" if name == "references" and "hypothesis" in leading else name
        lines.append(f"    {name}: {_LEADING[key]}")
    for keyword in keywords:
        meaning = helps.get(keyword.name, "see the metric's class")
        lines.append(f"    {keyword.name}: {meaning}.")
    lines += ["", "Returns:", f"    {returns}"]
    return "\n".join(lines)


def corpus_function(metric: type[Metric[Any, ScoreT]], name: str) -> Callable[..., ScoreT]:
    """``corpus_X``: the corpus score of hypotheses against reference streams."""
    return _function(
        metric,
        name,
        [inspect.Parameter("hypotheses", _TEXT), inspect.Parameter("references", _TEXT)],
        lambda created, hypotheses, references: created.corpus_score(hypotheses, references),
        metric.corpus_summary or f"Corpus {metric.title_for_docs()} of ``hypotheses`` against reference streams.",
        "The corpus result: its ``score``, statistics and ``signature``.",
        sentence=False,
    )


def sentence_function(metric: type[Metric[Any, ScoreT]], name: str) -> Callable[..., ScoreT]:
    """``sentence_X``: the score of one segment against its references."""
    return _function(
        metric,
        name,
        [inspect.Parameter("hypothesis", _TEXT), inspect.Parameter("references", _TEXT)],
        lambda created, hypothesis, references: created.sentence_score(hypothesis, references),
        metric.sentence_summary or f"{metric.title_for_docs()} of one segment against its references.",
        "The segment's result, of the same kind as the corpus result.",
        sentence=True,
    )


def sentences_function(metric: type[Metric[Any, Any]], name: str) -> Callable[..., Any]:
    """``sentence_Xs``: every segment's own score at once, as a float64 array."""
    return _function(
        metric,
        name,
        [inspect.Parameter("hypotheses", _TEXT), inspect.Parameter("references", _TEXT)],
        lambda created, hypotheses, references: created.segment_scores(hypotheses, references),
        metric.sentences_summary
        or f"Every segment's own {metric.title_for_docs()} at once (references as for the corpus score).",
        "A float64 array, one score per segment.",
        sentence=True,
    )
