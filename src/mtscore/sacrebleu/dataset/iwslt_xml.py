"""sacrebleu's ``IWSLTXMLDataset``: the IWSLT test sets, read as the SGML ones."""

from __future__ import annotations

from .fake_sgml import FakeSGMLDataset


class IWSLTXMLDataset(FakeSGMLDataset):
    """An IWSLT XML test set (a ``<seg>`` per line, as SGML)."""
