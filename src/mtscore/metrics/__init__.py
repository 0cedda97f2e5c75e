"""The metrics, by command-line name: this package's subpackages and those of other packages.

A built-in metric is a subpackage holding its class (a subclass of ``core.metric.Metric``) and an
``options`` module declaring its options and title (light: no NumPy), so the command line, the
report and the docs read them without loading the metric. Adding one is its subpackage and one line
in ``BUILTIN``; another name for it is one line in ``ALIASES``. A metric of another package is one
entry point in the group ``mtscore.metrics`` (``metrics.plugins``), whose class declares its
``options`` and ``title`` itself. ``METRICS`` lists both, built-ins first; every function here takes
any of their names. May import ``core``, ``engine``, ``tokenizers``, ``files`` and the leaf modules;
never ``significance``, ``report`` or ``cli``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..core.options import Option, RenamedOption

# Command-line name (= subpackage) -> the metric's class, imported on first use.
BUILTIN = {
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


class Registry(Mapping[str, str]):
    """Command-line name -> ``"module:Class"`` of every metric: the built-ins, then the metrics that
    installed packages register (read once, on first use; a plugin cannot take a built-in's name)."""

    def __init__(self) -> None:
        self._targets: dict[str, str] | None = None

    def _table(self) -> dict[str, str]:
        if self._targets is None:
            from .plugins import entry_points

            targets = {name: f"{__name__}.{name}:{cls}" for name, cls in BUILTIN.items()}
            for name, target in entry_points().items():
                if name not in targets and name not in ALIASES:
                    targets[name] = target.split()[0]  # "module:Class [extra]": the extra is pip's business
            self._targets = targets
        return self._targets

    def __getitem__(self, name: str) -> str:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def refresh(self) -> None:
        """Read the installed packages' entry points again (after installing a plugin in this process)."""
        self._targets = None
        _classes.clear()

    def is_builtin(self, name: str) -> bool:
        """Whether ``name`` (or an alias) is one of this package's own metrics."""
        return canonical(name) in BUILTIN


METRICS = Registry()
_classes: dict[str, type[Metric]] = {}


def canonical(name: str) -> str:
    """The metric's own name for ``name`` (itself, unless an alias); unknown names are left as given."""
    return ALIASES.get(name, name)


def metric_class(name: str) -> type[Metric]:
    """The class of the metric called ``name`` (or an alias) on the command line."""
    name = canonical(name)
    if name not in _classes:
        module, _, attribute = METRICS[name].partition(":")
        _classes[name] = getattr(import_module(module), attribute)
    return _classes[name]


def metric_object(metric: Metric | str, options: dict[str, Any]) -> Metric:
    """A metric object: ``metric`` itself, or the metric of that command-line name created with
    ``options`` (which a metric object, having its own, must come without)."""
    from ..errors import InputError

    if isinstance(metric, str):
        return metric_class(metric)(**options)
    if options:
        raise InputError("options go with a metric name; a metric object already has its own")
    return metric


def metric_options(name: str) -> tuple[Option, ...]:
    """The options the metric called ``name`` declares (a built-in's without importing the metric itself)."""
    name = canonical(name)
    if name in BUILTIN:
        return import_module(f".{name}.options", __name__).OPTIONS
    return tuple(metric_class(name).options)


def metric_renamed_options(name: str) -> tuple[RenamedOption, ...]:
    """The keywords the metric called ``name`` took before its options had their present names (a
    built-in's ``RENAMED``, without importing the metric itself), taken for one release with a warning."""
    name = canonical(name)
    if name in BUILTIN:
        return getattr(import_module(f".{name}.options", __name__), "RENAMED", ())
    return tuple(metric_class(name).renamed_options)


def metric_title(name: str) -> str:
    """How the metric called ``name`` is named in the command line's help (``chrF``, ``TER``)."""
    name = canonical(name)
    if name in BUILTIN:
        return import_module(f".{name}.options", __name__).TITLE
    return metric_class(name).title or name
