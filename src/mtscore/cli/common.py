"""What every subcommand shares: exit codes, the parser that reports usage errors, every metric's
options built from its declarations (``metrics.metric_options``), reading files and checking their
line counts, writing an output file whole. Light: building a parser loads no metric (and no NumPy).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import InputError
from ..metrics import metric_class, metric_options, metric_title

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..core.options import Option

EXIT_OK, EXIT_USAGE, EXIT_INPUT, EXIT_OUTPUT = 0, 1, 2, 3
STDIN = "-"


class UsageError(Exception):
    """Wrong arguments: exit 1 with a message."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are ``UsageError`` (argparse would exit 2, which is kept
    for input errors) and that takes no option as an abbreviation of another: ``-t wmt22`` is not
    ``-tok wmt22`` and ``-l en-de`` is not ``-lc`` (sacrebleu's ``-t`` and ``-l`` mean other things)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def _get_option_tuples(self, option_string: str) -> list[Any]:
        # argparse's prefix matching; allow_abbrev=False leaves single-dash options (-t for -tok) to it.
        return []


class VersionAction(argparse.Action):
    """``--version``: prints ``mtscore VERSION`` and exits, reading the installed version only when
    asked (``importlib.metadata`` costs about 15 ms that ``--help`` and scoring need not pay)."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: Any = argparse.SUPPRESS,
        help: str = "show program's version number and exit",
    ):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> NoReturn:
        from ..version import __version__

        print(f"mtscore {__version__}")
        parser.exit()


def add_metric_options(parser: argparse.ArgumentParser, names: Iterable[str], grouped: bool) -> None:
    """The declared options of each metric in ``names``, with sacrebleu's flags; ``grouped``: each
    metric's under a title of its own, ``chrF (with -m chrf)``."""
    for name in names:
        target = parser.add_argument_group(f"{metric_title(name)} (with -m {name})") if grouped else parser
        for option in metric_options(name):
            if option.kind is bool:
                target.add_argument(*option.flags, dest=option_dest(option), action="store_true", help=option.help)
            else:
                target.add_argument(
                    *option.flags,
                    dest=option_dest(option),
                    type=option.kind,
                    default=option.default,
                    choices=option.choice_list(),
                    metavar=option.metavar,
                    nargs=option.nargs,
                    help=option.help,
                )


def option_dest(option: Option) -> str:
    """The attribute that holds an option's value: its first long flag, as argparse names it
    (``--smooth-method``: ``smooth_method``)."""
    flag = next((flag for flag in option.flags if flag.startswith("--")), option.flags[0])
    return flag.lstrip("-").replace("-", "_")


def metric_keywords(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """The constructor keywords of metric ``name`` given on the command line, by its declared options
    (a switch's flag turns it away from its default: ``--ter-case-sensitive`` is ``lowercase=False``)."""
    return {option.name: _value(option, getattr(args, option_dest(option))) for option in metric_options(name)}


def _value(option: Option, parsed: Any) -> Any:
    """The value of ``option`` as the parser gave it: for a switch, whether its flag was given."""
    return option.switch_value(parsed) if option.kind is bool else parsed


def configured_metric(args: argparse.Namespace, name: str) -> Metric:
    """Metric ``name`` with the options of the command line, without references: bad option values
    are usage errors, found before any file is read."""
    try:
        return metric_class(name)(**metric_keywords(args, name))
    except InputError as error:
        raise UsageError(str(error)) from None


def read(path: str, encoding: str = "utf-8") -> list[str]:
    """The segments of a file (``-``: standard input), each without its trailing whitespace as
    sacrebleu's command line reads them (``str.rstrip``: chrF with ``--chrf-whitespace`` would
    count it); unreadable or malformed files are input errors."""
    from ..files.read import read_lines

    return [line.rstrip() for line in read_lines(path, encoding)]


def check_counts(
    ref_paths: Sequence[str], ref_counts: Sequence[int], hyp_paths: Sequence[str], hyp_counts: Sequence[int]
) -> None:
    """Every file has lines, and as many as the first reference file."""
    for path, count, what in [
        *zip(ref_paths, ref_counts, ["references"] * len(ref_paths), strict=True),
        *zip(hyp_paths, hyp_counts, ["hypotheses"] * len(hyp_paths), strict=True),
    ]:
        if count == 0:
            raise InputError(f"{_display(path)} is empty: no {what} to score")
    for path, count in zip(ref_paths[1:], ref_counts[1:], strict=True):
        if count != ref_counts[0]:
            raise InputError(
                f"reference files differ in length: {_display(ref_paths[0])} has {_lines(ref_counts[0])}, "
                f"{_display(path)} has {count}"
            )
    for path, count in zip(hyp_paths, hyp_counts, strict=True):
        if count != ref_counts[0]:
            raise InputError(
                f"{_display(path)} has {_lines(count)} but {_display(ref_paths[0])} has {ref_counts[0]}; "
                "hypotheses and references need one line per segment"
            )


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _display(path: str) -> str:
    return "standard input" if path == STDIN else path


def print_lines(lines: Iterable[str]) -> None:
    """Each line to standard output as it comes."""
    sys.stdout.writelines(f"{line}\n" for line in lines)


def write_file(path: str, data: bytes, command: str) -> int:
    """Write ``data`` to ``path`` whole or not at all (a temporary file beside the file a link points
    to, renamed into place, keeping an existing file's mode); a device or a pipe is written to
    directly. A file that cannot be written is an output error (exit 3) saying why, not a traceback."""
    import stat
    import tempfile  # here: it costs start-up time that --help need not pay

    try:
        try:
            mode = os.stat(path).st_mode  # through links
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):  # /dev/stdout, a named pipe: no rename
            with open(path, "wb") as out:
                out.write(data)
            return EXIT_OK
        target = os.path.realpath(path)  # a link keeps pointing where it did
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".mtscore-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.chmod(temporary, 0o666 & ~_umask() if mode is None else stat.S_IMODE(mode))
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as error:
        print(f"{command}: error: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return EXIT_OUTPUT
    return EXIT_OK


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
