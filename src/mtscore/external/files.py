"""Reading each segment's score of each system from a file, in one of two forms:

- mt-metrics-eval's ``<name>.seg.score``: ``<system> <score>`` per line, each system's segments in
  order (its lines need not be adjacent);
- a TSV file (any other name): ``<system> TAB <segment> TAB <score>`` per line, segments numbered
  from 1 in any order, after an optional header line ``system TAB segment TAB score``.

``None`` or an empty score marks a segment nobody rated (human scores): it is left out of the system's
mean. A ``.sys.score`` file or a system-level TSV (``<system> TAB <score>``, one number per system) is
refused here: resampling and paired tests need the segments (``read_tsv_scores`` reads both levels,
for meta-evaluation). Every system must list every one of its segments once; a NaN, an infinity, a score
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
SYSTEM_TSV_HEADER = ["system", "score"]


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
    if path.name.endswith(".seg.score"):
        scores = _read_seg_score(path, lines)
    else:
        level, scores = read_tsv_scores(path, lines)
        if level == "sys":
            raise InputError(
                f"{path} holds one score per system (system<TAB>score); mtscore needs each segment's score to "
                "resample and compare systems: give system<TAB>segment<TAB>score lines"
            )
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


def read_tsv_scores(path: Path, lines: list[str], *, allow_none: bool = True) -> tuple[str, SegmentScores]:
    """The scores of a TSV file: ``system TAB segment TAB score`` lines (segment level, segments numbered
    from 1 in any order) or ``system TAB score`` lines (system level), after an optional header line.
    The first line decides the level; every line must have as many fields.

    Args:
        path: The file, for messages.
        lines: Its lines.
        allow_none: Whether ``None`` or an empty score (not rated) is allowed (human scores).

    Returns:
        ``("seg", system -> scores of segments 1..n)`` or ``("sys", system -> [its score])``.

    Raises:
        InputError: a line with another number of fields, an empty system name, a bad segment number,
            a segment or system given twice, a missing segment, or a score that is not a finite number.
    """
    header = lines[0].split("\t") if lines else []
    start = 1 if header in (TSV_HEADER, SYSTEM_TSV_HEADER) else 0
    body = lines[start:]
    if not body:
        raise InputError(f"{path} has no scores")
    fields_per_line = len(header) if start else len(body[0].split("\t"))
    if fields_per_line not in (2, 3):
        raise InputError(
            f"{path} line {start + 1}: expected 'system<TAB>segment<TAB>score' or 'system<TAB>score' (a TSV score "
            f"file; mt-metrics-eval's files end in .seg.score or .sys.score), got {body[0]!r}"
        )
    level = "seg" if fields_per_line == 3 else "sys"
    layout = "system<TAB>segment<TAB>score" if level == "seg" else "system<TAB>score"
    by_segment: dict[str, dict[int, float | None]] = {}
    for number, line in enumerate(body, start + 1):
        fields = line.split("\t")
        if len(fields) != fields_per_line:
            raise InputError(f"{path} line {number}: expected '{layout}' as on the lines before, got {line!r}")
        system = fields[0]
        if not system:
            raise InputError(f"{path} line {number}: the system's name is empty")
        segment = _segment_number(fields[1], path, number) if level == "seg" else 1
        segments = by_segment.setdefault(system, {})
        if segment in segments:
            given = f"segment {segment} of {system!r}" if level == "seg" else f"the system {system!r}"
            raise InputError(f"{path} line {number}: {given} is given twice")
        score_text = fields[-1].strip()
        if allow_none and not score_text:
            score_text = "None"
        segments[segment] = parse_score(score_text, path, number, allow_none)
    return level, {system: _in_order(path, system, segments) for system, segments in by_segment.items()}


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
