"""sacrebleu's ``TSVDataset``: the source and the reference are columns of tab-separated files (MTNT)."""

from __future__ import annotations

from .base import Dataset


class TSVDataset(Dataset):
    """A TSV test set: fields ``src`` and ``ref``, each a column (``COLUMN:FILE`` in ``langpairs``)."""
