"""sacrebleu's ``sacrebleu.utils`` for test sets: where they are (``SACREBLEU_DIR``), which there are
(``get_available_testsets``, ``get_available_testsets_for_langpair``, ``get_langpairs_for_testset``),
their files (``get_source_file``, ``get_reference_files``, ``get_files``, ``download_test_set``,
``print_test_set``), their documents (``get_available_origlangs``, ``get_available_subsets``,
``filter_subset``) and ``smart_open``, on mtscore's registry and cache (``mtscore.testsets``).

Switch by changing the import::

    from mtscore.sacrebleu.utils import get_reference_files, get_source_file

The paths and the files' contents are sacrebleu's, in its cache folder (``$SACREBLEU``, default
``~/.sacrebleu``), so either tool uses what the other downloaded. Where sacrebleu raises a bare
``Exception`` or exits, these raise ``mtscore.testsets.TestSetError`` (a ``ValueError``) naming the
test set, pair or field; ``SACREBLEU_DIR`` is ``$SACREBLEU`` as it is when read (sacrebleu's is read
once, at import). Beyond sacrebleu: ``download_test_set`` without a pair fetches every pair;
``get_available_origlangs`` and ``get_available_subsets`` also answer for WMT XML pairs with their own
references (sacrebleu's fail on those); ``print_test_set`` gives a WMT XML pair's references in the
file's order (sacrebleu's follows a Python set's, which changes from run to run); ``filter_subset``
refuses streams whose length is not the test sets' instead of cutting them short.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TypeVar

from ..errors import InputError
from ..testsets import TestSetError, cache, data, pairs, registry
from .dataset import DATASETS, Dataset
from .dataset.base import smart_open

__all__ = [
    "SACREBLEU_DIR",  # noqa: F822 (the module's __getattr__ gives it)
    "download_test_set",
    "filter_subset",
    "get_available_origlangs",
    "get_available_subsets",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "print_test_set",
    "smart_open",
]

Line = TypeVar("Line")


def __getattr__(name: str) -> str:
    """``SACREBLEU_DIR``: the cache folder, ``$SACREBLEU`` (default ``~/.sacrebleu``) as it is now."""
    if name == "SACREBLEU_DIR":
        return str(cache.cache_dir())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _dataset(test_set: str) -> Dataset:
    """``DATASETS[test_set]``; an unknown name raises ``TestSetError`` (``mtscore --list`` lists them)."""
    registry.get(test_set)
    return DATASETS[test_set]


def get_source_file(test_set: str, langpair: str) -> str:
    """The path of the source text file of a test set's language pair, downloaded and written
    first if it is not in the cache.

    Args:
        test_set: The test set, e.g. ``"wmt19"``.
        langpair: The language pair, e.g. ``"de-en"``.

    Returns:
        The path.
    """
    return _dataset(test_set).get_source_file(langpair)


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The paths of the reference text files that score a test set's language pair (WMT XML: the
    registry's translators), downloaded and written first if they are not in the cache.

    Args:
        test_set: The test set, e.g. ``"wmt19"``.
        langpair: The language pair, e.g. ``"de-en"``.

    Returns:
        One or more paths.
    """
    return _dataset(test_set).get_reference_files(langpair)


def get_files(test_set: str, langpair: str) -> list[str]:
    """The paths of every field's text file of a test set's language pair (source, references,
    document fields; ``DATASETS[test_set].fieldnames(langpair)`` names them), downloaded and written
    first if they are not in the cache.

    Args:
        test_set: The test set, e.g. ``"wmt19"``.
        langpair: The language pair, e.g. ``"de-en"``.

    Returns:
        The paths, source first.
    """
    return _dataset(test_set).get_files(langpair)


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Download a test set into the cache and write the text files of ``langpair``, or of every
    pair when it is ``None``.

    Args:
        test_set: The test set, e.g. ``"wmt19"``.
        langpair: The language pair, or ``None`` for all.

    Returns:
        The paths of the text files written or found, pair by pair.
    """
    dataset = _dataset(test_set)
    if langpair is not None:
        return dataset.get_files(langpair)
    dataset.maybe_download()
    return [path for pair in dataset.langpairs for path in dataset.get_files(pair)]


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The language pairs of a test set (none for an unknown name, as sacrebleu)."""
    if testset not in DATASETS:
        return []
    return list(DATASETS[testset].langpairs)


def get_available_testsets() -> list[str]:
    """Every test set's name, in sacrebleu's order (reverse sorted)."""
    return sorted(DATASETS, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets that have ``langpair`` or its reverse, in the registry's order.

    Args:
        langpair: ``SOURCE-TARGET``, e.g. ``"en-de"``.

    Returns:
        The names.
    """
    source, dash, target = langpair.partition("-")
    if not dash:
        raise TestSetError(f"language pair {langpair!r} is not SOURCE-TARGET (e.g. en-de)", usage=True)
    either_way = {f"{source}-{target.split('-')[0]}", f"{target.split('-')[0]}-{source}"}
    return [name for name, dataset in DATASETS.items() if either_way & set(dataset.langpairs)]


def get_available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """The original languages the documents of ``langpair`` name, sorted, in the test sets
    ``test_sets`` (comma-separated; ``None``: none). Only WMT XML and SGML sets have documents."""
    if test_sets is None:
        return []
    origlangs = set()
    for name in test_sets.split(","):
        for document in pairs.read(registry.get(name), langpair).documents or []:
            if document is not None and document.origlang:
                origlangs.add(document.origlang)
    return sorted(origlangs)


def get_available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """What ``--subset`` can select in the test sets ``test_sets`` (comma-separated; ``None``:
    none), sorted: WMT XML documents' domains, and the annotated SGML sets' countries (``country:GB``)
    and topics."""
    if test_sets is None:
        return []
    found: set[str] = set()
    for name in test_sets.split(","):
        test_set = registry.get(name)
        if test_set.format == "wmt-xml" or name in data.SUBSETS:
            found |= pairs.subset_names(test_set, pairs.read(test_set, langpair))
    return sorted(found)


def filter_subset(
    systems: Sequence[Iterable[Line]],
    test_sets: str | None,
    langpair: str | None,
    origlang: str | None,
    subset: str | None = None,
) -> list[list[Line]]:
    """Each of ``systems`` (segment streams of the test sets joined in order) reduced to the
    segments whose documents have the original language ``origlang`` (``non-XX``: any other) and
    an annotation or domain matching the regular expression ``subset``; unchanged when neither is given.

    Args:
        systems: Streams of segments, as many as the test sets have together.
        test_sets: The test sets, comma-separated.
        langpair: The language pair.
        origlang: The original language, or ``None``.
        subset: The regular expression, or ``None``.

    Returns:
        The kept segments of each stream.
    """
    if origlang is None and subset is None:
        return [list(system) for system in systems]
    if test_sets is None or langpair is None:
        raise TestSetError("filtering by origlang or subset needs the test sets and the language pair", usage=True)
    kept: list[bool] = []
    for name in test_sets.split(","):
        test_set = registry.get(name)
        kept += pairs.keep(test_set, pairs.read(test_set, langpair), origlang, subset)
    filtered = []
    for number, system in enumerate(systems, 1):
        segments = list(system)
        if len(segments) != len(kept):
            raise InputError(
                f"stream {number} has {len(segments)} segments but test sets {test_sets} ({langpair}) have {len(kept)}"
            )
        filtered.append([segment for segment, keep in zip(segments, kept, strict=True) if keep])
    return filtered


def print_test_set(
    test_set: str,
    langpair: str,
    requested_fields: Sequence[str],
    origlang: str | None = None,
    subset: str | None = None,
) -> None:
    """Print the fields ``requested_fields`` of a test set's language pair to standard output, a
    line per segment with the fields separated by tabs (``["all"]``: every field; ``ref``: the first
    reference where the references are named ``ref:...``), the segments filtered as ``filter_subset``.

    Args:
        test_set: The test set, e.g. ``"wmt19"``.
        langpair: The language pair, e.g. ``"de-en"``.
        requested_fields: Field names, e.g. ``["src", "ref"]``.
        origlang: Only documents of this original language (``non-XX``: of any other).
        subset: Only documents whose annotation or domain matches this regular expression.
    """
    dataset = _dataset(test_set)
    fieldnames = dataset.fieldnames(langpair)
    files = dataset.get_files(langpair)
    fields = _requested(list(requested_fields), fieldnames, f"test set {test_set} ({langpair})")
    streams = []
    for field in fields:
        with smart_open(files[fieldnames.index(field)]) as lines:
            streams.append(list(lines))
    for row in zip(*filter_subset(streams, test_set, langpair, origlang, subset), strict=True):
        sys.stdout.write("\t".join(line.rstrip() for line in row) + "\n")


def _requested(requested: list[str], fieldnames: list[str], where: str) -> list[str]:
    """The fields to print: ``all`` is every field; ``ref`` is the first reference if none is
    named ``ref``; any other name must be a field."""
    if "all" in requested:
        if len(requested) != 1:
            raise TestSetError("field 'all' cannot be asked for with other fields", usage=True)
        return fieldnames
    references = [field for field in fieldnames if field.startswith("ref")]
    if "ref" not in fieldnames and references:
        requested = [min(references) if field == "ref" else field for field in requested]
    for field in requested:
        if field not in fieldnames:
            raise TestSetError(f"{where} has no field {field!r}; it has: {', '.join(fieldnames)}", usage=True)
    return requested
