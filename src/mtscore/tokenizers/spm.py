"""The SentencePiece tokenizers (``spm``, ``flores101``, ``flores200``, ``spBLEU-1K``): the pieces of
sacrebleu's models, read from the file sacrebleu keeps them in, never downloaded.

A model is looked for under its sacrebleu file name in ``$MTSCORE_SPM_MODELS`` (a folder, when set),
then in sacrebleu's cache, ``$SACREBLEU/models`` (``~/.sacrebleu/models`` when ``SACREBLEU`` is unset).
The ``sentencepiece`` package is the ``spm`` extra, imported when a tokenizer is built.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..threads import THREADS
from . import text_error

FOLDER_VARIABLE = "MTSCORE_SPM_MODELS"


@dataclass(frozen=True)
class Model:
    """One of sacrebleu's SentencePiece models: the signature's name, its file, where sacrebleu fetches it."""

    signature: str
    url: str

    @property
    def file_name(self) -> str:
        """The name sacrebleu saves it under: the last part of its address."""
        return self.url.rsplit("/", 1)[-1]


_FLORES101 = Model("flores101", "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model")
# Registered name -> model; ``spm`` is sacrebleu's old name for ``flores101``, and signs as it.
MODELS = {
    "spm": _FLORES101,
    "flores101": _FLORES101,
    "flores200": Model("flores200", "https://tinyurl.com/flores200sacrebleuspm"),
    "spBLEU-1K": Model("spBLEU-1K", "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model"),
}


def model_folders() -> list[Path]:
    """Where models are looked for, in order: ``$MTSCORE_SPM_MODELS``, then sacrebleu's cache."""
    folders = [Path(os.environ[FOLDER_VARIABLE])] if os.environ.get(FOLDER_VARIABLE) else []
    cache = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return [*folders, Path(cache) / "models"]


def find_model(name: str) -> Path:
    """The model file of the tokenizer registered as ``name``; a ``InputError`` saying where to
    put it when no folder holds it."""
    model = MODELS[name]
    folders = model_folders()
    for folder in folders:
        path = folder / model.file_name
        if path.is_file():
            return path
    raise InputError(
        f"the {name} tokenizer needs the SentencePiece model {model.file_name!r}, which is in none of "
        f"{', '.join(str(folder) for folder in folders)}. mtscore never downloads it: save {model.url} "
        f"as {folders[-1] / model.file_name} (sacrebleu's cache: running sacrebleu once with -tok {name} "
        f"downloads it there), or set {FOLDER_VARIABLE} to a folder that holds it"
    )


def _sentencepiece(name: str) -> Any:
    """The ``sentencepiece`` module, or a ``InputError`` saying how to install it."""
    try:
        import sentencepiece
    except ImportError as error:
        raise InputError(
            f"the {name} tokenizer needs the sentencepiece package ({error}): pip install 'mtscore[spm]'"
        ) from None
    return sentencepiece


class SentencePieceTokenizer:
    """The pieces of a SentencePiece model, as sacrebleu's ``EncodeAsPieces`` gives them.

    ``SentencePieceTokenizer("my-spm", "path/to.model")`` with ``mtscore.tokenizers.register`` adds a
    model of one's own; ``name`` is what signatures show.
    """

    def __init__(self, name: str, model: str | Path | bytes):
        sentencepiece = _sentencepiece(name)
        self.name = name
        try:
            if isinstance(model, bytes):
                self._processor = sentencepiece.SentencePieceProcessor(model_proto=model)
            else:
                self._processor = sentencepiece.SentencePieceProcessor(model_file=str(model))
        except (OSError, RuntimeError) as error:
            where = "the given model" if isinstance(model, bytes) else str(model)
            message = f"the {name} tokenizer could not load {where} as a SentencePiece model: {error}"
            raise InputError(message) from None

    def __call__(self, line: str) -> str:
        return self.batch([line])[0]

    def batch(self, lines: list[str]) -> list[str]:
        try:
            pieces = self._processor.encode(lines, out_type=str, num_threads=THREADS)
        except (RuntimeError, TypeError):  # a str that is no UTF-8 (a lone surrogate)
            raise text_error(self.name, lines) from None
        return [" ".join(line) for line in pieces]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with the model's bytes (a processor does not pickle), so a worker needs no file."""
        return (SentencePieceTokenizer, (self.name, self._processor.serialized_model_proto()))


def _registered(name: str) -> SentencePieceTokenizer:
    _sentencepiece(name)  # the package first: without it, the model is of no use
    return SentencePieceTokenizer(MODELS[name].signature, find_model(name))


def spm() -> SentencePieceTokenizer:
    """``spm``: sacrebleu's old name for ``flores101`` (its signature says ``flores101``)."""
    return _registered("spm")


def flores101() -> SentencePieceTokenizer:
    """``flores101``: the FLORES-101 model (``sacrebleu_tokenizer_spm.model``)."""
    return _registered("flores101")


def flores200() -> SentencePieceTokenizer:
    """``flores200``: the FLORES-200 model (``flores200sacrebleuspm``)."""
    return _registered("flores200")


def spbleu_1k() -> SentencePieceTokenizer:
    """``spBLEU-1K``: the spBLEU-1K model (``spbleu-1k_tokenizer_spm.model``)."""
    return _registered("spBLEU-1K")
