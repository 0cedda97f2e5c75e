"""The ``mtscore`` command: ``score`` (the default form, ``mtscore REF -i HYP``) and the subcommands
that ``commands.COMMANDS`` lists (``explain``, ``report``, ``meta-eval``, ``stats``/``merge`` in
``shards``, ``help``), on the options, exit codes and checks of ``common``. May import everything below it (``report``,
``significance``, ``metaeval``, ``metrics``, ``core`` ...); nothing imports ``cli``.

Exit codes: 0 success, 1 usage error (bad option or arguments), 2 input error (unreadable or
malformed files, mismatched line counts, empty input), 3 output error (the results could not be
written: a full disk or an output that fails).
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
from collections.abc import Callable
from importlib import import_module

from ..errors import InputError
from . import score
from .commands import COMMANDS
from .common import EXIT_INPUT, EXIT_OK, EXIT_OUTPUT, EXIT_USAGE, UsageError

__all__ = ["EXIT_INPUT", "EXIT_OK", "EXIT_OUTPUT", "EXIT_USAGE", "main"]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mtscore`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    subcommand = argv[0] if argv and argv[0] in COMMANDS else None
    _write_utf8()
    try:
        code = subcommand_runner(subcommand)(argv[1:]) if subcommand else score.run(argv)
        sys.stdout.flush()  # a write error surfaces here, not after main has returned
        return code
    except UsageError as error:
        command = f"mtscore {subcommand}" if subcommand else "mtscore"
        print(f"{command}: usage error: {error}\nTry '{command} --help'.", file=sys.stderr)
        return EXIT_USAGE
    except InputError as error:
        print(f"mtscore: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        print(
            "mtscore: error: out of memory: the input or the options ask for more memory than is available "
            "(split very long lines or large files, or lower the option values)",
            file=sys.stderr,
        )
        return EXIT_INPUT
    except UnicodeEncodeError as error:
        print(
            f"mtscore: error: cannot write the results: standard output takes {error.encoding} only, which has no "
            f"{error.object[error.start : error.end]!a}; set PYTHONIOENCODING=utf-8",
            file=sys.stderr,
        )
        return EXIT_OUTPUT
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`); nothing to report
        return EXIT_OK
    except OSError as error:
        if error.errno not in _WRITE_ERRORS:  # reading errors are input errors (files.read says which)
            raise
        # The interpreter's last flush would fail again: what is left goes to the null device.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"mtscore: error: cannot write the results: {error.strerror or error}", file=sys.stderr)
        return EXIT_OUTPUT


def subcommand_runner(name: str) -> Callable[[list[str]], int]:
    """The function that runs ``mtscore NAME ...`` (its module imported now)."""
    module, _, function = COMMANDS[name][0].partition(":")
    return getattr(import_module(f".{module}", __name__), function)


def _write_utf8() -> None:
    """Standard output in UTF-8 whatever the locale or ``PYTHONIOENCODING`` says, as sacrebleu writes
    it (its command line reopens standard output as UTF-8): the same bytes, and no score lost to an
    encoding without ``μ`` or a segment's characters."""
    stdout = sys.stdout
    encoding = getattr(stdout, "encoding", None)
    if encoding is None or not hasattr(stdout, "reconfigure"):
        return
    if codecs.lookup(encoding).name != "utf-8":
        stdout.reconfigure(encoding="utf-8", errors=stdout.errors)


# Errors that only writing raises: no space left, a file too large, a quota, a failing device.
_WRITE_ERRORS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}
