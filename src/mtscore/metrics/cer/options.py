"""CER's options (none: jiwer's ``cer_default`` only); light, so ``--help`` needs no NumPy."""

from __future__ import annotations

from ...core.options import Option

TITLE = "CER"  # how the command line's help names the metric
DOCUMENTED_WITH = "wer"  # its docs pages are WER's (docs/metrics/wer.md, docs/api/wer.md)
OPTIONS: tuple[Option, ...] = ()
