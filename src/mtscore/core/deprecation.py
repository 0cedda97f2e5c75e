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


def warn_renamed_keyword(
    owner: str, old: str, new: str, old_value: object, new_value: object, stacklevel: int = 4
) -> None:
    """Warn that keyword ``old`` of ``owner`` (a metric's class name) is now ``new``, and what the value
    given means under the new name (``case_sensitive=True`` is ``lowercase=False``).

    Args:
        owner: The class whose constructor took the keyword (``TER``).
        old: The deprecated keyword.
        new: The keyword to use instead.
        old_value: The value given to ``old``.
        new_value: The value of ``new`` it stands for.
        stacklevel: The frame the warning points at; the default is the code that created the metric
            (past ``core.options.replace_renamed`` and the constructor's check of its keywords).
    """
    warnings.warn(
        f"mtscore's {owner}({old}=...) is now {owner}({new}=...): {old}={old_value!r} is {new}={new_value!r}; "
        f"{old} will be removed",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
