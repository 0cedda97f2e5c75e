"""The error test sets raise: an input error (exit 2), or with ``usage`` a wrong name or option (exit 1)."""

from __future__ import annotations

from ..errors import InputError


class TestSetError(InputError):
    """A test set cannot be had or read as asked: a download that fails, a missing or corrupt file,
    an unknown name or field (``usage``: the command line asked for something that does not exist)."""

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage
