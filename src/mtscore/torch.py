"""Scores inside a training loop, on one process or many: a stateful metric over mergeable states.

``StreamingScore`` keeps the merge of the states of every batch it was given (``core.sums``: for
most metrics one row, the column sums of the statistics, int64 where they are integers, so
counts stay exact however many batches there are; NIST's n-gram tables); ``compute()`` merges
the processes' states when a ``torch.distributed`` process group is running (a row by
``all_reduce``: gloo on CPU, nccl on GPU; other states by ``all_gather_object``), and scores the
merge once. The score is the corpus score of every segment seen, on every process.
``torchmetrics_score`` gives the same state as a ``torchmetrics.Metric``. torch (and
torchmetrics) are imported only by what uses them.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .core.metric import Metric
from .core.sums import merge_states, score_state, state_bytes, state_from_bytes
from .errors import InputError
from .metrics import metric_object

__all__ = ["StreamingScore", "torchmetrics_score"]

_NOTHING = "nothing to score: no process was given a batch (call update() first)"


class StreamingScore:
    """Corpus score of everything ``update`` was given, on this process and (``compute``) on all.

    >>> scorer = StreamingScore("bleu")
    >>> scorer.update(["the cat sat on the mat"], [["the cat sat on the mat"]])
    >>> scorer.compute().score
    100.0
    """

    def __init__(self, metric: Metric | str = "bleu", **options: Any):
        """``metric``: a metric object without references, or a name (``"bleu"``, ``"chrf"``, ...)
        with its options as keywords."""
        self.metric = metric_object(metric, options)
        self.empty = self.metric.aggregation.empty_shard_state(self.metric)
        self.total = self.empty  # the merged state of every batch

    def update(self, hypotheses: Any, references: Any) -> None:
        """Add a batch: hypotheses (text, or token ids as the metric takes them) and its reference streams."""
        self.merge_state(self.metric.aggregation.shard_state(self.metric, hypotheses, references))

    def merge_state(self, state: Any) -> None:
        """Add another scorer's ``state()``, as if its batches had been given here."""
        if isinstance(self.empty, np.ndarray):
            state = np.asarray(state)
            if state.shape != self.empty.shape:
                raise InputError(
                    f"a state of this {self.metric.name} scorer is a row of {len(self.empty)} numbers, "
                    f"got shape {state.shape}"
                )
        elif type(state) is not type(self.empty):
            raise InputError(f"a state of this {self.metric.name} scorer is a {type(self.empty).__name__}")
        self.total = self.total + state

    def state(self) -> Any:
        """This process's state: the merge of its batches' states (a row is copied; others are immutable)."""
        return self.total.copy() if isinstance(self.total, np.ndarray) else self.total

    def reset(self) -> None:
        """Forget every batch (at the start of an evaluation epoch)."""
        self.total = self.empty

    def compute(self) -> Any:
        """The corpus score of every batch given to every process (the states merged across the
        processes when a ``torch.distributed`` process group is running: every process must call
        it, with or without batches of its own)."""
        total = self.total
        merged = all_reduced(total) if isinstance(total, np.ndarray) else all_gathered(total)
        return score_state(self.metric, merged, _NOTHING)


def all_gathered(state: Any) -> Any:
    """The merge of every process's ``state`` (any picklable state), in rank order, the same on
    every process (itself without a ``torch.distributed`` group)."""
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        return state
    states: list[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(states, state)
    return merge_states(states)


def all_reduced(row: np.ndarray) -> np.ndarray:
    """``row`` summed over the processes of the running ``torch.distributed`` group (itself without one).
    Integer rows travel as int64 and come back exact."""
    import torch
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        return row
    kind = torch.int64 if row.dtype.kind in "iu" else torch.float64
    tensor = torch.as_tensor(row, dtype=kind)
    if dist.get_backend() == "nccl":
        tensor = tensor.cuda()
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return tensor.cpu().numpy().astype(row.dtype, copy=False)


def torchmetrics_score(metric: Metric | str = "bleu", **options: Any) -> Any:
    """A ``torchmetrics.Metric`` with ``StreamingScore``'s state, synchronised by torchmetrics: a row
    of sums stays int64 (torchmetrics' own BLEU keeps its counts in float32, exact only up to
    2**24) and is summed across processes; n-gram tables (NIST) travel as bytes, each batch's state
    one length-prefixed frame, gathered in rank order and merged. ``compute()`` gives the score as a
    float64 tensor; ``.result()`` the metric's full result. Two of them with the same metric and
    options merge with ``merge_state``."""
    scorer = StreamingScore(metric, **options)
    return _torchmetrics_class(scorer.metric.higher_is_better)(scorer)


_FRAMES = 16  # NIST: batch frames kept before they are merged into one (memory stays bounded)


@functools.cache
def _torchmetrics_class(higher_is_better: bool) -> type:
    """The ``torchmetrics.Metric`` subclass of ``torchmetrics_score`` (made once per direction, which
    torchmetrics keeps on the class: its ``merge_state`` takes only instances of the same class)."""
    import torch
    import torchmetrics

    better = higher_is_better

    class TorchmetricsScore(torchmetrics.Metric):
        full_state_update = False
        higher_is_better = better
        sums: Any
        frames: Any

        def __init__(self, scorer: StreamingScore) -> None:
            super().__init__()
            self.scorer = scorer
            self.summed = isinstance(scorer.empty, np.ndarray)
            if self.summed:
                self.add_state("sums", default=torch.as_tensor(scorer.empty), dist_reduce_fx="sum")
            else:
                self.add_state("frames", default=[], dist_reduce_fx="cat")
                self.reset()

        def reset(self) -> None:
            super().reset()
            if not self.summed:  # the empty state's frame: torchmetrics would send an empty list as float32
                self.frames = [self._frame(self.scorer.empty)]

        def update(self, hypotheses: Any, references: Any) -> None:
            metric = self.scorer.metric
            batch = metric.aggregation.shard_state(metric, hypotheses, references)
            if self.summed:
                self.sums = self.sums + torch.as_tensor(batch, device=self.sums.device)
                return
            frames = [*self.frames, self._frame(batch)]
            self.frames = [self._frame(self._merged(frames))] if len(frames) > _FRAMES else frames

        def merge_state(self, incoming_state: Any) -> None:
            """Add another ``torchmetrics_score``'s batches (of the same metric and options)."""
            theirs = getattr(incoming_state, "scorer", None)
            if theirs is not None and theirs.metric.signature() != self.scorer.metric.signature():
                mine = self.scorer.metric
                raise InputError(
                    f"a {mine.name} score ({mine.signature()}) cannot merge a {theirs.metric.name} score "
                    f"({theirs.metric.signature()}): merge scores of the same metric and options"
                )
            super().merge_state(incoming_state)

        def _frame(self, state: Any) -> Any:
            return torch.as_tensor(_framed(state), device=self.device)

        def _merged(self, frames: Any) -> Any:
            frames = frames if isinstance(frames, list) else [frames]  # one tensor once synchronised
            data = b"".join(frame.to(torch.uint8).cpu().numpy().tobytes() for frame in frames)
            return merge_states([self.scorer.empty, *_unframed(data)])

        def result(self) -> Any:
            """The metric's full result (a ``BLEUScore``, ...) of the state."""
            state = self.sums.cpu().numpy() if self.summed else self._merged(self.frames)
            return score_state(self.scorer.metric, state, _NOTHING)

        def compute(self) -> Any:
            return torch.tensor(self.result().score, dtype=torch.float64)

    return TorchmetricsScore


def _framed(state: Any) -> np.ndarray:
    """A state as bytes (uint8) after its length (8 bytes, little-endian): frames concatenated by
    torchmetrics' gather stay apart."""
    data = state_bytes(state)
    return np.frombuffer(bytearray(len(data).to_bytes(8, "little") + data), dtype=np.uint8)


def _unframed(data: bytes) -> list[Any]:
    """The states of concatenated frames, in order."""
    states, at = [], 0
    while at < len(data):
        size = int.from_bytes(data[at : at + 8], "little")
        states.append(state_from_bytes(data[at + 8 : at + 8 + size]))
        at += 8 + size
    return states
