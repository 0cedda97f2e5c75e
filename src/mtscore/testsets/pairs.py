"""A test set's language pair read from the cache (downloaded first if needed), the segments
``--origlang`` and ``--subset`` keep, and the rows of ``--detail``'s breakdown, as sacrebleu 2.6.0
chooses them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import cache, data, formats
from .errors import TestSetError
from .formats import PairData
from .registry import TestSet


def read(test_set: TestSet, pair: str, log: cache.Log | None = None) -> PairData:
    """The fields of ``pair`` in ``test_set``, which of them score, and each segment's document."""
    files = test_set.files(pair)
    if test_set.format == "wmt-xml":
        (path,) = cache.raw_files(test_set, files[:1], log)
        return formats.read_wmt_xml(path, test_set.scoring_translators(pair))
    if test_set.format == "tsv":
        paths = cache.raw_files(test_set, tuple(formats.tsv_file(spec) for spec in files[:2]), log)
        return formats.read_tsv(paths, files[:2])
    if test_set.format == "text":
        return formats.read_text(cache.raw_files(test_set, files[:2], log))
    if len(files) < 2:
        raise TestSetError(f"test set {test_set.name}: pair {pair} needs a source and a reference file")
    paths = cache.raw_files(test_set, files, log)
    return formats.read_sgml(test_set.name, paths, test_set.format == "sgml+text", data.SUBSETS.get(test_set.name))


def keep(test_set: TestSet, pair_data: PairData, origlang: str | None, subset: str | None) -> list[bool]:
    """Which segments ``--origlang`` (a language, or ``non-`` one) and ``--subset`` (a regular
    expression searched in the document's domain or annotation; ``country:`` prefix dropped) keep."""
    count = len(pair_data.fields["src"])
    if origlang is None and subset is None:
        return [True] * count
    if pair_data.documents is None:
        raise TestSetError(
            f"--origlang and --subset need documents: WMT XML or SGML (.sgm) test sets; {test_set.name} is not one",
            usage=True,
        )
    if subset is not None and test_set.format != "wmt-xml" and test_set.name not in data.SUBSETS:
        raise TestSetError(
            f"test set {test_set.name} has no document annotations for --subset "
            f"(SGML sets that have them: {', '.join(data.SUBSETS)})",
            usage=True,
        )
    pattern = _pattern(subset)
    return [_kept(document, origlang, pattern) for document in pair_data.documents]


def breakdown(
    sets: Sequence[tuple[TestSet, PairData]], origlang: str | None, subset: str | None
) -> list[tuple[str, list[bool]]]:
    """``--detail``'s rows over test sets joined one after the other: for each original language
    (``origlang`` alone if given, else every one the documents name, sorted), all its segments, then
    those of each domain (``subset`` alone if given, else the WMT XML documents' domains and the SGML
    sets' annotated countries and topics, sorted). Each row is its label (``origlang=de domain=ALL``,
    ``... domain=news``, ``... country=GB``) and the segments it keeps; rows keeping none are left
    out, and there are none where no document names its original language."""
    documents = [
        document for _, pair_data in sets for document in (pair_data.documents or [None] * len(pair_data.fields["src"]))
    ]
    languages = [origlang] if origlang else sorted({doc.origlang for doc in documents if doc and doc.origlang})
    subsets = [subset] if subset is not None else sorted(set().union(*(subset_names(*pair) for pair in sets)))
    rows = []
    for language in languages:
        for chosen in [None, *subsets]:
            pattern = _pattern(chosen)
            kept = [_kept(document, language, pattern) for document in documents]
            if any(kept):
                rows.append((f"origlang={language} {_subset_label(chosen)}", kept))
    return rows


def subset_names(test_set: TestSet, pair_data: PairData) -> set[str]:
    """What sacrebleu breaks a test set down by: WMT XML documents' domains; an annotated SGML
    set's countries (``country:GB``) and topics (``politics``), from every annotation it has."""
    if test_set.format == "wmt-xml":
        return {doc.tags for doc in pair_data.documents or [] if doc and doc.tags is not None}
    tags = data.SUBSETS.get(test_set.name, {}).values()
    return {f"country:{tag.split('-')[0]}" for tag in tags} | {tag.split("-")[1] for tag in tags}


def _subset_label(subset: str | None) -> str:
    if subset is None:
        return "domain=ALL"
    if subset.startswith("country:"):
        return f"country={subset.removeprefix('country:')}"
    return f"domain={subset}"


def _pattern(subset: str | None) -> re.Pattern[str] | None:
    """``--subset``'s regular expression (a ``country:`` prefix dropped)."""
    if subset is None:
        return None
    try:
        return re.compile(subset.removeprefix("country:"))
    except re.error as error:
        raise TestSetError(f"--subset {subset!r} is not a regular expression ({error})", usage=True) from None


def _kept(document: formats.Document | None, origlang: str | None, pattern: re.Pattern[str] | None) -> bool:
    if document is None:
        return False
    if origlang is not None:
        if origlang.startswith("non-"):
            if document.origlang == origlang[4:]:
                return False
        elif document.origlang != origlang:
            return False
    return pattern is None or (document.tags is not None and pattern.search(document.tags) is not None)


def field_names(test_set: TestSet, pair: str, log: cache.Log | None = None) -> list[str]:
    """The fields of ``pair``: WMT XML sets name theirs inside the file (read, downloaded if needed),
    the others by their registry entry."""
    files = test_set.files(pair)
    if test_set.format == "wmt-xml":
        return list(read(test_set, pair, log).fields)
    if test_set.format in ("text", "tsv"):
        return ["src", "ref"]
    names = ["src", *(["ref"] if len(files) == 2 else [f"ref:{number}" for number in range(len(files) - 1)])]
    return names if test_set.name.startswith("wmt08") else [*names, "docid", "genre", "origlang"]


def pair_files(test_set: TestSet, pair: str) -> tuple[str, ...]:
    """The raw files ``pair`` reads (what ``--download NAME -l PAIR`` makes sure of)."""
    files = test_set.files(pair)
    if test_set.format == "wmt-xml":
        return files[:1]
    if test_set.format == "tsv":
        return tuple(dict.fromkeys(formats.tsv_file(spec) for spec in files[:2]))
    return files[:2] if test_set.format == "text" else files


def every_file(test_set: TestSet) -> tuple[str, ...]:
    """The raw files of every pair of ``test_set`` (what ``--download NAME`` makes sure of)."""
    return tuple(dict.fromkeys(file for pair in test_set.pairs for file in pair_files(test_set, pair)))
