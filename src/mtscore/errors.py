"""Errors raised for user mistakes: a clear message, never a wrong score."""


class BleuInputError(ValueError):
    """The input cannot be scored as given (bad file, bad shape, bad option)."""


class LengthMismatchError(BleuInputError):
    """Hypotheses and a reference stream have different numbers of segments."""
