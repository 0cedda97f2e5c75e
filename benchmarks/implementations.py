"""The implementations under test, each turning a workload's inputs into one timed call.

Each ``prepare_*`` method does its untimed setup (imports, NLTK's 13a token lists, per-segment
reference grouping, id strings) and returns a ``Timed``: ``call()`` is the only thing the worker
times; ``extract(result)`` turns its result into scores on BLEU's 0-100 scale (a float for corpus
BLEU, a NumPy array for per-segment scores), untimed. A method that does not apply raises
``NotComparable``; a missing package surfaces as ``ImportError`` (reported as unavailable).

Nothing heavy is imported at module level: the runner imports this module for the plan only.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

# Which implementations run on which workload, in round-1 order (bleu first).
PLAN = {
    "A": ["bleu", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "B": ["bleu", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "C": ["bleu", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "D": ["bleu", "bleu-torch", "nltk", "sacrebleu", "bleuscore", "torchmetrics"],
    "E": ["floor", "bleu"],
}
# Whose scores every other implementation is checked against: (workload, implementation).
REFERENCE = {"A": ("A", "sacrebleu"), "B": ("B", "sacrebleu"), "C": ("C", "sacrebleu"),
             "D": ("D", "nltk"), "E": ("B", "sacrebleu")}
# Packages whose versions the results record, by implementation.
PACKAGES = {"bleu": "bleu", "bleu-torch": "torch", "sacrebleu": "sacrebleu", "nltk": "nltk",
            "torchmetrics": "torchmetrics", "bleuscore": "bleuscore"}


class NotComparable(Exception):
    """The implementation has no function that computes what the workload measures."""


@dataclass
class Timed:
    """A prepared measurement: ``call`` is timed, ``extract`` (untimed) maps its result to 0-100 scores."""

    call: Callable[[], Any]
    extract: Callable[[Any], Any]
    note: str = ""


def _from_fraction(values):
    """Per-segment scores on the 0-1 scale as a 0-100 array."""
    import numpy as np

    return np.asarray(values, dtype=np.float64) * 100


def _from_percent(values):
    """Per-segment scores already on the 0-100 scale as an array."""
    import numpy as np

    return np.asarray(values, dtype=np.float64)


def _tokenize_13a(lines: list[str]) -> list[list[str]]:
    """13a token lists, from the library's batch tokenizer (identical to sacrebleu's 13a); untimed."""
    from bleu import BLEU

    return BLEU().tokenize(lines)


def _per_segment(streams: list[list[str]]) -> list[list[str]]:
    """Reference streams regrouped as one list of references per segment (torchmetrics, bleuscore, NLTK)."""
    return [list(references) for references in zip(*streams)]


def _id_strings(array) -> list[str]:
    """Rows of token ids as space-joined strings, for implementations that only take text."""
    return [" ".join(map(str, row)) for row in array.tolist()]


def _load_bleu():
    """``bleu`` with its engine loaded: the package imports NumPy and the engine lazily on first use,
    and the harness times no peer's imports either."""
    import bleu
    import bleu.metric

    return bleu


class Bleu:
    """This project's library."""

    not_comparable: ClassVar[dict[str, str]] = {}

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        bleu = _load_bleu()

        return Timed(lambda: bleu.corpus_bleu(hypotheses, streams), lambda result: result.score)

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        bleu = _load_bleu()

        return Timed(lambda: bleu.sentence_scores(hypotheses, streams), lambda result: result.scores)

    def prepare_ids(self, hypotheses, references) -> Timed:
        bleu = _load_bleu()

        return Timed(lambda: bleu.sentence_scores(hypotheses, [references], smooth="nltk-method0"),
                     lambda result: result.scores, "NumPy int64 arrays, smooth='nltk-method0'")

    def prepare_files(self, files, segments) -> Timed:
        """Read the files with ``bleu.read.read_lines`` and score: the same reading work as the floor."""
        bleu = _load_bleu()
        from workloads import read_file_pairs

        from bleu.read import read_lines

        def call():
            hypotheses, references = read_file_pairs(files, segments, read_lines)
            return bleu.corpus_bleu(hypotheses, [references])

        return Timed(call, lambda result: result.score, "read_lines + corpus_bleu")


class BleuTorch(Bleu):
    """The library counting on torch CPU tensors."""

    not_comparable: ClassVar[dict[str, str]] = {kind: "token-id workload only" for kind in ("corpus", "sentence", "files")}

    def prepare_ids(self, hypotheses, references) -> Timed:
        bleu = _load_bleu()
        import torch

        hyp, ref = torch.from_numpy(hypotheses), torch.from_numpy(references)
        return Timed(lambda: bleu.sentence_scores(hyp, [ref], smooth="nltk-method0"),
                     lambda result: result.scores.numpy(), f"torch {torch.__version__} CPU tensors, "
                     f"{torch.get_num_threads()} threads")


class Sacrebleu:
    """sacrebleu 2.6: ``corpus_bleu`` and a loop of ``sentence_bleu``."""

    not_comparable: ClassVar[dict[str, str]] = {"files": "not part of the floor workload"}

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        import sacrebleu

        return Timed(lambda: sacrebleu.corpus_bleu(hypotheses, streams), lambda result: result.score)

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        import sacrebleu

        references = _per_segment(streams)

        def call():
            return [sacrebleu.sentence_bleu(h, refs).score for h, refs in zip(hypotheses, references)]

        return Timed(call, _from_percent, "loop of sentence_bleu(h, [r])")

    def prepare_ids(self, hypotheses, references) -> Timed:
        import sacrebleu

        logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # one warning per call otherwise
        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [sacrebleu.sentence_bleu(h, [r], smooth_method="none", tokenize="none",
                                            use_effective_order=False).score for h, r in zip(hyp, ref)]

        return Timed(call, _from_percent, "loop over space-joined id strings, tokenize='none', smooth 'none'")


class Nltk:
    """NLTK 3.10 ``bleu_score`` on 13a token lists (tokenized untimed)."""

    not_comparable: ClassVar[dict[str, str]] = {"files": "not part of the floor workload"}

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        from nltk.translate.bleu_score import corpus_bleu

        hyp_tokens = _tokenize_13a(hypotheses)
        references = _per_segment([_tokenize_13a(stream) for stream in streams])
        return Timed(lambda: corpus_bleu(references, hyp_tokens), lambda result: result * 100,
                     "corpus_bleu on 13a tokens (tokenized untimed)")

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        warnings.simplefilter("ignore")  # NLTK warns about zero counts on short segments
        hyp_tokens = _tokenize_13a(hypotheses)
        references = _per_segment([_tokenize_13a(stream) for stream in streams])
        method3 = SmoothingFunction().method3  # NIST geometric smoothing = sacrebleu's 'exp'

        def call():
            return [sentence_bleu(refs, h, smoothing_function=method3) for h, refs in zip(hyp_tokens, references)]

        return Timed(call, _from_fraction, "loop of sentence_bleu, method3 (exp smoothing, no effective order)")

    def prepare_ids(self, hypotheses, references) -> Timed:
        from nltk.translate.bleu_score import sentence_bleu

        hyp, ref = hypotheses.tolist(), references.tolist()
        return Timed(lambda: [sentence_bleu([r], h) for h, r in zip(hyp, ref)], _from_fraction,
                     "loop of sentence_bleu on int lists, defaults")


class Torchmetrics:
    """torchmetrics' functional BLEU (CPU)."""

    not_comparable: ClassVar[dict[str, str]] = {
        "sentence": "no exp smoothing / effective order (smooth=True is add-1)",
        "files": "not part of the floor workload",
    }

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        from torchmetrics.functional.text import sacre_bleu_score

        references = _per_segment(streams)
        return Timed(lambda: sacre_bleu_score(hypotheses, references), lambda result: float(result) * 100,
                     "sacre_bleu_score, tokenize='13a'")

    def prepare_ids(self, hypotheses, references) -> Timed:
        from torchmetrics.functional.text import bleu_score

        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [float(bleu_score([h], [[r]])) for h, r in zip(hyp, ref)]

        return Timed(call, _from_fraction, "loop of bleu_score over space-joined id strings")


class Bleuscore:
    """bleuscore (Rust): ``compute`` with sacrebleu's closest reference length."""

    not_comparable: ClassVar[dict[str, str]] = {
        "sentence": "smooth=True is add-1 (Lin & Och), not exp; no effective order",
        "files": "not part of the floor workload",
    }

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        import bleuscore

        references = _per_segment(streams)
        return Timed(lambda: bleuscore.compute(references, hypotheses, ref_len_method="closest"),
                     lambda result: result["bleu"] * 100, "compute(..., ref_len_method='closest'), its own 13a")

    def prepare_ids(self, hypotheses, references) -> Timed:
        import bleuscore

        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [bleuscore.compute([[r]], [h], ref_len_method="closest")["bleu"] for h, r in zip(hyp, ref)]

        return Timed(call, _from_fraction, "loop of compute over space-joined id strings (its 13a tokenizer)")


class Floor:
    """No BLEU at all: read the files and ``str.split()`` every line (workload E only)."""

    not_comparable: ClassVar[dict[str, str]] = {kind: "the floor is workload E only" for kind in ("corpus", "sentence", "ids")}

    def prepare_files(self, files, segments) -> Timed:
        from workloads import read_file_pairs, read_text_lines

        def call():
            hypotheses, references = read_file_pairs(files, segments, read_text_lines)
            return [line.split() for line in hypotheses], [line.split() for line in references]

        return Timed(call, lambda result: None, "read + decode + split('\\n') + str.split()")


IMPLEMENTATIONS = {"bleu": Bleu, "bleu-torch": BleuTorch, "sacrebleu": Sacrebleu, "nltk": Nltk,
                   "torchmetrics": Torchmetrics, "bleuscore": Bleuscore, "floor": Floor}


def not_comparable_reason(implementation: str, kind: str) -> str | None:
    """Why ``implementation`` does not run on workloads of ``kind``, or None when it does."""
    return IMPLEMENTATIONS[implementation].not_comparable.get(kind)
