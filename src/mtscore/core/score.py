"""The score base every result shares: sacrebleu's text line and JSON object."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .signature import Signature


class SacrebleuFormat:
    """sacrebleu's text line and JSON object for a result with ``name``, ``score``, ``signature``
    and, for BLEU, ``verbose`` details (precisions and lengths); shared by every metric's result."""

    # Set by each result (a dataclass) as its own fields.
    name: str
    score: float
    signature: Signature

    @property
    def verbose(self) -> str:
        """Details after the score (BLEU's precisions and lengths); none by default."""
        return ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "") -> str:
        """``NAME[|signature] = 48.53[ details]``, or the number alone."""
        number = f"{self.score:.{width}f}"
        if score_only:
            return number
        name = f"{self.name}|{signature}" if signature else self.name
        return f"{name} = {number} {self.verbose}" if self.verbose else f"{name} = {number}"

    def to_json(self, width: int = 2) -> str:
        """name, score, signature, verbose_score (if any), then each signature field."""
        data = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": str(self.signature)}
        if self.verbose:
            data["verbose_score"] = self.verbose
        return json.dumps(data | self.signature.info, indent=1, ensure_ascii=False)

    def __str__(self) -> str:
        return self.format()
