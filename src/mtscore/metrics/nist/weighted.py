"""NIST with the information weights of a whole corpus, whatever references a call gives: how
``mtscore.ray`` and ``mtscore.dask`` score one batch's segments as within the whole corpus
(``NIST.in_context``), the weights' counts reduced over every batch first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.inputs import check_references
from ...core.references import References
from ...errors import BleuInputError
from . import state
from .metric import NIST, NISTScore, NISTStatistics
from .state import NISTState


class CorpusWeightedNIST(NIST):
    """``metric``'s NIST whose information weights come from ``context`` (the reference n-gram
    counts of every shard of a corpus merged: ``NIST.sentence_context``): a shard's segments get
    the rows, sentence scores and sums that the in-memory API gives them within that corpus."""

    def __init__(self, metric: NIST, context: NISTState):
        super().__init__(
            variant=metric.variant,
            case_sensitive=metric.case_sensitive,
            tokenize=metric.tokenizer.name,
            max_order=metric.max_order,
        )
        if context.options != state.options_of(self):
            raise BleuInputError(f"NIST weights counted with other options than this metric's ({context.options})")
        self.context = context

    def empty_sentence_context(self) -> Any:
        """None: the sentence scores need nothing more of the corpus, they have its weights."""
        return None

    def sentence_context(self, references: Any) -> Any:
        return None

    def segment_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray:
        """Each segment's row: its matches and lengths against ``references``, the corpus's weights
        (no rows for a shard without segments)."""
        if references is None:
            raise BleuInputError("no references: pass the segments' own (the weights alone are the corpus's)")
        return state.segment_rows(self, self.context, hypotheses, references)

    def statistics(self, hypotheses: Sequence[str], references: Any = None) -> NISTStatistics:
        return NISTStatistics(self.segment_statistics(hypotheses, references))

    def corpus_score(self, hypotheses: Any, references: Any = None) -> NISTScore:
        """The score of these segments alone, weighed with the corpus's information."""
        rows = self.segment_statistics(hypotheses, references)
        return self.score_statistics(rows, References(check_references(references, len(hypotheses))).nrefs)
