"""A drop-in for sacrebleu's scoring API: its functions, metric classes, significance tests and
tokenizers, with its keyword names, on mtscore's metrics.

Switch by changing the import::

    import mtscore.sacrebleu as sacrebleu
    from mtscore.sacrebleu.metrics import BLEU, CHRF, TER
    from mtscore.sacrebleu.significance import PairedTest, Result
    from mtscore.sacrebleu.tokenizers import Tokenizer13a

``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter`` and ``sentence_ter`` (also as ``compat``) take sacrebleu 2.6's arguments and defaults; ``BLEU``, ``CHRF``
and ``TER`` (``metrics``) take its keywords (``smooth_method``, ``max_ngram_order``, ``trg_lang``,
``references=`` ...) and have its methods (``corpus_score(..., n_bootstrap=)``, ``sentence_score``,
``get_signature``, ``BLEU.compute_bleu``); ``significance.PairedTest`` returns sacrebleu's
signatures and ``Result`` lists; ``tokenizers`` has its tokenizer classes by their names. The
submodules users import are here by sacrebleu's paths (``metrics.bleu``, ``metrics.chrf``,
``metrics.ter``, ``metrics.base``, ``metrics.helpers``, ``tokenizers.tokenizer_13a`` ...). Results
have sacrebleu's fields and ``format()``; the scores are sacrebleu's. ``force`` does nothing
(mtscore does not warn about tokenized input), and with add-k smoothing a result's ``counts`` and
``totals`` are the raw integers where sacrebleu's have k added.

Test sets by sacrebleu's names and paths (``dataset.DATASETS``, ``utils.get_source_file``,
``get_reference_files`` ..., also at the top as sacrebleu has them) are read through mtscore's registry
and sacrebleu's cache folder; they load on first use. ``__version__`` is ``"2.6.0"``, the sacrebleu
this drop-in reproduces (``version`` says why); the signatures name mtscore's version.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from . import compat, metrics, tokenizers
from .compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from .metrics import BLEU, CHRF, TER
from .metrics.helpers import extract_char_ngrams, extract_word_ngrams
from .version import __version__

# The test-set names sacrebleu has at its top, by the module that defines them (loaded on first use:
# the registry is not needed to score).
_TEST_SET_NAMES = {
    "DATASETS": "dataset",
    "SACREBLEU_DIR": "utils",
    "download_test_set": "utils",
    "get_available_testsets": "utils",
    "get_langpairs_for_testset": "utils",
    "get_reference_files": "utils",
    "get_source_file": "utils",
    "smart_open": "utils",
}

__all__ = [
    "BLEU",
    "CHRF",
    "DATASETS",
    "SACREBLEU_DIR",
    "TER",
    "__version__",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "dataset",
    "download_test_set",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "smart_open",
    "tokenizers",
    "utils",
]


def __getattr__(name: str) -> Any:
    """The test-set modules (``dataset``, ``utils``) and names, imported when first asked for."""
    if name in ("dataset", "utils"):
        return import_module(f".{name}", __name__)
    if name in _TEST_SET_NAMES:
        return getattr(import_module(f".{_TEST_SET_NAMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
