"""Token-id input (arrays, tensors or lists of int sequences): checked, flattened, and mapped to
dense ids through the sorted table of reference ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Union

import numpy as np

from ..errors import InputError
from .backend import is_tensor, lookup
from .keys import UNKNOWN


class _PadNotGiven:
    """``pad_id``'s default: not said. Lists of sequences need no padding; a 2-D array does not
    say which of its ids pad the rows, so the caller must (an id, or ``None``)."""

    def __repr__(self) -> str:
        return "PAD_NOT_GIVEN"


PAD_NOT_GIVEN: Final = _PadNotGiven()
PadId = Union[int, None, _PadNotGiven]  # noqa: UP007  (a runtime alias: the | form needs Python 3.10 types)


def check_pad_id(pad_id: object) -> None:
    """Refuse a ``pad_id`` that is not an integer id, ``None`` or left out (a str, a float or a bool
    would be compared with the ids as given, silently padding nothing)."""
    if pad_id is None or pad_id is PAD_NOT_GIVEN:
        return
    if isinstance(pad_id, (bool, np.bool_)) or not isinstance(pad_id, (int, np.integer)):
        raise InputError(
            f"pad_id must be an integer token id (or None for rows without padding), got {pad_id!r} "
            f"({type(pad_id).__name__})"
        )


def refuse_text_array(batch, what: str) -> None:
    """Refuse a NumPy array of strings (or objects): text, which goes as a list of str, not token ids."""
    if isinstance(batch, np.ndarray) and batch.dtype.kind in "USO":
        raise InputError(
            f"{what} is a NumPy array of {batch.dtype} items, not token ids: give text as a list of str "
            "(array.tolist()), or token ids as a 2-D integer array"
        )


def is_token_ids(batch) -> bool:
    """Token ids rather than text: an array or tensor, or a list whose items are sequences of ints."""
    if isinstance(batch, np.ndarray) or is_tensor(batch):
        return True
    if isinstance(batch, (str, bytes)) or not isinstance(batch, Sequence):
        return False
    first = next((item for item in batch if item is not None), None)
    return (isinstance(first, (np.ndarray, Sequence)) and not isinstance(first, (str, bytes))) or is_tensor(first)


def _check_integer(array, what: str) -> None:
    dtype = array.dtype
    if is_tensor(array):
        integer = not (dtype.is_floating_point or dtype.is_complex) and str(dtype) != "torch.bool"
    else:
        integer = dtype.kind in "iu"
    if not integer:
        raise InputError(f"{what} must hold integer token ids, got dtype {dtype}")


def id_rows(batch, pad_id: PadId, ops, what: str) -> tuple:
    """Flat ids, lengths and presence of a batch of id sequences: a 2-D array or tensor (rows
    are segments; every ``pad_id`` is dropped, which must be said) or a list of int sequences
    (``None``: missing)."""
    if isinstance(batch, np.ndarray) or is_tensor(batch):
        refuse_text_array(batch, what)
        if batch.ndim != 2:
            raise InputError(f"{what} must be a 2-D array of token ids (segments x positions), got {batch.ndim}-D")
        _check_integer(batch, what)
        if pad_id is PAD_NOT_GIVEN:
            raise InputError(
                f"{what}: a 2-D array of token ids needs pad_id: say which id pads its rows (pad_id=ID), or "
                "pad_id=None if no row is padded (padding left in would be counted as tokens)"
            )
        rows = ops.asarray(batch)
        present = np.ones(len(rows), dtype=bool)
        if pad_id is None:
            return rows.reshape(-1), ops.full(len(rows), rows.shape[1]), present
        keep = rows != pad_id
        return rows[keep], keep.sum(1), present
    present = np.array([row is not None for row in batch], dtype=bool)
    rows = [
        ops.asarray(np.zeros(0, dtype=np.int64)) if row is None else _as_row(row, ops, what, i)
        for i, row in enumerate(batch)
    ]
    ids = ops.concat(rows) if rows else ops.asarray(np.zeros(0, dtype=np.int64))
    lengths = ops.asarray([len(row) for row in rows])
    if pad_id is not None and pad_id is not PAD_NOT_GIVEN:
        keep = ids != pad_id
        segment = ops.repeat(ops.arange(len(rows)), lengths)
        ids, lengths = ids[keep], ops.group_sum(segment, keep, len(rows))
    return ids, lengths, present


def _as_row(row, ops, what: str, index: int):
    if is_tensor(row):
        array = row
    else:
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise InputError(f"{what}, segment {index} is {type(row).__name__}, expected a sequence of int ids")
        array = np.asarray(row) if len(row) else np.zeros(0, dtype=np.int64)
    if array.ndim != 1:
        raise InputError(f"{what}, segment {index} must be a flat sequence of int ids")
    _check_integer(array, f"{what}, segment {index}")
    return ops.asarray(array)


def encode_ids(ids, table, ops):
    """Raw token ids as their index in the sorted reference ``table`` (``UNKNOWN`` where absent);
    through a ``range`` table, the ids themselves (counting ignores ids outside it)."""
    if isinstance(table, range):
        return ids
    index, found = lookup(ops, table, ids)
    index[~found] = UNKNOWN
    return index
