"""The ``mtscore`` command: ``score`` (the default form, ``mtscore REF -i HYP``) and ``explain``,
on the options, exit codes and checks of ``common``. May import everything below it (``report``,
``significance``, ``metrics``, ``core`` ...); nothing imports ``cli``.

Exit codes: 0 success, 1 usage error (bad option or arguments), 2 input error (unreadable or
malformed files, mismatched line counts, empty input).
"""

from __future__ import annotations

import sys

from ..errors import BleuInputError
from . import explain, score
from .common import EXIT_INPUT, EXIT_OK, EXIT_USAGE, UsageError

__all__ = ["EXIT_INPUT", "EXIT_OK", "EXIT_USAGE", "main"]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mtscore`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    explaining = bool(argv) and argv[0] == "explain"
    try:
        return explain.run(argv[1:]) if explaining else score.run(argv)
    except UsageError as error:
        command = "mtscore explain" if explaining else "mtscore"
        print(f"{command}: usage error: {error}\nTry '{command} --help'.", file=sys.stderr)
        return EXIT_USAGE
    except BleuInputError as error:
        print(f"mtscore: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing to report
        return EXIT_OK
