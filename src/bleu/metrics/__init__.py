"""The metrics, by command-line name: each a subpackage whose class subclasses ``core.Metric``.

A metric is found here by name and imported on first use, so the command line and ``import bleu``
stay light. Adding a metric is one subpackage and one line in ``METRICS``.
"""

from __future__ import annotations

from importlib import import_module

# Command-line name -> "subpackage:class", imported on first use.
METRICS = {"bleu": "bleu:BLEU", "chrf": "chrf:CHRF", "ter": "ter:TER"}


def metric_class(name: str) -> type:
    """The class of the metric called ``name`` on the command line."""
    package, cls = METRICS[name].split(":")
    return getattr(import_module(f".{package}", __name__), cls)
