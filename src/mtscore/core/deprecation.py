"""Old names kept for one release: each use warns with a ``DeprecationWarning`` naming its replacement."""

from __future__ import annotations

import warnings


def warn_renamed(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` is now ``new`` and will be removed.

    Args:
        old: The deprecated name, as the caller wrote it (``BLEU.stats``).
        new: The name to use instead (``BLEU.statistics``).
        stacklevel: The frame the warning points at; the default is the caller of the function that warns.
    """
    warnings.warn(f"mtscore's {old} is now {new}; {old} will be removed", DeprecationWarning, stacklevel=stacklevel)
