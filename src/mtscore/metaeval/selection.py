"""Which systems a meta-evaluation counts, chosen as mt-metrics-eval chooses them.

The standard reference is never a system (a metric scored against it would find it perfect); other
human translations count only when asked (``include_human``); outlier systems are left out unless
asked; a system whose human scores are all ``None`` (never rated) is left out. For the test sets that
mt-metrics-eval knows, the defaults are its own: the standard reference and gold of its ``meta_info``,
its outliers, and human translations as its official task definitions count them (WMT23: only where
a language pair has several references; WMT22: counted, the default of its ``Task``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from .data import EvalSet


@dataclass(frozen=True)
class Defaults:
    """mt-metrics-eval's settings for a known test set and language pair."""

    std_ref: str
    gold: str  # the human scores at system and segment level
    outliers: frozenset[str] = frozenset()
    include_human: bool = False


_WMT23_MULTI_REF = {"en-he", "he-en"}  # the language pairs whose official tasks count human translations

# mt-metrics-eval's meta_info for the WMT22 and WMT23 language pairs with human scores.
KNOWN: dict[tuple[str, str], Defaults] = {
    ("wmt23", "en-de"): Defaults("refA", "mqm", frozenset({"synthetic_ref"})),
    ("wmt23", "zh-en"): Defaults("refA", "mqm", frozenset({"synthetic_ref"})),
    ("wmt23", "he-en"): Defaults("refB", "mqm", include_human=True),
    **{("wmt23", lp): Defaults("refA", "da-sqm") for lp in ("cs-uk", "de-en", "en-cs", "en-ja", "en-zh", "ja-en")},
    ("wmt22", "en-de"): Defaults("refA", "mqm", frozenset({"M2M100_1.2B-B4"}), include_human=True),
    ("wmt22", "en-ru"): Defaults("refA", "mqm", include_human=True),
    ("wmt22", "zh-en"): Defaults("refA", "mqm", include_human=True),
    ("wmt22", "cs-en"): Defaults("refB", "wmt", include_human=True),
    **{("wmt22", lp): Defaults("refA", "wmt", include_human=True) for lp in ("de-en", "ja-en", "ru-en", "uk-en")},
    ("wmt22", "en-cs"): Defaults("refB", "wmt-appraise", include_human=True),
    **{
        ("wmt22", lp): Defaults("refA", "wmt-appraise", include_human=True)
        for lp in ("cs-uk", "en-hr", "en-ja", "en-liv", "en-uk", "en-zh", "liv-en", "sah-ru", "uk-cs")
    },
}


@dataclass(frozen=True)
class Selection:
    """The settings of a meta-evaluation and the systems they select.

    Attributes:
        gold: The human scores used (``mqm``).
        reference: The standard reference, which metrics use and which is never a system.
        include_human: Whether the other human translations count as systems.
        outliers: The systems treated as outliers.
        include_outliers: Whether the outliers count.
        systems: The systems counted, sorted by name.
        human_systems: The human translations among ``systems``.
        unrated: Systems left out because no segment (or the system) has a human score.
    """

    gold: str
    reference: str
    include_human: bool
    outliers: tuple[str, ...]
    include_outliers: bool
    systems: tuple[str, ...]
    human_systems: tuple[str, ...]
    unrated: tuple[str, ...]


def defaults_for(test_set: str, lp: str) -> Defaults | None:
    """mt-metrics-eval's defaults for ``test_set``/``lp``, or ``None`` for data it does not know."""
    return KNOWN.get((test_set, lp))


def select(
    evs: EvalSet,
    level: str,
    *,
    gold: str | None = None,
    reference: str | None = None,
    include_human: bool | None = None,
    outliers: set[str] | frozenset[str] | None = None,
    include_outliers: bool = False,
) -> Selection:
    """The systems of ``evs`` that a ``level``-level meta-evaluation counts, as mt-metrics-eval's
    ``GetCorrelations`` selects them.

    Args:
        evs: The data.
        level: ``sys`` or ``seg``: which human scores decide whether a system was rated.
        gold: The human scores; by default mt-metrics-eval's for a known test set.
        reference: The standard reference; by default mt-metrics-eval's for a known test set.
        include_human: Count the other human translations; by default as mt-metrics-eval's tasks do.
        outliers: The outlier systems; by default mt-metrics-eval's for a known test set (else none).
        include_outliers: Count the outliers.

    Returns:
        The settings, completed, and the systems selected.

    Raises:
        InputError: a setting that data unknown to mt-metrics-eval needs but that is not given, an
            unknown reference or outlier, or fewer than three systems left.
    """
    known = defaults_for(evs.test_set, evs.lp)
    where = f"{evs.test_set}/{evs.lp}"
    if known is None and (gold is None or reference is None):
        raise InputError(
            f"mt-metrics-eval has no defaults for {where}: name the human scores and the standard "
            f"reference (--gold, --reference; references here: {', '.join(sorted(evs.references))})"
        )
    gold = gold if gold is not None else known.gold  # type: ignore[union-attr]
    reference = reference if reference is not None else known.std_ref  # type: ignore[union-attr]
    if include_human is None:
        include_human = known.include_human if known is not None else False
    if outliers is None:
        outliers = known.outliers if known is not None else frozenset()
    if reference not in evs.references:
        raise InputError(f"{where} has no reference {reference!r} (references: {', '.join(sorted(evs.references))})")
    unknown = set(outliers) - set(evs.outputs)
    if unknown:
        raise InputError(f"outlier systems without output in {where}: {', '.join(sorted(unknown))}")
    scores = evs.gold(gold, level)
    candidates = set(evs.outputs) - {reference}
    if not include_human:
        candidates -= evs.human_systems
    if not include_outliers:
        candidates -= set(outliers)
    rated = {system for system, values in scores.items() if any(value is not None for value in values)}
    systems = tuple(sorted(candidates & rated))
    if len(systems) < 3:
        raise InputError(
            f"{where}: only {len(systems)} system(s) with {gold} scores at {level} level "
            f"({', '.join(systems) or 'none'}); a correlation needs at least 3"
        )
    return Selection(
        gold=gold,
        reference=reference,
        include_human=include_human,
        outliers=tuple(sorted(outliers)),
        include_outliers=include_outliers,
        systems=systems,
        human_systems=tuple(sorted(set(systems) & evs.human_systems)),
        unrated=tuple(sorted(candidates - rated)),
    )
