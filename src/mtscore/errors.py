"""Errors raised for user mistakes: a clear message, never a wrong score."""


def counted(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun``, plural unless the count is 1: "1 hypothesis", "2 hypotheses"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def stream_mismatch(n_hypotheses: int, stream: int, segments: int, unit: str = "line") -> str:
    """Why reference stream number ``stream``, of ``segments`` segments, does not fit the hypotheses."""
    return (
        f"{counted(n_hypotheses, 'hypothesis', 'hypotheses')} but reference stream {stream} has "
        f"{counted(segments, 'segment')}; every reference stream needs one {unit} per hypothesis"
    )


class BleuInputError(ValueError):
    """The input cannot be scored as given (bad file, bad shape, bad option)."""


class LengthMismatchError(BleuInputError):
    """Hypotheses and a reference stream have different numbers of segments."""
