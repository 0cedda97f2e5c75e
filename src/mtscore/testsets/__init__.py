"""Test sets by name, as sacrebleu 2.6.0 knows them (``-t wmt22 -l en-de``): the registry (names,
language pairs, URLs, MD5 sums; ``data`` is generated from sacrebleu's), sacrebleu's cache
(``$SACREBLEU``, default ``~/.sacrebleu``) and checked downloads (``cache``), the formats (WMT XML,
SGML, IWSLT XML, plain text, TSV: ``formats``), the segments ``--origlang``/``--subset`` keep and
the rows of ``--detail`` (``pairs``). May import only the leaf module ``errors``; the command line's
use is ``cli.testsets``.
"""

from __future__ import annotations

from .cache import cache_dir, download_path, fetch, raw_dir, raw_files
from .errors import TestSetError
from .formats import Document, PairData
from .pairs import breakdown, every_file, field_names, keep, pair_files, read
from .registry import SETS, Download, TestSet, describe, for_pair, get, names

__all__ = [
    "SETS",
    "Document",
    "Download",
    "PairData",
    "TestSet",
    "TestSetError",
    "breakdown",
    "cache_dir",
    "describe",
    "download_path",
    "every_file",
    "fetch",
    "field_names",
    "for_pair",
    "get",
    "keep",
    "names",
    "pair_files",
    "raw_dir",
    "raw_files",
    "read",
]
