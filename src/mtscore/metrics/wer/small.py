"""One (reference, hypothesis) alignment in plain Python, with rapidfuzz's choices: the vectorised
engine's path (``align``) for a call of a few segments, without its fixed cost per call.

As in ``align``, the common prefix and suffix are hits, and the middle's matrix ``D[i][j]`` is walked
back from the end taking a deletion when ``D[i][j] = D[i-1][j] + 1``, else an insertion when ``j > 1``
and ``D[i][j-1] = D[i-1][j-1] - 1``, else the diagonal. The vertical differences of ``D`` (unique, as
``D`` is) come from Hyyrö's bit-parallel algorithm on Python integers, one integer as wide as the
middle's reference: every column's VP (difference +1) and VN (-1) are kept for the walk.
"""

from __future__ import annotations

from collections.abc import Sequence

from .align import DELETION, HIT, INSERTION, SUBSTITUTION


def edit_row(ref: Sequence[object], hyp: Sequence[object]) -> list[int]:
    """rapidfuzz's [hits, substitutions, deletions, insertions] of ``ref`` against ``hyp``."""
    shorter = min(len(ref), len(hyp))
    prefix = 0
    while prefix < shorter and ref[prefix] == hyp[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shorter - prefix and ref[-1 - suffix] == hyp[-1 - suffix]:
        suffix += 1
    ref, hyp = ref[prefix : len(ref) - suffix], hyp[prefix : len(hyp) - suffix]
    counts = [prefix + suffix, 0, 0, 0]
    if not ref or not hyp:
        counts[DELETION], counts[INSERTION] = len(ref), len(hyp)
        return counts
    rises, falls = _vertical(ref, hyp)
    i, j = len(ref), len(hyp)
    while i and j:
        bit = 1 << (i - 1)
        if rises[j] & bit:
            counts[DELETION] += 1
            i -= 1
            continue
        j -= 1
        if falls[j] & bit:  # column 0 never falls
            counts[INSERTION] += 1
            continue
        i -= 1
        counts[HIT if ref[i] == hyp[j] else SUBSTITUTION] += 1
    counts[DELETION] += i
    counts[INSERTION] += j
    return counts


def _vertical(ref: Sequence[object], hyp: Sequence[object]) -> tuple[list[int], list[int]]:
    """Per column ``j`` (0 to ``len(hyp)``), the bits ``i - 1`` where ``D[i][j] - D[i-1][j]`` is +1 (VP)
    and where it is -1 (VN)."""
    mask = (1 << len(ref)) - 1
    matches: dict[object, int] = {}
    for position, token in enumerate(ref):
        matches[token] = matches.get(token, 0) | 1 << position
    vp, vn = mask, 0  # column 0: D[i][0] = i
    rises, falls = [vp], [vn]
    for token in hyp:
        x = matches.get(token, 0)
        d0 = (((x & vp) + vp) ^ vp) | x | vn
        hp = vn | ~(d0 | vp)
        hn = d0 & vp
        hp = (hp << 1) | 1  # D[0][j] - D[0][j-1] = 1
        hn = hn << 1
        vp = (hn | ~(d0 | hp)) & mask
        vn = hp & d0 & mask
        rises.append(vp)
        falls.append(vn)
    return rises, falls
