"""The ``mtscore`` command. May import everything below it (``report``, ``significance``, ``metrics``,
``core`` ...); nothing imports ``cli``."""

from .score import EXIT_INPUT, EXIT_OK, EXIT_USAGE, main

__all__ = ["EXIT_INPUT", "EXIT_OK", "EXIT_USAGE", "main"]
