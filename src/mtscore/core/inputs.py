"""Input checks every metric shares: hypotheses, reference streams, and references prepared once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import is_not
from typing import Any, TypeGuard

import numpy as np

from ..errors import InputError, LengthMismatchError, counted, stream_mismatch
from .references import PreparedT

# Reference streams: one list per reference, a line (or None: missing) per hypothesis.
ReferenceStreams = Sequence[Sequence[str | None]]


def is_sequence(value: object) -> TypeGuard[Sequence[Any]]:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _check_items(items: Sequence[object], allowed: tuple[type, ...], problem: Callable[..., str]) -> set[type]:
    """The types of ``items`` (one fast pass when all are allowed); for the first item that is not
    an instance of ``allowed``, raise ``InputError(problem(index, item))``."""
    types = set(map(type, items))
    if not types <= set(allowed):
        for index, item in enumerate(items):
            if not isinstance(item, allowed):
                raise InputError(problem(index, item))
    return types


def check_hypotheses(hypotheses: object) -> None:
    """Hypotheses must be a non-empty list of str."""
    if isinstance(hypotheses, str):
        raise InputError("hypotheses must be a list of str, got a single str; wrap it as [hypothesis]")
    if not is_sequence(hypotheses):
        raise InputError(f"hypotheses must be a list of str, got {type(hypotheses).__name__}")
    if len(hypotheses) == 0:
        raise InputError("no hypotheses to score")
    _check_items(hypotheses, (str,), lambda index, item: f"hypothesis {index} is {type(item).__name__}, expected str")


def check_references(references: object, n_hypotheses: int | None = None) -> np.ndarray:
    """References must be a list of streams (lists of str or None), each as long as the hypotheses.
    Returns which references are there (not ``None``), streams x segments."""
    if isinstance(references, str) or not is_sequence(references):
        raise InputError(
            "references must be a list of reference streams (each a list of str, one per hypothesis), "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise InputError("no references given")
    if all(isinstance(stream, str) for stream in references):
        raise InputError(
            "references must be a list of reference streams, got a list of str; "
            "for one reference per segment pass [references]"
        )
    with_none = []
    for number, stream in enumerate(references, 1):
        if not is_sequence(stream):
            raise InputError(f"reference stream {number} is {type(stream).__name__}, expected a list of str")
        types = _check_items(
            stream,
            (str, type(None)),
            lambda index, item, number=number: (
                f"reference stream {number}, segment {index} is {type(item).__name__}, expected str or None"
            ),
        )
        with_none.append(type(None) in types)
    lengths = [len(stream) for stream in references]
    if n_hypotheses is None:
        n_hypotheses = lengths[0]
    for number, length in enumerate(lengths, 1):
        if length != n_hypotheses:
            message = stream_mismatch(n_hypotheses, number, length)
            if len(references) == n_hypotheses and len(set(lengths)) == 1:
                message += (
                    f". The references look transposed: {len(references)} lists of {length}, one per segment. "
                    "Pass one list per reference stream instead, e.g. [list(s) for s in zip(*references)]"
                )
            raise LengthMismatchError(message)
    present = np.ones((len(references), n_hypotheses), dtype=bool)
    for row, stream, none in zip(present, references, with_none, strict=True):
        if none:
            row[:] = np.fromiter(map(is_not, stream, repeat(None)), dtype=bool, count=n_hypotheses)
    if all(with_none) and not present.any(axis=0).all():
        first = int(np.argmin(present.any(axis=0)))
        raise InputError(f"segment {first} has no reference: every reference stream has None there")
    return present


def references_for(
    n_hypotheses: int, references: Any, prepared: PreparedT | None, prepare: Callable[[Any, int], PreparedT]
) -> PreparedT:
    """The references of a call: given with it (``prepare(references, n_hypotheses)``), or those
    prepared when the metric was created, which must have as many segments as the hypotheses."""
    if references is not None:
        return prepare(references, n_hypotheses)
    if prepared is None:
        raise InputError("no references: pass them here or when creating the metric")
    if prepared.n_segments != n_hypotheses:
        raise LengthMismatchError(
            f"{counted(n_hypotheses, 'hypothesis', 'hypotheses')} but the prepared references have "
            f"{counted(prepared.n_segments, 'segment')}"
        )
    return prepared


def check_sentence(hypothesis: object, references: object) -> None:
    """One segment's arguments: a str hypothesis and a list of str references (``None``: missing)."""
    if not isinstance(hypothesis, str):
        raise InputError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if isinstance(references, str):
        raise InputError(
            "references must be a list of str (one per reference), got a single str; wrap a single one as [reference]"
        )
    if not is_sequence(references):
        raise InputError(f"references must be a list of str (one per reference), got {type(references).__name__}")


def few_plain_segments(hypotheses: object, references: object, limit: int) -> list[list[str]] | None:
    """Each segment's references (the streams transposed, ``None`` dropped) when the call is at most
    ``limit`` segments of well-formed text (a list of str, a list of streams as long, each a list of str
    or ``None``, every segment with a reference); ``None`` otherwise, for the vectorised path to score
    or to refuse with its messages. Metrics score such calls in plain Python, without NumPy's fixed cost."""
    if type(hypotheses) is not list or not 0 < len(hypotheses) <= limit:
        return None
    if type(references) is not list or not references:
        return None
    n = len(hypotheses)
    for stream in references:
        if type(stream) is not list or len(stream) != n:
            return None
    if not all(type(hypothesis) is str for hypothesis in hypotheses):
        return None
    segments = []
    for lines in zip(*references, strict=True):
        present = [line for line in lines if line is not None]
        if not present or not all(type(line) is str for line in present):
            return None
        segments.append(present)
    return segments
