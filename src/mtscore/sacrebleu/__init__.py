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
"""

from __future__ import annotations

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

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "extract_char_ngrams",
    "extract_word_ngrams",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "tokenizers",
]
