"""The registry: every test set sacrebleu 2.6.0 knows (``data.SETS``) as a ``TestSet`` value, looked
up by name or by language pair."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import data
from .errors import TestSetError

FORMATS = ("wmt-xml", "sgml", "sgml+text", "iwslt-xml", "text", "tsv")
FORMAT_TITLES = {
    "wmt-xml": "WMT XML",
    "sgml": "SGML",
    "sgml+text": "SGML and text",
    "iwslt-xml": "IWSLT XML",
    "text": "plain text",
    "tsv": "TSV",
}


@dataclass(frozen=True)
class Download:
    """One file to fetch: its URL and MD5 sum (``None``: not checked)."""

    url: str
    md5: str | None


@dataclass(frozen=True)
class TestSet:
    """A test set: its files per language pair (paths under the cache's ``raw/`` folder), where to
    download them, which translators' references score (WMT XML; empty: every reference), its BibTeX
    citation and its one-line description (each ``None`` where sacrebleu's registry has none)."""

    __test__ = False  # not a pytest test class, whatever its name

    name: str
    format: str
    downloads: tuple[Download, ...]
    pairs: dict[str, tuple[str, ...]]
    refs: tuple[str, ...] = ()
    pair_refs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    citation: str | None = None
    description: str | None = None

    def files(self, pair: str) -> tuple[str, ...]:
        """The files of ``pair`` (source first); an unknown pair is an error naming the known ones."""
        if pair not in self.pairs:
            raise TestSetError(
                f"test set {self.name} has no language pair {pair!r}; it has: {', '.join(self.pairs)}",
                usage=True,
            )
        return self.pairs[pair]

    def scoring_translators(self, pair: str) -> tuple[str, ...]:
        """The translators whose references score ``pair`` (WMT XML): the pair's own list, else the set's."""
        return self.pair_refs.get(pair, self.refs)


def _build(name: str, entry: dict) -> TestSet:
    if entry["format"] not in FORMATS:
        raise ValueError(f"test set {name}: unknown format {entry['format']!r}")
    return TestSet(
        name=name,
        format=entry["format"],
        downloads=tuple(Download(url, md5) for url, md5 in entry["downloads"]),
        pairs={pair: tuple(files) for pair, files in entry["pairs"].items()},
        refs=tuple(entry.get("refs", ())),
        pair_refs={pair: tuple(refs) for pair, refs in entry.get("pair_refs", {}).items()},
        citation=entry.get("citation"),
        description=entry.get("description"),
    )


SETS: dict[str, TestSet] = {name: _build(name, entry) for name, entry in data.SETS.items()}


def get(name: str) -> TestSet:
    """The test set called ``name``; an unknown name is a usage error."""
    if name not in SETS:
        raise TestSetError(f"unknown test set {name!r} (mtscore --list shows them)", usage=True)
    return SETS[name]


def names() -> list[str]:
    """Every test set's name, sorted."""
    return sorted(SETS)


def for_pair(pair: str) -> list[str]:
    """The test sets with ``pair`` or its reverse (as sacrebleu's ``-l PAIR --list``), sorted."""
    source, _, target = pair.partition("-")
    return sorted(name for name, test_set in SETS.items() if {pair, f"{target}-{source}"} & set(test_set.pairs))


def describe(name: str) -> str:
    """A one-line description: format and language pairs."""
    test_set = SETS[name]
    count = len(test_set.pairs)
    return f"{FORMAT_TITLES[test_set.format]}, {count} pair{'s' if count > 1 else ''}: {', '.join(test_set.pairs)}"
