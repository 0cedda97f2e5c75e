"""sacrebleu's ``FakeSGMLDataset`` (the SGML test sets of WMT08-20: a ``<seg>`` per line, source and
references in separate files) and ``WMTAdditionDataset`` (SGML sources with plain-text references)."""

from __future__ import annotations

from .base import Dataset


class FakeSGMLDataset(Dataset):
    """An SGML test set: fields ``src``, ``ref`` (``ref:0`` ... with several references) and, but for
    wmt08, ``docid``, ``genre`` and ``origlang`` from the source's documents."""


class WMTAdditionDataset(FakeSGMLDataset):
    """An SGML test set whose references are plain text files (the ``wmt19/google/*`` references)."""
