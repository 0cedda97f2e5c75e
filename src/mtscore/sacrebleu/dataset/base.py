"""sacrebleu's ``Dataset``: a test set of sacrebleu 2.6.0's registry with its attributes (``name``,
``data``, ``md5``, ``description``, ``citation``, ``langpairs``), read through mtscore's registry and
cache (``mtscore.testsets``).

Its text files are sacrebleu's: ``$SACREBLEU/NAME/NAME.PAIR.FIELD`` (``/`` in the name as ``_`` in
the file name, ``:`` in the field as ``-``), one segment per line, written when first asked for from
the raw downloads (fetched first if missing). A file already there, by sacrebleu or by this module, is
used as it is; each new one is written aside and renamed into place.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from typing import IO, Any

from ...testsets import cache, pairs, registry
from ...testsets.registry import TestSet


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """``file`` opened as sacrebleu opens it: gzip when its name ends in ``.gz``, UTF-8, lines
    split on ``\\n`` only.

    Args:
        file: The path.
        mode: The mode (``"rt"`` to read, ``"wt"`` to write).
        encoding: The text encoding.

    Returns:
        The open file.
    """
    if file.endswith(".gz"):
        import gzip

        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")  # type: ignore[return-value]
    return open(file, mode=mode, encoding=encoding, newline="\n")


class Dataset:
    """One test set, as sacrebleu's ``DATASETS[name]``.

    Attributes follow mtscore's registry (``mtscore.testsets.registry.SETS``) at each use: ``data``
    (download URLs), ``md5`` (their MD5 sums), ``description``, ``citation``, ``langpairs`` (pair ->
    files, or for WMT XML pairs with their own references ``{"path": ..., "refs": [...]}``) and
    ``kwargs`` (``{"refs": [...]}``: the translators whose references score). The cache folder is
    ``$SACREBLEU`` as it is when a file is asked for (sacrebleu reads it once, at import).

    Args:
        name: The test set's name in the registry (``"wmt22"``, ``"wmt19/google/ar"``).
    """

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def _test_set(self) -> TestSet:
        return registry.get(self.name)

    @property
    def data(self) -> list[str]:
        """The URLs of the downloads."""
        return [download.url for download in self._test_set.downloads]

    @property
    def md5(self) -> list[str | None]:
        """The MD5 sum of each download (``None``: not checked)."""
        return [download.md5 for download in self._test_set.downloads]

    @property
    def description(self) -> str | None:
        """sacrebleu's one-line description of the test set."""
        return self._test_set.description

    @property
    def citation(self) -> str | None:
        """The BibTeX citation (``None`` where sacrebleu has none)."""
        return self._test_set.citation

    @property
    def langpairs(self) -> dict[str, Any]:
        """Each language pair's raw files (paths under ``_rawdir``), in sacrebleu's shape."""
        test_set = self._test_set
        return {
            pair: {"path": files[0], "refs": list(test_set.pair_refs[pair])}
            if pair in test_set.pair_refs
            else list(files)
            for pair, files in test_set.pairs.items()
        }

    @property
    def kwargs(self) -> dict[str, Any]:
        """sacrebleu's further registry keys: ``refs``, the translators whose references score."""
        refs = self._test_set.refs
        return {"refs": list(refs)} if refs else {}

    @property
    def _outdir(self) -> str:
        return os.path.join(str(cache.cache_dir()), self.name)

    @property
    def _rawdir(self) -> str:
        return str(cache.raw_dir(self._test_set))

    def maybe_download(self) -> None:
        """Download (and unpack) what of the test set is missing from the cache; nothing is fetched
        when every pair's raw files are there. A failed or corrupt download raises
        ``mtscore.testsets.TestSetError`` saying where to put the file by hand."""
        test_set = self._test_set
        cache.raw_files(test_set, pairs.every_file(test_set))

    @staticmethod
    def _clean(text: str) -> str:
        """``text`` with whitespace runs as one space and none at the ends."""
        return re.sub(r"\s+", " ", text.strip())

    def _get_tarball_filename(self, url: str) -> str:
        """The name a download from ``url`` is saved under in ``_rawdir``."""
        return self.name.replace("/", "_") + "." + os.path.basename(url)

    def _get_txt_file_path(self, langpair: str, fieldname: str) -> str:
        """The text file of ``fieldname`` of ``langpair``: ``$SACREBLEU/NAME/NAME.PAIR.FIELD``."""
        name = self.name.replace("/", "_")
        return os.path.join(self._outdir, f"{name}.{langpair}.{fieldname.replace(':', '-')}")

    def _get_langpair_metadata(self, langpair: str | None) -> dict[str, Any]:
        """``{langpair: its files}``, or every pair's when ``langpair`` is ``None``; an unknown pair
        raises ``mtscore.testsets.TestSetError`` naming the known ones."""
        if langpair is None:
            return self.langpairs
        self._test_set.files(langpair)
        return {langpair: self.langpairs[langpair]}

    def process_to_text(self, langpair: str | None = None) -> None:
        """Write the text file of every field of ``langpair`` (every pair when ``None``) that is
        not yet in the cache, downloading the raw files first if needed.

        Args:
            langpair: The language pair, e.g. ``"en-de"``.
        """
        test_set = self._test_set
        for pair in sorted(self._get_langpair_metadata(langpair)):
            paths = {field: self._get_txt_file_path(pair, field) for field in self.fieldnames(pair)}
            if all(_present(path) for path in paths.values()):
                continue
            fields = pairs.read(test_set, pair).fields
            for field, path in paths.items():
                if not _present(path):
                    _write_lines(path, fields[field])

    def fieldnames(self, langpair: str) -> list[str]:
        """The fields of ``langpair`` in the order of ``get_files``: ``src``, the references
        (``ref``, or ``ref:A`` ... by translator or ``ref:0`` ... by file) and the document fields
        (``docid``, ``genre`` or ``domain``, ``origlang``; WMT XML also each system's output).
        WMT XML sets name their fields inside the raw file, which is downloaded first if needed.

        Args:
            langpair: The language pair, e.g. ``"en-de"``.

        Returns:
            The field names.
        """
        return pairs.field_names(self._test_set, langpair)

    def source(self, langpair: str) -> Iterator[str]:
        """The source segments of ``langpair``, each without surrounding whitespace."""
        with smart_open(self.get_source_file(langpair)) as lines:
            for line in lines:
                yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        """The references of ``langpair``: for each segment, a tuple of its line (newline kept, as
        sacrebleu yields them) in each reference file; files of different lengths raise ``ValueError``."""
        with contextlib.ExitStack() as stack:
            streams = [stack.enter_context(smart_open(path)) for path in self.get_reference_files(langpair)]
            yield from zip(*streams, strict=True)

    def get_source_file(self, langpair: str) -> str:
        """The path of the source text file of ``langpair`` (written first if needed)."""
        return self.get_files(langpair)[self.fieldnames(langpair).index("src")]

    def get_reference_files(self, langpair: str) -> list[str]:
        """The paths of the reference text files of ``langpair`` (written first if needed)."""
        fields = zip(self.get_files(langpair), self.fieldnames(langpair), strict=True)
        return [path for path, field in fields if field.startswith("ref")]

    def get_files(self, langpair: str) -> list[str]:
        """The paths of every field's text file of ``langpair``, in the order of ``fieldnames``;
        the raw files are downloaded and the text files written first where they are missing.

        Args:
            langpair: The language pair, e.g. ``"de-en"``.

        Returns:
            The paths, source first.
        """
        files = [self._get_txt_file_path(langpair, field) for field in self.fieldnames(langpair)]
        if not all(os.path.exists(path) for path in files):
            self.process_to_text(langpair)
        return files


def _present(path: str) -> bool:
    """A file there and not empty (an empty one may be what an interrupted writer left)."""
    return os.path.isfile(path) and os.path.getsize(path) > 0


def _write_lines(path: str, lines: list[str]) -> None:
    """``lines`` written to ``path`` one per line, aside first and renamed into place."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".part")
    try:
        with open(handle, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(f"{line}\n" for line in lines)
        os.chmod(temporary, cache.FILE_MODE)
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
