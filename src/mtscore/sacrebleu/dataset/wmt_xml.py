"""sacrebleu's ``WMTXMLDataset``: the WMT XML test sets (WMT21 and later), one file per pair holding
the source, each translator's reference, the systems' outputs and the documents."""

from __future__ import annotations

from .base import Dataset


class WMTXMLDataset(Dataset):
    """A WMT XML test set: its references score by translator (``ref:A``), the set's choice
    (``kwargs["refs"]``) unless the pair has its own (``langpairs[pair]["refs"]``)."""

    def _get_langpair_allowed_refs(self, langpair: str) -> list[str]:
        """The reference fields that score ``langpair`` (``ref`` for a reference without translator)."""
        test_set = self._test_set
        test_set.files(langpair)  # an unknown pair is an error naming the known ones
        translators = test_set.scoring_translators(langpair)
        return [f"ref:{translator}" if translator else "ref" for translator in translators]

    def get_reference_files(self, langpair: str) -> list[str]:
        """The paths of the text files of the references that score ``langpair``."""
        allowed = self._get_langpair_allowed_refs(langpair)
        fields = zip(self.get_files(langpair), self.fieldnames(langpair), strict=True)
        return [path for path, field in fields if field in allowed]
