"""``References``: what every metric's prepared references share (which are there, how many)."""

from __future__ import annotations

from typing import TypeVar

import numpy as np


class References:
    """Reference streams prepared once for any number of systems. ``present`` says which
    references are there (streams x segments; ``None`` in a stream is a missing one)."""

    def __init__(self, present: np.ndarray):
        self.present = present
        self.n_segments = present.shape[1]
        counts = set(present.sum(axis=0).tolist())
        # sacrebleu's signature field: the references per segment, or "var" when that varies.
        self.nrefs: int | str = counts.pop() if len(counts) == 1 else "var"


# A metric's own prepared references (a ``References`` subclass).
PreparedT = TypeVar("PreparedT", bound=References)
