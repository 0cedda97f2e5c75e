"""Reading each segment's score of each system from a file, in one of two forms:

- mt-metrics-eval's ``<name>.seg.score``: ``<system> <score>`` per line, each system's segments in
  order (its lines need not be adjacent);
- a TSV file (any other name): ``<system> TAB <segment> TAB <score>`` per line, segments numbered
  from 1 in any order, after an optional header line ``system TAB segment TAB score``.

``None`` as a score marks a segment nobody rated (human scores): it is left out of the system's
mean. A ``.sys.score`` file (one number per system) is refused: resampling and paired tests need
the segments. Every system must list every one of its segments once; a NaN, an infinity, a score
that is not a number or a malformed line is an input error naming the file and the line.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError, counted
from ..files.read import read_lines
from ..files.scores import parse_score

SegmentScores = dict[str, list[float | None]]  # system -> each segment's score (None: not rated)
TSV_HEADER = ["system", "segment", "score"]


def read_segment_scores(path: str | os.PathLike[str]) -> SegmentScores:
    """Each system's segment scores from ``path`` (mt-metrics-eval's ``.seg.score`` or a TSV file).

    Args:
        path: The score file (plain, gzip, bzip2 or xz).

    Returns:
        System -> its segments' scores in segment order, ``None`` where a segment was not rated.

    Raises:
        InputError: an unreadable or empty file, a ``.sys.score`` file, a malformed line, a score
            that is not a finite number, or a system whose segments are missing or given twice.
    """
    path = Path(path)
    if path.name.endswith(".sys.score"):
        raise InputError(
            f"{path} holds one score per system; mtscore needs each segment's score to resample and compare "
            "systems: give the .seg.score file"
        )
    lines = read_lines(path)
    if not lines:
        raise InputError(f"{path} is empty: no scores")
    scores = _read_seg_score(path, lines) if path.name.endswith(".seg.score") else _read_tsv(path, lines)
    unrated = sorted(system for system, values in scores.items() if all(value is None for value in values))
    if unrated:
        raise InputError(f"{path}: no segment of {', '.join(unrated)} has a score (all None): no mean to compute")
    return scores


def _read_seg_score(path: Path, lines: list[str]) -> SegmentScores:
    """mt-metrics-eval's ``<system> <score>`` lines, each system's in segment order."""
    scores: SegmentScores = {}
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if len(fields) != 2:
            raise InputError(f"{path} line {number}: expected '<system> <score>' (a .seg.score file), got {line!r}")
        scores.setdefault(fields[0], []).append(parse_score(fields[1], path, number))
    return scores


def _read_tsv(path: Path, lines: list[str]) -> SegmentScores:
    """``system TAB segment TAB score`` lines, segments numbered from 1, in any order."""
    by_segment: dict[str, dict[int, float | None]] = {}
    start = 1 if lines[0].split("\t") == TSV_HEADER else 0
    for number, line in enumerate(lines[start:], start + 1):
        fields = line.split("\t")
        if len(fields) != 3:
            raise InputError(
                f"{path} line {number}: expected 'system<TAB>segment<TAB>score' (a TSV score file; "
                f"mt-metrics-eval's files end in .seg.score), got {line!r}"
            )
        system, segment_text, score_text = fields
        if not system:
            raise InputError(f"{path} line {number}: the system's name is empty")
        segment = _segment_number(segment_text, path, number)
        segments = by_segment.setdefault(system, {})
        if segment in segments:
            raise InputError(f"{path} line {number}: segment {segment} of {system!r} is given twice")
        segments[segment] = parse_score(score_text.strip(), path, number)
    return {system: _in_order(path, system, segments) for system, segments in by_segment.items()}


def _segment_number(text: str, path: Path, number: int) -> int:
    try:
        segment = int(text)
    except ValueError:
        raise InputError(f"{path} line {number}: the segment {text!r} is not a number (counted from 1)") from None
    if segment < 1:
        raise InputError(f"{path} line {number}: segment {segment}; segments count from 1")
    return segment


def _in_order(path: Path, system: str, segments: dict[int, float | None]) -> list[float | None]:
    """The scores of segments 1..n, where n is the highest given; every one of them must be there."""
    count = max(segments)
    missing = [segment for segment in range(1, count + 1) if segment not in segments]
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
        raise InputError(
            f"{path}: {system!r} has scores up to segment {count} but none for {counted(len(missing), 'segment')} "
            f"({shown}); give every segment, None where it was not rated"
        )
    return [segments[segment] for segment in range(1, count + 1)]
