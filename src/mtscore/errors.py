"""Errors raised for user mistakes: a clear message, never a wrong score.

``MtscoreError`` is the base of every error mtscore raises for a user mistake; ``InputError`` (also a
``ValueError``) says the input cannot be scored as given. ``BleuInputError``, its name before every
metric raised it, still works for one release, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import warnings


def counted(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun``, plural unless the count is 1: "1 hypothesis", "2 hypotheses"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def stream_mismatch(n_hypotheses: int, stream: int, segments: int, unit: str = "line") -> str:
    """Why reference stream number ``stream``, of ``segments`` segments, does not fit the hypotheses."""
    return (
        f"{counted(n_hypotheses, 'hypothesis', 'hypotheses')} but reference stream {stream} has "
        f"{counted(segments, 'segment')}; every reference stream needs one {unit} per hypothesis"
    )


class MtscoreError(Exception):
    """The base of every error mtscore raises for a user mistake."""


class InputError(MtscoreError, ValueError):
    """The input cannot be scored as given (bad file, bad shape, bad option)."""


class LengthMismatchError(InputError):
    """Hypotheses and a reference stream have different numbers of segments."""


# Old name -> the error it is now (kept one release).
DEPRECATED = {"BleuInputError": "InputError"}


def __getattr__(name: str) -> type[Exception]:
    """A deprecated name of an error: the error itself, with a ``DeprecationWarning``."""
    if name in DEPRECATED:
        warnings.warn(
            f"mtscore's {name} is now {DEPRECATED[name]} (raised by every metric); {name} will be removed",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[DEPRECATED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
