"""sacrebleu's ``sacrebleu.dataset``: ``DATASETS`` (every test set of sacrebleu 2.6.0 by name, a
``Dataset`` of its format's class) and ``SUBSETS`` (the SGML sets' document annotations), on mtscore's
registry and cache (``mtscore.testsets``), sharing sacrebleu's cache folder (``$SACREBLEU``).

Switch by changing the import::

    from mtscore.sacrebleu.dataset import DATASETS

    DATASETS["wmt22"].get_reference_files("en-de")  # ['~/.sacrebleu/wmt22/wmt22.en-de.ref-A']
"""

from __future__ import annotations

from ...testsets import data, registry
from .base import Dataset
from .fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from .iwslt_xml import IWSLTXMLDataset
from .plain_text import PlainTextDataset
from .tsv import TSVDataset
from .wmt_xml import WMTXMLDataset

# The class of each of mtscore's format names, as sacrebleu's registry has it.
CLASSES: dict[str, type[Dataset]] = {
    "wmt-xml": WMTXMLDataset,
    "sgml": FakeSGMLDataset,
    "sgml+text": WMTAdditionDataset,
    "iwslt-xml": IWSLTXMLDataset,
    "text": PlainTextDataset,
    "tsv": TSVDataset,
}

DATASETS: dict[str, Dataset] = {name: CLASSES[test_set.format](name) for name, test_set in registry.SETS.items()}

# SGML documents' annotations (docid -> ``COUNTRY-domain[-COUNTRY]``) per test set, and what they name.
SUBSETS: dict[str, dict[str, str]] = data.SUBSETS
COUNTRIES = sorted({tags.split("-")[0] for tags in SUBSETS["wmt19"].values()})
DOMAINS = sorted({tags.split("-")[1] for tags in SUBSETS["wmt19"].values()})

__all__ = [
    "COUNTRIES",
    "DATASETS",
    "DOMAINS",
    "SUBSETS",
    "Dataset",
    "FakeSGMLDataset",
    "IWSLTXMLDataset",
    "PlainTextDataset",
    "TSVDataset",
    "WMTAdditionDataset",
    "WMTXMLDataset",
]
