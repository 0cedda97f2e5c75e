"""BLEU (Papineni et al., 2002) and the metrics beside it, exact to their reference tools, on a vectorised engine.

Every metric of ``mtscore.metrics.BUILTIN`` is here by the names its package exports: its class
(``BLEU``, ``CHRF``, ``TER``, ``GoogleBLEU``, ``WER``, ``CER``, ``METEOR``, ``NIST``: references
prepared once), its result class, and ``corpus_X``, ``sentence_X`` and ``sentence_Xs`` (every
segment at once). ``explain`` and ``tokenize`` take any metric's name (``metric=``, BLEU by
default); BLEU adds ``sentence_scores``, ``Stats`` and ``SentenceScores``. Then ``paired_test``
(significance), ``Signature``, the errors and ``__version__``. ``mtscore.nltk`` and
``mtscore.sacrebleu`` are drop-ins for NLTK's and sacrebleu's.

Everything but the errors is imported on first use (the version too: it is read from the installed
metadata), so that ``import mtscore`` and the command line start without loading NumPy. The imports
under ``TYPE_CHECKING`` are for type checkers and the API docs; what exists at run time is
derived from the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from . import errors
from .errors import InputError, LengthMismatchError, MtscoreError
from .lazy import lazy_attributes

if TYPE_CHECKING:
    from .core.signature import Signature
    from .metrics.bleu import (
        BLEU,
        BLEUScore,
        SentenceScores,
        Stats,
        corpus_bleu,
        explain,
        sentence_bleu,
        sentence_scores,
        tokenize,
    )
    from .metrics.cer import CER, CERScore, corpus_cer, sentence_cer, sentence_cers
    from .metrics.chrf import CHRF, CHRFScore, corpus_chrf, sentence_chrf, sentence_chrfs
    from .metrics.google_bleu import (
        GoogleBLEU,
        GoogleBLEUScore,
        corpus_google_bleu,
        sentence_google_bleu,
        sentence_google_bleus,
    )
    from .metrics.meteor import METEOR, METEORScore, corpus_meteor, sentence_meteor, sentence_meteors
    from .metrics.nist import NIST, NISTScore, corpus_nist, sentence_nist, sentence_nists
    from .metrics.ter import TER, TERScore, corpus_ter, sentence_ter, sentence_ters
    from .metrics.wer import WER, WERScore, corpus_wer, sentence_wer, sentence_wers
    from .significance import paired_test
    from .version import __version__


def _public_names() -> dict[str, str]:
    """Public name -> the module that defines it: every name a built-in metric's package exports
    (its ``__all__``: class, result, ``corpus_X``, ``sentence_X``, ``sentence_Xs``), then the shared ones."""
    from .metrics import BUILTIN

    names: dict[str, str] = {}
    for metric in BUILTIN:
        names.update(dict.fromkeys(import_module(f".metrics.{metric}", __name__).__all__, f"metrics.{metric}"))
    return names | {"Signature": "core.signature", "paired_test": "significance", "__version__": "version"}


def __getattr__(name: str) -> Any:
    """A public name, imported on first use; ``__all__`` is read from the metrics' packages then too
    (once: it is kept as the module's attribute)."""
    global _lazy
    if _lazy is None:
        names = _public_names()
        _lazy = lazy_attributes(__name__, names)
        globals()["__all__"] = sorted(["InputError", "LengthMismatchError", "MtscoreError", *names])
    if name == "__all__":
        return globals()["__all__"]
    if name in errors.DEPRECATED:
        return getattr(errors, name)
    return _lazy(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__getattr__("__all__")})


_lazy: Callable[[str], Any] | None = None
