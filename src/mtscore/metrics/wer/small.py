"""One (reference, hypothesis) alignment by rapidfuzz itself, jiwer's engine: the counts of a call of a few
segments, without the vectorised engine's fixed cost per call.

jiwer 4.0 counts hits, substitutions, deletions and insertions from rapidfuzz's ``Levenshtein.opcodes`` of
the two token sequences, each word given as an integer id. Here the same alignment is asked of rapidfuzz
(``editops``, the steps ``opcodes`` is made from, without the runs of hits), on the same kind of input: a
line's characters as its string, words as integer ids in order of first appearance. rapidfuzz's path
depends only on which tokens are equal, so the counts are jiwer's by construction. rapidfuzz is imported on
the first call, so that ``import mtscore`` never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import count, repeat
from typing import Any

from .align import rapidfuzz_counts


def _as_ids(ref: Sequence[object], hyp: Sequence[object]) -> tuple[Any, Any]:
    """The pair as rapidfuzz compares it exactly: a string as it is (its characters), any other sequence
    as integer ids (rapidfuzz would compare other objects by their hash). An alignment only compares a
    reference token with a hypothesis token, so each reference token's id is the last place of its word
    in the reference, and every hypothesis token the reference lacks gets one id no reference token has."""
    if isinstance(ref, str) and isinstance(hyp, str):
        return ref, hyp
    places = dict(zip(ref, count()))
    return list(map(places.__getitem__, ref)), list(map(places.get, hyp, repeat(len(ref))))


def edit_row(ref: Sequence[object], hyp: Sequence[object]) -> list[int]:
    """rapidfuzz's [hits, substitutions, deletions, insertions] of ``ref`` against ``hyp``."""
    return rapidfuzz_counts(*_as_ids(ref, hyp))
