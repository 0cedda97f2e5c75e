"""The metrics, by command-line name: each a subpackage whose class subclasses ``core.metric.Metric``.

A metric's package holds its class and an ``options`` module declaring its options and title
(light: no NumPy), so the command line, the report and the docs read them without loading the metric.
Adding a metric is one subpackage and one line in ``METRICS``; another name for it is one line in
``ALIASES``, which every function here resolves. May import ``core``, ``engine``,
``tokenizers``, ``files`` and the leaf modules; never ``significance``, ``report`` or ``cli``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..core.options import Option

# Command-line name (= subpackage) -> the metric's class, imported on first use.
METRICS = {
    "bleu": "BLEU",
    "chrf": "CHRF",
    "ter": "TER",
    "google_bleu": "GoogleBLEU",
    "wer": "WER",
    "cer": "CER",
    "meteor": "METEOR",
    "nist": "NIST",
}
# Other command-line names -> the metric's own name (a key of ``METRICS``).
ALIASES = {"gleu": "google_bleu"}


def canonical(name: str) -> str:
    """The metric's own name for ``name`` (itself, unless an alias); unknown names are left as given."""
    return ALIASES.get(name, name)


def metric_class(name: str) -> type[Metric]:
    """The class of the metric called ``name`` (or an alias) on the command line."""
    name = canonical(name)
    return getattr(import_module(f".{name}", __name__), METRICS[name])


def metric_object(metric: Metric | str, options: dict[str, Any]) -> Metric:
    """A metric object: ``metric`` itself, or the metric of that command-line name created with
    ``options`` (which a metric object, having its own, must come without)."""
    from ..errors import BleuInputError

    if isinstance(metric, str):
        return metric_class(metric)(**options)
    if options:
        raise BleuInputError("options go with a metric name; a metric object already has its own")
    return metric


def metric_options(name: str) -> tuple[Option, ...]:
    """The options the metric called ``name`` declares, without importing the metric itself."""
    return import_module(f".{canonical(name)}.options", __name__).OPTIONS


def metric_title(name: str) -> str:
    """How the metric called ``name`` is named in the command line's help (``chrF``, ``TER``)."""
    return import_module(f".{canonical(name)}.options", __name__).TITLE
