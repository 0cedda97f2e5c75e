"""A small reader of the WordNet 3.0 database files: the synonyms METEOR's third stage needs.

``WordNet.synonyms(word)`` is the set of lemma names of every synset NLTK's ``wordnet.synsets(word)``
returns (nouns, verbs, adjectives with their satellites, adverbs), as METEOR uses them: names
with an underscore (multi-word lemmas) left out, adjective markers such as ``(a)`` cut off.
A word's base forms are found as WordNet's ``morphy`` (and NLTK's) finds them: the word itself and
either the forms its part of speech's exception list (``noun.exc`` ...) gives or, without an
exception, the forms one detachment rule gives; those that are lemmas of that part of speech.

The database is looked for (``find_wordnet``) in: the ``path`` given, ``$MTSCORE_WORDNET``,
NLTK's data folders (``$NLTK_DATA``, ``~/nltk_data``, ... holding ``corpora/wordnet`` or
``corpora/wordnet.zip``) and Debian's ``wordnet-base`` (``/usr/share/wordnet``).
"""

from __future__ import annotations

import mmap
import os
import sys
import zipfile
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from ...errors import BleuInputError

ENVIRONMENT = "MTSCORE_WORDNET"
PARTS = ("noun", "verb", "adj", "adv")  # NLTK's order of synsets(); it does not change the synonyms
FILES = tuple(f"{kind}.{part}" for part in PARTS for kind in ("index", "data")) + tuple(f"{part}.exc" for part in PARTS)
SYNONYMS_KEPT = 1 << 18  # words whose synonyms are kept (a few tens of MiB at most)
_NONE: frozenset[str] = frozenset()  # one object for every word without synonyms

# WordNet's detachment rules (suffix, replacement) per part of speech; adverbs have none.
DETACHMENTS = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}

# The same rules by the last letter of their suffix: a word is tried only on those it may end with.
_BY_LAST = {
    part: {end[-1]: tuple(rule for rule in rules if rule[0][-1] == end[-1]) for end, _ in rules}
    for part, rules in DETACHMENTS.items()
}

MISSING = (
    "METEOR's synonym stage needs the WordNet 3.0 database, which was not found{where}. "
    "Install it (Debian/Ubuntu: apt-get install wordnet-base; or NLTK: python -m nltk.downloader wordnet), "
    f"or point ${ENVIRONMENT} (or the wordnet option, --meteor-wordnet) at the folder holding index.noun, "
    "data.noun, noun.exc, ...; or leave the synonym stage out with --meteor-no-synonyms (no_synonyms=True)."
)


def nltk_folders() -> list[Path]:
    """NLTK's data folders, in the order NLTK searches them."""
    folders = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    folders.append(Path("~/nltk_data").expanduser())
    folders += [Path(sys.prefix, sub) for sub in ("nltk_data", "share/nltk_data", "lib/nltk_data")]
    folders += [Path(p) for p in ("/usr/share/nltk_data", "/usr/local/share/nltk_data")]
    folders += [Path(p) for p in ("/usr/lib/nltk_data", "/usr/local/lib/nltk_data")]
    return folders


def candidates(path: str | os.PathLike | None) -> Iterator[Path]:
    """Where WordNet may be, first found first used: only ``path`` if given."""
    if path is not None:
        yield Path(path)
        return
    if os.environ.get(ENVIRONMENT):
        yield Path(os.environ[ENVIRONMENT])
        return
    for folder in nltk_folders():
        yield folder / "corpora" / "wordnet"
        yield folder / "corpora" / "wordnet.zip"
    yield Path("/usr/share/wordnet")


class _FolderFiles:
    """The database's files in a folder (a plain object, so that a metric holding it pickles)."""

    def __init__(self, location: Path):
        self.location = location

    def __call__(self, name: str) -> bytes:
        return (self.location / name).read_bytes()

    def mapped(self, name: str) -> mmap.mmap | bytes:
        """The file mapped into memory, read only where it is looked at (a data file's few synsets)."""
        with open(self.location / name, "rb") as handle:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(handle.fileno()).st_size else b""


class _ZipFiles:
    """The database's files in NLTK's ``wordnet.zip``, by base name."""

    def __init__(self, location: Path, names: dict[str, str]):
        self.location, self.names = location, names

    def __call__(self, name: str) -> bytes:
        with zipfile.ZipFile(self.location) as archive:
            return archive.read(self.names[name])

    mapped = __call__  # a zip's member is read whole


def reader(location: Path) -> Callable[[str], bytes] | None:
    """How to read the database's files at ``location`` (a folder or NLTK's zip); ``None`` if some are missing."""
    if location.is_dir():
        return _FolderFiles(location) if all((location / name).is_file() for name in FILES) else None
    if location.is_file() and zipfile.is_zipfile(location):
        with zipfile.ZipFile(location) as archive:
            names = {Path(name).name: name for name in archive.namelist()}
        if all(name in names for name in FILES):
            return _ZipFiles(location, names)
    return None


def find_wordnet(path: str | os.PathLike | None = None) -> WordNet:
    """The WordNet database at ``path``, else at the first place searched (module docstring) that has it."""
    return _load(None if path is None else str(path), os.environ.get(ENVIRONMENT), os.environ.get("NLTK_DATA"))


@lru_cache(maxsize=4)
def _load(path: str | None, environment: str | None, nltk_data: str | None) -> WordNet:
    """One reader per place (the environment is part of the key), shared by every metric."""
    searched = list(candidates(path))
    for location in searched:
        read = reader(location)
        if read is not None:
            return WordNet(read, str(location))
    where = f" in {searched[0]}" if len(searched) == 1 else f" (looked in {', '.join(map(str, searched))})"
    raise BleuInputError(MISSING.format(where=where))


def lemma_name(name: str) -> str:
    """A lemma as NLTK names it: a final syntactic marker such as ``(a)`` or ``(ip)`` cut off."""
    start = name.rfind("(")
    if start >= 0 and name.endswith(")") and ")" not in name[start:-1]:
        return name[:start]
    return name


class WordNet:
    """WordNet's index, exception lists and synsets, read on first use; synonyms cached per word."""

    def __init__(self, read: Callable[[str], bytes], location: str):
        self.location = location
        self.read = read  # one of the database's files (``FILES``) by name, as bytes
        self._index: dict[str, dict[str, str]] = {}
        self._exceptions: dict[str, dict[str, list[str]]] = {}
        self._data: dict[str, mmap.mmap | bytes] = {}
        self._synonyms: dict[str, frozenset[str]] = {}

    def __getstate__(self) -> dict:
        """Pickled as where to read WordNet, nothing read (a mapped file does not pickle, and the parsed
        tables are megabytes to send to every Ray or Dask task): read again where it is used."""
        return {**self.__dict__, "_index": {}, "_exceptions": {}, "_data": {}, "_synonyms": {}}

    def index(self, part: str) -> dict[str, str]:
        """Lemma -> its line of ``index.<part>`` (the license lines, which start with a space, left out)."""
        if part not in self._index:
            lines = self.read(f"index.{part}").decode("utf-8").split("\n")
            self._index[part] = {line.split(" ", 1)[0]: line for line in lines if line and line[0] != " "}
        return self._index[part]

    def exceptions(self, part: str) -> dict[str, list[str]]:
        """Inflected form -> its base forms, from ``<part>.exc`` (a later line for the same form wins)."""
        if part not in self._exceptions:
            lines = self.read(f"{part}.exc").decode("utf-8").split("\n")
            self._exceptions[part] = {words[0]: words[1:] for words in map(str.split, lines) if words}
        return self._exceptions[part]

    def base_forms(self, word: str, part: str) -> list[str]:
        """``morphy``: the word and its exception or detached forms that are lemmas of ``part``."""
        exceptions, index = self.exceptions(part), self.index(part)
        if word in exceptions:
            forms = exceptions[word]
        else:
            rules = _BY_LAST[part].get(word[-1:], ())
            forms = [word[: len(word) - len(end)] + new for end, new in rules if word.endswith(end)]
        found = [word] if word in index else []
        for form in forms:  # a few: a list keeps them in order, without repeats, faster than a dict
            if form in index and form not in found:
                found.append(form)
        return found

    def offsets(self, lemma: str, part: str) -> list[int]:
        """The byte offsets in ``data.<part>`` of the synsets of an indexed ``lemma``."""
        fields = self.index(part)[lemma].split()
        synsets, pointers = int(fields[2]), int(fields[3])
        start = 4 + pointers + 2  # after the pointer symbols, sense_cnt and tagsense_cnt
        return [int(offset) for offset in fields[start : start + synsets]]

    def lemma_names(self, part: str, offset: int) -> list[str]:
        """The lemma names of the synset at ``offset`` of ``data.<part>``."""
        if part not in self._data:
            self._data[part] = getattr(self.read, "mapped", self.read)(f"data.{part}")
        data = self._data[part]
        # offset, lex_filenum, ss_type, w_cnt (hex), then w_cnt (word, lex_id): only those are split off
        fields = data[offset : data.find(b"\n", offset)].decode("utf-8").split(" ", 4)
        count = int(fields[3], 16)
        words = fields[4].split(" ", 2 * count)[: 2 * count : 2]
        return [lemma_name(word) if word[-1] == ")" else word for word in words]

    def synonyms(self, word: str) -> frozenset[str]:
        """Lemma names without an underscore of all synsets of ``word`` (lowercased), as METEOR matches
        them. At most ``SYNONYMS_KEPT`` words are kept, then the cache starts again: a stream of
        numbers, names and typos would otherwise grow it without end."""
        found = self._synonyms.get(word)
        if found is None:
            lower = word.lower()
            names: set[str] = set()
            for part in PARTS:
                for form in self.base_forms(lower, part):
                    for offset in self.offsets(form, part):
                        names.update(self.lemma_names(part, offset))
            found = frozenset(name for name in names if "_" not in name) if names else _NONE
            if len(self._synonyms) >= SYNONYMS_KEPT:
                self._synonyms.clear()
            self._synonyms[word] = found
        return found
