"""A test set's language pair read from the cache (downloaded first if needed), and the segments
``--origlang`` and ``--subset`` keep, as sacrebleu 2.6.0 chooses them."""

from __future__ import annotations

import re

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
    pattern = None
    if subset is not None:
        if test_set.format != "wmt-xml" and test_set.name not in data.SUBSETS:
            raise TestSetError(
                f"test set {test_set.name} has no document annotations for --subset "
                f"(SGML sets that have them: {', '.join(data.SUBSETS)})",
                usage=True,
            )
        try:
            pattern = re.compile(subset.removeprefix("country:"))
        except re.error as error:
            raise TestSetError(f"--subset {subset!r} is not a regular expression ({error})", usage=True) from None
    return [_kept(document, origlang, pattern) for document in pair_data.documents]


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
