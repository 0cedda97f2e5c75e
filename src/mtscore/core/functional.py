"""The functional layer, written once: ``corpus_X``, ``sentence_X`` and ``sentence_Xs`` of every metric,
made from the metric's class.

Each function takes the hypotheses and references, then the keywords of the metric's constructor
with the constructor's own defaults (the one place a default is written), creates the metric and
calls ``corpus_score``, ``sentence_score`` or ``sentence_scores``. Its signature, as ``inspect`` and
the API docs show it, and its docstring (a parameter section from the metric's ``Option``
declarations) are made here too. A metric whose single segments take other defaults (BLEU's
effective order) declares them in ``Metric.sentence_defaults`` and ``Metric.sentence_options``.

A metric made for a call is kept for the next call of the same function with the same options, in the
thread that made it (a few per function and thread): one call's set-up is then a look-up. It is only
kept when every option value is a plain ``None``, ``bool``, ``int``, ``float`` or ``str`` (an object's
value could change while kept), no renamed keyword is given (its warning is given at every call), and
the call that used it returned: a call that raised drops it. A metric's later calls then reuse what its
first one made (its signature, a METEOR lexicon's stems and synonyms), which no result depends on.
"""

from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .. import tokenizers
from .metric import Metric
from .score import ScoreResult

ScoreT = TypeVar("ScoreT", bound=ScoreResult)

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


# How many metrics each function keeps per thread, one per set of options (the least recently used goes;
# 0: none kept, every call makes its own).
KEPT_PER_THREAD = 8
# The option values a kept metric may be keyed by: values that cannot change while the metric is kept.
_KEY_TYPES = frozenset({type(None), bool, int, float, str})


def _key_types(keywords: list[inspect.Parameter]) -> frozenset[type]:
    """``_KEY_TYPES`` and the types of the keywords' stateless sentinel defaults (BLEU's ``pad_id``'s
    "not given"): objects without state, equal only to themselves."""
    sentinels = {type(keyword.default) for keyword in keywords if _is_sentinel(keyword.default)}
    return _KEY_TYPES | sentinels


def _is_sentinel(value: Any) -> bool:
    """Whether ``value`` holds no state and is equal only to itself (Python's identity hash and equality)."""
    kind: Any = type(value)
    identity: Any = object
    return kind.__hash__ is identity.__hash__ and kind.__eq__ is identity.__eq__ and not getattr(value, "__dict__", 1)


def _reuse_key(options: dict[str, Any], renamed: tuple[str, ...], key_types: frozenset[type]) -> tuple[Any, ...] | None:
    """What identifies the metric ``options`` make, or ``None`` where it must be made afresh: an option
    of another type than ``key_types``, or a renamed keyword given. Each value is keyed with its type
    (``1``, ``1.0`` and ``True`` are equal in Python) and a float by its ``repr`` (``-0.0`` equals ``0.0``)."""
    kinds = tuple(map(type, options.values()))
    if not key_types.issuperset(kinds) or any(options.get(old) is not None for old in renamed):
        return None
    if float in kinds:
        return (*options, *kinds, *(repr(value) for value in options.values()))
    return (*options, *kinds, *options.values())


def kept_scorer(
    create: Callable[..., Metric[Any, Any]],
    call: Callable[[Metric[Any, Any], Any, Any], Any],
    renamed: tuple[str, ...] = (),
    key_types: frozenset[type] = _KEY_TYPES,
) -> Callable[[dict[str, Any], Any, Any], Any]:
    """``call(metric, first, second)`` on the metric ``create(**options)`` makes, kept per thread for later
    calls with the same options (``_reuse_key``); a call that raises drops its metric.

    Args:
        create: Makes the metric from the options (keywords).
        call: Scores with the metric: ``call(metric, first, second)`` (hypotheses and references).
        renamed: Deprecated keywords: a call that gives one makes its own metric (its warning comes each time).
        key_types: The types of the option values a kept metric may be keyed by.

    Returns:
        ``score(options, first, second)``.
    """
    kept = threading.local()

    def score(options: dict[str, Any], first: Any, second: Any) -> Any:
        key = _reuse_key(options, renamed, key_types)
        if key is None:
            return call(create(**options), first, second)
        key = (*key, tokenizers.registrations())  # a tokenizer name registered again: a new metric
        metrics: dict[tuple[Any, ...], Metric[Any, Any]] | None = getattr(kept, "metrics", None)
        if metrics is None:
            metrics = kept.metrics = {}
        metric = metrics.pop(key, None)
        if metric is None:
            metric = create(**options)
        result = call(metric, first, second)  # raising: the metric is not put back
        while metrics and len(metrics) >= KEPT_PER_THREAD:
            del metrics[next(iter(metrics))]  # the least recently used
        if KEPT_PER_THREAD > 0:
            metrics[key] = metric
        return result

    return score


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
    creates the metric from the keywords (through ``sentence_options`` for single segments), or takes
    the one kept from an earlier call with the same options (``_scorer``), and returns
    ``call(metric, first, second)``. It is compiled from its source, so that Python itself
    binds the arguments (and names a missing or unknown one) without an ``inspect`` step per call."""
    renamed = tuple(option.old for option in metric.renamed_options)
    namespace: dict[str, Any] = {
        "_score_": kept_scorer(_creator(metric, keywords), call, renamed, _key_types(keywords)),
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
    source = f"def {name}({', '.join(parameters)}):\n    return _score_({options}, {leading[0]}, {leading[1]})\n"
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
