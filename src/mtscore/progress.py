"""A progress bar on standard error, shown only when it is a terminal and the run is long."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``label  42% [########          ] 420/1000``, redrawn in place; silent unless stderr is a
    terminal and ``delay`` seconds have passed, so short runs and pipes stay clean."""

    def __init__(
        self,
        label: str,
        total: int,
        stream: TextIO | None = None,
        delay: float = 1.0,
        force: bool = False,
        unit: str = "",
        scale: int = 1,
    ):
        self.label, self.total, self.done = label, max(total, 1), 0
        self.unit, self.scale = unit, scale
        self.stream = sys.stderr if stream is None else stream
        self.enabled = force or bool(getattr(self.stream, "isatty", lambda: False)())
        self.start, self.delay, self.shown = time.monotonic(), delay, False

    def advance(self, amount: int = 1) -> None:
        self.done = min(self.done + amount, self.total)
        if self.enabled and time.monotonic() - self.start >= self.delay:
            self._draw()

    def _draw(self) -> None:
        fraction = self.done / self.total
        bar = "#" * int(30 * fraction)
        amount = f"{self.done // self.scale}/{self.total // self.scale}{' ' + self.unit if self.unit else ''}"
        self.stream.write(f"\r{self.label} {fraction:4.0%} [{bar:<30}] {amount}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """End the line if a bar was drawn."""
        if self.shown:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
