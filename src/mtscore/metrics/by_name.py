"""Any metric's explanation of a segment and tokens of a line, by the metric's command-line name.

A metric explains when its class gives its own ``explain`` (BLEU: the n-gram tables; WER and CER:
the alignments) and tokenizes when it has ``tokens(line)`` (its own tokenisation of one line). The
others are refused with an ``InputError`` that names the metrics that do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.inputs import check_sentence
from ..core.metric import Metric
from ..errors import InputError
from . import METRICS, canonical, metric_class, metric_options, metric_renamed_options


def explaining_metrics() -> list[str]:
    """The registry's metrics that explain a segment (their class gives its own ``explain``)."""
    return [name for name in METRICS if metric_class(name).explain is not Metric.explain]


def tokenizing_metrics() -> list[str]:
    """The registry's metrics that tokenize a line (their class has ``tokens(line)``)."""
    return [name for name in METRICS if callable(getattr(metric_class(name), "tokens", None))]


def check_known(name: str) -> None:
    """Raise ``InputError`` unless ``name`` (or an alias) is a registered metric."""
    if not isinstance(name, str) or canonical(name) not in METRICS:
        raise InputError(f"unknown metric {name!r}; choose from {', '.join(METRICS)}")


def configured(name: str, options: Mapping[str, Any]) -> Metric:
    """Metric ``name`` (or an alias) created with ``options``, each checked against its declared options
    (a renamed keyword is taken too, with the constructor's warning)."""
    check_known(name)
    declared = [option.name for option in metric_options(name)]
    unknown = sorted(set(options) - set(declared) - {option.old for option in metric_renamed_options(name)})
    if unknown:
        has = f"its options are {', '.join(declared)}" if declared else "it has no options"
        raise InputError(f"{name} has no option {', '.join(unknown)}; {has}")
    return metric_class(name)(**options)


def explain(name: str, hypothesis: str, references: Sequence[str | None], options: Mapping[str, Any]) -> Any:
    """How metric ``name`` scores one segment against its references: an object whose ``str`` is the text.

    Args:
        name: The metric's command-line name (``"wer"``).
        hypothesis: The segment's output (a str).
        references: The segment's references, a list of str (``None``: missing).
        options: The metric's keywords.

    Returns:
        The metric's explanation (WER and CER: the alignment of each reference).

    Raises:
        InputError: the metric does not explain, or an option is not one of the metric's.
    """
    check_known(name)
    check_sentence(hypothesis, references)
    explaining = explaining_metrics()
    if canonical(name) not in explaining:
        raise InputError(f"{name} has no explanation; the metrics that explain are {', '.join(explaining)}")
    return configured(name, options).explain([hypothesis], [[reference] for reference in references])


def tokenize(name: str, line: str, options: Mapping[str, Any]) -> str:
    """``line`` as metric ``name`` sees it: its tokens joined by single spaces.

    Args:
        name: The metric's command-line name (``"ter"``).
        line: One line (a str).
        options: The metric's keywords.

    Returns:
        The line's tokens, joined by single spaces.

    Raises:
        InputError: the metric has no tokenisation of a line, ``line`` is not a str, or an option is
            not one of the metric's.
    """
    if not isinstance(line, str):
        raise InputError(f"tokenize takes one line (a str), got {type(line).__name__}")
    check_known(name)
    tokenizing = tokenizing_metrics()
    if canonical(name) not in tokenizing:
        raise InputError(f"{name} has no tokenisation of a line; the metrics that tokenize are {', '.join(tokenizing)}")
    return " ".join(configured(name, options).tokens(line))  # type: ignore[attr-defined]
