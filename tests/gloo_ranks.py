"""Real ``torch.distributed`` processes for the tests: ``gloo_ranks(work, world, *args)`` spawns
``world`` processes joined in a gloo group on 127.0.0.1, runs ``work(rank, world, *args)`` in
each, and returns each rank's result (a JSON-able dict), in rank order.

A module of its own, with a name no other test folder uses: the spawned processes import the test
module that holds ``work``, and with it this one (a ``conftest`` could resolve to another folder's).
The group's set-up has a timeout, so a rank that fails early ends the test instead of hanging it.
"""

from __future__ import annotations

import datetime
import json
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

SETUP_TIMEOUT = datetime.timedelta(seconds=120)


def gloo_ranks(work: Callable[..., dict[str, Any]], world: int, *args: Any) -> list[dict[str, Any]]:
    """Each rank's ``work(rank, world, *args)`` (a module-level function, so that it pickles)."""
    import torch.multiprocessing

    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "rank")
        torch.multiprocessing.spawn(_rank, args=(world, _free_port(), out, work, args), nprocs=world, join=True)
        results = []
        for rank in range(world):
            with open(f"{out}.{rank}") as handle:
                results.append(json.load(handle))
    return results


def _rank(rank: int, world: int, port: int, out: str, work: Callable[..., dict[str, Any]], args: tuple) -> None:
    """One process: join the group, run ``work``, write its result to ``out.RANK``."""
    import torch.distributed as dist

    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world, timeout=SETUP_TIMEOUT
    )
    try:
        result = work(rank, world, *args)
        with open(f"{out}.{rank}", "w") as handle:
            json.dump(result, handle)
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
