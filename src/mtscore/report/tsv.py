"""Tab-separated rows of results: system, line, then the result's fields (a metric's ``tsv_fields``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any


def tsv_lines(fields: Sequence[str], rows: Iterable[tuple[str, int | str, Any]]) -> Iterator[str]:
    """A header, then a line per ``(system, line, result)`` (a result object, or a dict of
    values by field); a list field (BLEU's counts per order) spreads over columns ``field_1``, ...
    A field spelled ``column:attribute`` is the result's ``attribute`` under the column ``column``."""
    for number, (system, line, result) in enumerate(rows):
        columns = list(_columns(result, fields))
        if number == 0:
            yield "\t".join(["system", "line", *(name for name, _ in columns)])
        yield "\t".join([system, str(line), *(str(value) for _, value in columns)])


def _columns(result: Any, fields: Sequence[str]) -> Iterator[tuple[str, Any]]:
    for spelled in fields:
        field, _, attribute = spelled.partition(":")
        value = result[field] if isinstance(result, dict) else getattr(result, attribute or field)
        if isinstance(value, list):
            yield from ((f"{field}_{order}", item) for order, item in enumerate(value, 1))
        else:
            yield field, value
