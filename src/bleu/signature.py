"""Reproducibility signatures in sacrebleu's format and field order, naming this tool."""

from __future__ import annotations

from .config import Scoring

__version__ = "0.1.0"
TOOL_VERSION = f"bleu-{__version__}"

# Field name -> short name, in the order they are printed (version always last).
_FIELDS = {
    "nrefs": "#",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "ngram": "n",  # extension: only when the max order is not 4
    "weights": "w",  # extension: only when the weights are not uniform
    "version": "v",
}


class Signature:
    """``nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-0.1.0``"""

    def __init__(self, info: dict[str, str]):
        self.info = {name: info[name] for name in _FIELDS if name in info}

    @classmethod
    def for_bleu(cls, nrefs: int | str, lowercase: bool, tokenizer: str, scoring: Scoring) -> "Signature":
        info = {
            "nrefs": str(nrefs),
            "case": "lc" if lowercase else "mixed",
            "eff": "yes" if scoring.effective_order else "no",
            "tok": tokenizer,
            "smooth": scoring.smooth_label(),
            "version": TOOL_VERSION,
        }
        if scoring.max_order != 4:
            info["ngram"] = str(scoring.max_order)
        if scoring.weights is not None:
            info["weights"] = ",".join(f"{w:g}" for w in scoring.weights)
        return cls(info)

    def format(self, short: bool = False) -> str:
        return "|".join(f"{_FIELDS[name] if short else name}:{value}" for name, value in self.info.items())

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Signature({self.format()!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Signature) and self.info == other.info
