"""CER, the character error rate, exact to jiwer 4.0's ``cer`` / ``process_characters``.

Each line is stripped and every character is a token, spaces included (jiwer's ``cer_default``);
the alignment and the corpus formula are WER's (``metrics.wer``): CER = (S + D + I) / (H + S + D)
over characters summed across segments, ``score`` in percent, ``cer`` the fraction jiwer gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.signature import Signature
from ..wer.counts import COUNT_FIELDS, EditCounts, jiwer_measures
from ..wer.metric import EditRate, EditReferences
from ..wer.transforms import characters
from .options import OPTIONS


@dataclass(frozen=True)
class CERScore(EditCounts):
    """A CER result: ``score`` = 100 * ``cer``; ``cer`` and the character counts as jiwer's
    ``process_characters`` gives them."""

    cer: float
    signature: Signature = field(compare=False)
    name: str = "CER"

    dict_fields = ("cer", *COUNT_FIELDS)  # jiwer's cer, then the counts


class CER(EditRate[CERScore]):
    """Character error rate exact to jiwer 4.0; give ``references`` (one stream) once to score
    many systems against them.

    >>> round(CER([["the cat sat"]]).corpus_score(["the cat sit"]).score, 2)
    9.09
    """

    corpus_summary = (
        "Corpus CER of ``hypotheses`` against one reference stream (``[references]``), as jiwer's "
        "``cer(references, hypotheses)``."
    )

    name = "CER"
    options = OPTIONS
    token_kind = "characters"

    def tokens(self, line: str) -> list[str]:
        return list(characters(line))

    def _ids(self, lines: Sequence[str], vocabulary: dict[str, int], add: bool) -> tuple[np.ndarray, np.ndarray]:
        """Code points (int32: all fit), concatenated (one encoding of the whole text), and the stripped lengths."""
        stripped = [characters(line) for line in lines]
        lengths = np.fromiter(map(len, stripped), dtype=np.int64, count=len(stripped))
        return np.frombuffer("".join(stripped).encode("utf-32-le", "surrogatepass"), dtype="<i4"), lengths

    def _plain_tokens(self, line: str) -> str:
        return characters(line)

    def _score(self, statistics: np.ndarray, references: EditReferences | None) -> CERScore:
        return self._result_of(self._sums(statistics), 1 if references is None else references.nrefs)

    def _result_of(self, sums: list[int], nrefs: int | str) -> CERScore:
        h, s, d, i = sums
        cer = jiwer_measures(h, s, d, i)["wer"]
        return CERScore(100 * cer, h, s, d, i, cer, signature=self.signature(nrefs))


# The functional layer, made from CER's constructor (``core.functional``).
corpus_cer = corpus_function(CER, "corpus_cer")
sentence_cer = sentence_function(CER, "sentence_cer")
sentence_cers = sentences_function(CER, "sentence_cers")
