"""sacrebleu's ``PlainTextDataset``: a source and a reference file, one segment per line."""

from __future__ import annotations

from .base import Dataset


class PlainTextDataset(Dataset):
    """A plain-text test set: fields ``src`` and ``ref``."""
