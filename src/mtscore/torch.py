"""Scores inside a training loop, on one process or many: a stateful metric over summed statistics.

``StreamingScore`` keeps one row of statistics, the column sums of every batch it was given
(int64 where the statistics are integers, so counts stay exact however many batches there are);
``compute()`` sums that row across the processes of ``torch.distributed`` (``all_reduce``: gloo on
CPU, nccl on GPU) when a process group is running, and scores it once. The score is the corpus
score of every segment seen, on every process. ``torchmetrics_score`` gives the same state as a
``torchmetrics.Metric``. torch (and torchmetrics) are imported only by what uses them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .core.metric import Metric
from .core.sums import empty_state, score_state, state_of, summable
from .errors import BleuInputError
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
        self.metric = summable(metric_object(metric, options))
        self.empty = empty_state(self.metric)
        self.sums = self.empty.copy()  # the column sums of every batch, then the number of segments

    def update(self, hypotheses: Any, references: Any) -> None:
        """Add a batch: hypotheses (text, or token ids as the metric takes them) and its reference streams."""
        self.merge_state(state_of(self.metric, hypotheses, references))

    def merge_state(self, state: Any) -> None:
        """Add another scorer's ``state()``, as if its batches had been given here."""
        row = np.asarray(state)
        if row.shape != self.sums.shape:
            raise BleuInputError(
                f"a state of this {self.metric.name} scorer is a row of {len(self.sums)} numbers, got shape {row.shape}"
            )
        self.sums = self.sums + row

    def state(self) -> np.ndarray:
        """This process's state: the column sums of its batches, then their number of segments (a copy)."""
        return self.sums.copy()

    def reset(self) -> None:
        """Forget every batch (at the start of an evaluation epoch)."""
        self.sums = self.empty.copy()

    def compute(self) -> Any:
        """The corpus score of every batch given to every process (``all_reduce`` of the sums when a
        ``torch.distributed`` process group is running: every process must call it, with or without
        batches of its own)."""
        return score_state(self.metric, all_reduced(self.sums), _NOTHING)


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
    """A ``torchmetrics.Metric`` with ``StreamingScore``'s state: the column sums, kept as int64
    (torchmetrics' own BLEU keeps its counts in float32, exact only up to 2**24) and summed across
    processes by torchmetrics. ``compute()`` gives the score as a float64 tensor; ``.result()``
    the metric's full result."""
    import torch
    import torchmetrics

    scorer = StreamingScore(metric, **options)

    class _Score(torchmetrics.Metric):
        full_state_update = False
        higher_is_better = scorer.metric.higher_is_better
        sums: Any

        def __init__(self) -> None:
            super().__init__()
            self.scorer = scorer
            self.add_state("sums", default=torch.as_tensor(scorer.empty), dist_reduce_fx="sum")

        def update(self, hypotheses: Any, references: Any) -> None:
            scorer.reset()
            scorer.update(hypotheses, references)
            self.sums = self.sums + torch.as_tensor(scorer.state(), device=self.sums.device)

        def result(self) -> Any:
            """The metric's full result (a ``BLEUScore``, ...) of the state."""
            return score_state(scorer.metric, self.sums.cpu().numpy(), _NOTHING)

        def compute(self) -> Any:
            return torch.tensor(self.result().score, dtype=torch.float64)

    return _Score()
