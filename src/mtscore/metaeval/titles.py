"""How the reports (text, HTML) head a ranking: the statistic, its level, grouping and Kendall variant in words."""

from __future__ import annotations

STATISTIC_TITLES = {
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall tau-b",
    "accuracy": "pairwise accuracy",
    "KendallWithTiesOpt": "acc-t (KendallWithTiesOpt, by item)",
    "KendallVariants": "Kendall (KendallVariants)",
    "pce": "soft pairwise accuracy (pce)",
}
GROUPING_TITLES = {"sys": "averaged over systems", "item": "averaged over segments"}
LEVEL_TITLES = {"sys": "system level", "seg": "segment level"}


def statistic_title(level: str, statistic: str, avg_by: str, variant: str | None) -> str:
    """How a report heads a ranking, e.g. ``segment level, Kendall tau-c, averaged over segments``.

    Args:
        level: ``sys`` or ``seg``.
        statistic: mt-metrics-eval's ``corr_fcn`` name.
        avg_by: ``none``, ``sys`` or ``item``.
        variant: The Kendall variant, or None.

    Returns:
        The heading.
    """
    if statistic == "KendallWithTiesOpt" or (avg_by == "none" and variant is None):
        return f"{LEVEL_TITLES[level]}, {STATISTIC_TITLES[statistic]}"
    name = STATISTIC_TITLES[statistic]
    if variant is not None:
        name = f"Kendall {'tau-' + variant if variant in ('b', 'c') else variant} ({statistic}, variant {variant})"
    grouping = f", {GROUPING_TITLES[avg_by]}" if avg_by in GROUPING_TITLES else ""
    return f"{LEVEL_TITLES[level]}, {name}{grouping}"
