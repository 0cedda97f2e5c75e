"""What bad input gets (issue 18): one table of user mistakes and odd inputs, each row with the
exit code and message the command gives, checked on the command line (in this process, or in a
real shell where standard input, pipes, devices or signals matter) and, where a library call reads
the same input, through the API (a ``InputError`` with the same message). No row may print a
traceback, and a row that scores must give the score of the clean input (or sacrebleu's).

Rows about input run once for every metric in ``mtscore.metrics.METRICS`` (a metric added later
is covered without a new row), rows about integer options once for every integer option of every
metric. The README's section "What bad input gets" is generated from ``ROWS``: run
``PYTHONPATH=src:tests python tests/robustness/test_bad_input.py`` to rewrite it;
``test_readme_lists_every_row`` checks that it is up to date.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import random
import resource
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import run
from shared_data import REPO_ROOT

from mtscore import InputError
from mtscore.files.read import read_blocks, read_lines
from mtscore.metrics import METRICS, metric_class, metric_options

README = REPO_ROOT / "README.md"
BEGIN, END = "<!-- bad-input-table: begin -->", "<!-- bad-input-table: end -->"
MTSCORE = f"{shlex.quote(sys.executable)} -m mtscore"
SHELL_TIMEOUT = 120  # seconds: a guard against a hang, not a timing assertion
SHELL_MEMORY = 4 << 30  # bytes of address space a shell row may use: more is a failure, not a swapping machine
ORACLES = {"bleu": "BLEU", "chrf": "CHRF", "ter": "TER"}  # sacrebleu's classes, same defaults as ours


def text(lines: list[str], end: str = "\n", encoding: str = "utf-8") -> bytes:
    return "".join(line + end for line in lines).encode(encoding)


REF = ["the cat sat on the mat", "it is raining again today"]
HYP = ["the cat sat on a mat", "it rains again today"]
PLAIN = {"ref": text(REF), "hyp": text(HYP)}
MANY = {"ref": text(REF * 10_000), "hyp": text(HYP * 10_000)}  # -sl output far larger than a pipe's buffer
_words = random.Random(18)
LONG_WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "über", "naïve", "fast"]
LONG_HYP = " ".join(_words.choice(LONG_WORDS) for _ in range(50_000))  # 250 KB on one line
LONG_REF = " ".join(_words.choice(LONG_WORDS) for _ in range(50_000))
ZSTD = bytes.fromhex("28b52ffd2000110000") + b"a b\n"  # a zstd frame header (magic 28 B5 2F FD), raw block
REFS_100 = " ".join(f"{{ref{number}}}" for number in range(1, 101))


@dataclass(frozen=True)
class Row:
    """One bad input: ``files`` (name -> bytes) made in a fresh folder, the command's arguments
    (``argv``, with ``{name}`` for each file's path, ``{tmp}`` for the folder, ``{m}`` for ``-m METRIC``
    and ``{flag}`` for an option's flag), or a ``shell`` command line run by bash (``{mtscore}``: the
    command); the exit code (a set of allowed ones, or by metric with ``"*"`` for the others) and a
    fragment of standard error (by metric likewise). For the README: ``input`` and ``gets`` in words."""

    id: str
    input: str
    gets: str
    exit: int | tuple[int, ...] | Mapping[str, int]
    message: str | Mapping[str, str] = ""
    files: Mapping[str, bytes] = field(default_factory=lambda: PLAIN)
    argv: str = "{ref} -i {hyp} -b {m}"
    shell: str | None = None  # (also for values that would take unbounded time or memory if not refused)
    over: str | None = "metrics"  # "metrics": once per metric; "int-options": per integer option; None: once
    setup: Callable[[Path, dict[str, str]], None] | None = None  # more to make (a folder, a mode)
    read: str | None = None  # the file whose reading (read_lines, read_blocks) raises the very message
    api: Callable[[str, dict[str, str]], Any] | None = None  # a library call that raises InputError
    api_message: str | None = None  # the fragment its message holds (default: ``message``)
    same_as: Mapping[str, bytes] | None = None  # clean files: the output must be theirs (``{ref} -i {hyp} -b``)
    oracle: tuple[list[str], list[list[str]]] | None = None  # (hypotheses, references): sacrebleu's score
    segments: int | None = None  # how many segments the hypothesis file holds

    def expected_exit(self, metric: str | None) -> tuple[int, ...]:
        if isinstance(self.exit, int):
            return (self.exit,)
        if isinstance(self.exit, tuple):
            return self.exit
        return (self.exit.get(metric or "*", self.exit["*"]),)

    def expected_message(self, metric: str | None) -> str:
        if isinstance(self.message, str):
            return self.message
        return self.message.get(metric or "*", self.message["*"])


def _directory(tmp: Path, paths: dict[str, str]) -> None:
    (tmp / "folder").mkdir()
    paths["folder"] = str(tmp / "folder")


def _unreadable(tmp: Path, paths: dict[str, str]) -> None:
    os.chmod(paths["hyp"], 0)
    if os.access(paths["hyp"], os.R_OK):
        pytest.skip("running as a user who reads any file (root): chmod 000 cannot make one unreadable")


def _hundred_references(tmp: Path, paths: dict[str, str]) -> None:
    for number in range(1, 101):
        paths[f"ref{number}"] = paths["ref"]


def _no_dev_full(tmp: Path, paths: dict[str, str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full (a device that is always full)")


def _scores(metric: str, references: list[list[str]], hypotheses: list[str]) -> Any:
    return metric_class(metric)().corpus_score(hypotheses, references)


ROWS = [
    # Files that do not fit together
    Row(
        "fewer-hypotheses",
        "fewer hypothesis lines than reference lines",
        "names both files and both counts",
        2,
        "{hyp} has 1 line but {ref} has 2; hypotheses and references need one line per segment",
        files={"ref": text(REF), "hyp": text(HYP[:1])},
        api=lambda m, p: _scores(m, [REF], HYP[:1]),
        api_message="1 hypothesis but reference stream 1 has 2 segments",
    ),
    Row(
        "more-hypotheses",
        "more hypothesis lines than reference lines",
        "names both files and both counts",
        2,
        "{hyp} has 3 lines but {ref} has 2",
        files={"ref": text(REF), "hyp": text([*HYP, "one more"])},
        api=lambda m, p: _scores(m, [REF], [*HYP, "one more"]),
        api_message="3 hypotheses but reference stream 1 has 2 segments",
    ),
    Row(
        "references-differ",
        "reference files of different lengths",
        "names both files and both counts",
        2,
        "reference files differ in length: {ref} has 2 lines, {ref2} has 1",
        files={"ref": text(REF), "ref2": text(REF[:1]), "hyp": text(HYP)},
        argv="{ref} {ref2} -i {hyp} -b {m}",
        api=lambda m, p: _scores(m, [REF, REF[:1]], HYP),
        api_message="reference stream 2 has 1 segment",
    ),
    Row(
        "empty-hypotheses",
        "a zero-byte hypothesis file",
        "says it is empty",
        2,
        "{hyp} is empty: no hypotheses to score",
        files={"ref": text(REF), "hyp": b""},
        api=lambda m, p: _scores(m, [[]], []),
        api_message="no hypotheses to score",
    ),
    Row(
        "empty-references",
        "a zero-byte reference file",
        "says it is empty",
        2,
        "{ref} is empty: no references to score",
        files={"ref": b"", "hyp": text(HYP)},
    ),
    Row(
        "empty-lines",
        "files of empty lines",
        "scores them as sacrebleu does",
        0,
        files={"ref": b"\n\n", "hyp": b"\n\n"},
        oracle=(["", ""], [["", ""]]),
        segments=2,
    ),
    Row(
        "no-final-newline",
        "no newline at the end of the last line",
        "the same score as with it",
        0,
        files={"ref": text(REF), "hyp": text(HYP)[:-1]},
        same_as=PLAIN,
    ),
    Row(
        "100-references",
        "100 reference files",
        "scores against all of them; WER and CER, which take one reference as jiwer does, refuse them",
        {"wer": 2, "cer": 2, "*": 0},
        {
            "wer": "WER compares each hypothesis with one reference, as jiwer does; got 100 reference streams",
            "cer": "CER compares each hypothesis with one reference, as jiwer does; got 100 reference streams",
            "*": "",
        },
        argv=REFS_100 + " -i {hyp} -b {m}",
        setup=_hundred_references,
        oracle=(HYP, [REF] * 100),
    ),
    Row(
        "long-line",
        "a 50 MB line (tested at 250 KB)",
        "scored, in memory about 50-75 times the line (50 MB: 2.6-3.6 GB); TER refuses it, naming the segment "
        "(its edit-distance matrices); WER and CER score it as jiwer does (rapidfuzz's own alignment past "
        "2048 x 2048 tokens)",
        {"ter": 2, "*": 0},
        {"ter": "segment 2: TER of a 50000-word hypothesis against a 50000-word reference needs", "*": ""},
        files={"ref": text(["a b", LONG_REF]), "hyp": text(["a b", LONG_HYP])},
        shell="{mtscore} {ref} -i {hyp} -b {m}",
        oracle=(["a b", LONG_HYP], [["a b", LONG_REF]]),
    ),
    Row(
        "edit-pair-beyond-bounds",
        "a WER or CER segment pair beyond 2^36 token pairs or 2^22 tokens a side (tested with two lines of "
        "300,000 words for WER)",
        "refused, naming the segment and the limits (rapidfuzz would take minutes to days, or gigabytes); "
        "split the segment",
        2,
        "segment 2 is too long for WER",
        files={"ref": text(["a b", " ".join([LONG_REF] * 6)]), "hyp": text(["a b", " ".join([LONG_HYP] * 6)])},
        shell="{mtscore} {ref} -i {hyp} -b -m wer",
        over=None,
    ),
    # Encodings
    Row(
        "invalid-utf8",
        "invalid UTF-8 inside a line",
        "names the file, line, column, byte offset and byte",
        2,
        "{hyp}: invalid UTF-8 at line 2, column 4 (byte offset 24: 0xff)",
        files={"ref": text(REF), "hyp": b"the cat sat on a mat\nit \xff rains\n"},
        read="hyp",
    ),
    Row(
        "invalid-utf8-at-end",
        "an invalid byte as the last byte of the file",
        "names where it is",
        2,
        "{hyp}: invalid UTF-8 at line 3, column 1 (byte offset 42: 0xff)",
        files={"ref": text(REF), "hyp": text(HYP) + b"\xff"},
        read="hyp",
    ),
    Row(
        "truncated-utf8",
        "a file cut inside a multi-byte character",
        "says the file ends inside a character",
        2,
        "{hyp}: invalid UTF-8 at line 2, column 19 (byte offset 39: 0xc3); the file ends inside a multi-byte character",
        files={"ref": text(REF), "hyp": b"the cat sat on a mat\nit rains again caf\xc3"},
        read="hyp",
    ),
    Row(
        "latin-1",
        "a Latin-1 file",
        "names the byte, says how to convert (`iconv -f LATIN1 -t UTF-8`)",
        2,
        "{hyp}: invalid UTF-8 at line 2, column 4 (byte offset 24: 0xe9); convert the file to UTF-8, "
        "e.g. with iconv -f LATIN1 -t UTF-8",
        files={"ref": text(REF), "hyp": text([HYP[0], "café au lait"], encoding="latin-1")},
        read="hyp",
    ),
    Row(
        "utf-16",
        "UTF-16 with a byte order mark",
        "says it is UTF-16 and how to convert (`iconv -f UTF-16 -t UTF-8`)",
        2,
        "{hyp}: UTF-16 text (byte order mark FF FE), not UTF-8: convert it first, e.g. with iconv -f UTF-16 -t UTF-8",
        files={"ref": text(REF), "hyp": b"\xff\xfe" + text(HYP, encoding="utf-16-le")},
        read="hyp",
    ),
    Row(
        "utf-16-on-standard-input",
        "UTF-16 on standard input (read block by block)",
        "the same message, for standard input",
        2,
        "mtscore: error: standard input: UTF-16 text (byte order mark FF FE), not UTF-8",
        files={"ref": text(REF), "hyp": b"\xff\xfe" + text(HYP, encoding="utf-16-le")},
        shell="{mtscore} {ref} {m} < {hyp}",
    ),
    Row(
        "utf-16le",
        "UTF-16LE without a byte order mark",
        "says it is UTF-16LE (by its NUL bytes) and how to convert",
        2,
        "{hyp}: UTF-16LE text (no byte order mark; a NUL byte beside every ASCII character), not UTF-8: "
        "convert it first, e.g. with iconv -f UTF-16LE -t UTF-8",
        files={"ref": text(REF), "hyp": text(HYP, encoding="utf-16-le")},
        read="hyp",
    ),
    Row(
        "utf-16be",
        "UTF-16BE without a byte order mark",
        "says it is UTF-16BE and how to convert",
        2,
        "{hyp}: UTF-16BE text (no byte order mark; a NUL byte beside every ASCII character), not UTF-8: "
        "convert it first, e.g. with iconv -f UTF-16BE -t UTF-8",
        files={"ref": text(REF), "hyp": text(HYP, encoding="utf-16-be")},
        read="hyp",
    ),
    Row(
        "utf-32",
        "UTF-32 with a byte order mark",
        "says it is UTF-32 and how to convert",
        2,
        "{hyp}: UTF-32 text (byte order mark FF FE 00 00), not UTF-8: convert it first, e.g. with iconv -f UTF-32",
        files={"ref": text(REF), "hyp": b"\xff\xfe\x00\x00" + text(HYP, encoding="utf-32-le")},
        read="hyp",
    ),
    Row(
        "nul-byte",
        "a NUL byte in a line",
        "names where it is: not UTF-8 text",
        2,
        "{hyp}: NUL byte at line 2, column 9 (byte offset 29): not UTF-8 text",
        files={"ref": text(REF), "hyp": b"the cat sat on a mat\nit rains\x00 again today\n"},
        read="hyp",
    ),
    Row(
        "utf-8-bom",
        "a UTF-8 byte order mark",
        "removed: the same score",
        0,
        files={"ref": b"\xef\xbb\xbf" + text(REF), "hyp": b"\xef\xbb\xbf" + text(HYP)},
        same_as=PLAIN,
    ),
    # Line ends
    Row(
        "crlf",
        "CRLF line ends",
        "the same score as with LF",
        0,
        files={"ref": text(REF, "\r\n"), "hyp": text(HYP, "\r\n")},
        same_as=PLAIN,
    ),
    Row(
        "lone-cr",
        "a lone CR inside a line",
        "stays inside its segment",
        0,
        files={"ref": text(REF), "hyp": text(["the cat sat\ron a mat", HYP[1]])},
        oracle=(["the cat sat\ron a mat", HYP[1]], [REF]),
        segments=2,
    ),
    Row(
        "line-separators",
        "U+2028, U+0085 or a form feed inside a line",
        "stay inside their segment",
        0,
        files={"ref": text(REF), "hyp": text(["the cat\u2028sat on a mat", "it\x85rains\x0cagain today"])},
        oracle=(["the cat\u2028sat on a mat", "it\x85rains\x0cagain today"], [REF]),
        segments=2,
    ),
    # Compression
    Row(
        "gzip",
        "a gzip file",
        "read: the same score",
        0,
        files={"ref": text(REF), "hyp": gzip.compress(text(HYP), mtime=0)},
        same_as=PLAIN,
    ),
    Row(
        "gzip-truncated",
        "a truncated gzip file",
        "not a valid gzip file",
        2,
        "{hyp}: not a valid gzip file (Compressed file ended before the end-of-stream marker was reached)",
        files={"ref": text(REF), "hyp": gzip.compress(text(HYP) * 50, mtime=0)[:-10]},
        read="hyp",
    ),
    Row(
        "gzip-corrupt",
        "a corrupt gzip file",
        "not a valid gzip file",
        2,
        "{hyp}: not a valid gzip file (CRC check failed",
        files={"ref": text(REF), "hyp": (lambda z: z[:-8] + bytes([z[-8] ^ 0xFF]) + z[-7:])(gzip.compress(text(HYP)))},
        read="hyp",
    ),
    Row(
        "gzip-on-standard-input",
        "gzip on standard input",
        "read: the same score",
        0,
        files={"ref": text(REF), "hyp": gzip.compress(text(HYP), mtime=0)},
        shell="{mtscore} {ref} -b {m} < {hyp}",
        same_as=PLAIN,
    ),
    Row(
        "bzip2",
        "a bzip2 file",
        "read: the same score",
        0,
        files={"ref": bz2.compress(text(REF)), "hyp": bz2.compress(text(HYP))},
        same_as=PLAIN,
    ),
    Row(
        "bzip2-truncated",
        "a truncated bzip2 file",
        "not a valid bzip2 file",
        2,
        "{hyp}: not a valid bzip2 file (Compressed file ended before the end-of-stream marker was reached)",
        files={"ref": text(REF), "hyp": bz2.compress(text(HYP) * 50)[:-10]},
        read="hyp",
    ),
    Row(
        "xz",
        "an xz file",
        "read: the same score",
        0,
        files={"ref": text(REF), "hyp": lzma.compress(text(HYP))},
        same_as=PLAIN,
    ),
    Row(
        "xz-corrupt",
        "a corrupt xz file",
        "not a valid xz file",
        2,
        "{hyp}: not a valid xz file (",
        files={"ref": text(REF), "hyp": lzma.compress(text(HYP))[:12] + b"garbage, not xz" * 4},
        read="hyp",
    ),
    Row(
        "zstd",
        "a zstd file",
        "refused (no zstd in Python's standard library before 3.14); says to decompress it with `zstd -d`",
        2,
        "{hyp}: zstd-compressed, which mtscore cannot read (Python's standard library has no zstd before 3.14): "
        "decompress it first with zstd -d",
        files={"ref": text(REF), "hyp": ZSTD},
        read="hyp",
    ),
    # Files that are not regular files
    Row(
        "directory",
        "a directory",
        "says it is a directory",
        2,
        "{folder}: is a directory, expected a text file",
        argv="{ref} -i {folder} -b {m}",
        setup=_directory,
        read="folder",
    ),
    Row(
        "unreadable",
        "an unreadable file (chmod 000)",
        "permission denied, naming it",
        2,
        "{hyp}: permission denied",
        setup=_unreadable,
        read="hyp",
    ),
    Row(
        "fifo",
        "a FIFO (named pipe)",
        "read as a stream: the same score",
        0,
        shell="mkfifo {tmp}/fifo && (cat {hyp} > {tmp}/fifo &) && {mtscore} {ref} -i {tmp}/fifo -b {m}",
        same_as=PLAIN,
    ),
    Row(
        "process-substitution",
        "process substitution, `<(...)`",
        "read as a stream: the same score",
        0,
        shell="{mtscore} <(cat {ref}) -i <(cat {hyp}) -b {m}",
        same_as=PLAIN,
    ),
    # Standard input and output
    Row(
        "closed-standard-input",
        "no `-i` and standard input closed (`<&-`)",
        "usage error: no hypotheses",
        1,
        "mtscore: usage error: no hypotheses: give them with -i HYP or pipe them on standard input",
        shell="{mtscore} {ref} {m} <&-",
    ),
    Row(
        "closed-standard-input-named",
        "`-i -` and standard input closed (`<&-`)",
        "says standard input is closed",
        2,
        "mtscore: error: standard input is closed: there is nothing to read",
        shell="{mtscore} {ref} -i - {m} <&-",
    ),
    Row(
        "standard-input-twice",
        "`-` as a reference and as the hypotheses",
        "usage error: standard input can be read once",
        1,
        "standard input ('-') can be read only once",
        argv="- -i -",
        over=None,
    ),
    Row(
        "sigpipe",
        "`-sl` output cut short (`| head -1`)",
        "exits quietly",
        0,
        files=MANY,
        shell="set -o pipefail; {mtscore} {ref} -i {hyp} -sl {m} | head -1 > /dev/null",
    ),
    Row(
        "full-device",
        "output to a full device (`> /dev/full`)",
        "output error",
        3,
        "mtscore: error: cannot write the results: No space left on device",
        shell="{mtscore} {ref} -i {hyp} {m} > /dev/full",
        setup=_no_dev_full,
    ),
    # Absurd option values: refused as usage errors where the work would grow without bound
    Row(
        "max-order-100",
        "`--max-ngram-order 100`",
        "scored (BLEU's bound is 100)",
        0,
        shell="{mtscore} {ref} -i {hyp} -b --max-ngram-order 100",
        over=None,
    ),
    Row(
        "max-order-huge",
        "`--max-ngram-order 1000000`",
        "usage error: at most 100",
        1,
        "max order must be a positive integer up to 100, got 1000000",
        shell="{mtscore} {ref} -i {hyp} --max-ngram-order 1000000",
        over=None,
        api=lambda m, p: metric_class("bleu")(max_order=10**6),
    ),
    Row(
        "chrf-order-huge",
        "`-m chrf -cc 1000000` (or `-cw`)",
        "usage error: at most 32",
        1,
        "char_order must be a non-negative integer up to 32, got 1000000",
        shell="{mtscore} {ref} -i {hyp} -m chrf -cc 1000000",
        over=None,
        api=lambda m, p: metric_class("chrf")(char_order=10**6),
    ),
    Row(
        "width-huge",
        "`-w 1000`",
        "usage error: at most 20 decimals",
        1,
        "--width must be 0 or more and at most 20",
        shell="{mtscore} {ref} -i {hyp} -w 1000",
        over=None,
    ),
    Row(
        "paired-bs-n-huge",
        "`-pbsn 1000000` with two systems",
        "usage error: at most 100,000 (so are `-parn` and `-cin`)",
        1,
        "--paired-bs-n must be 1 or more and at most 100,000",
        shell="{mtscore} {ref} -i {hyp} {ref} -pbs -pbsn 1000000",
        over=None,
    ),
    Row(
        "confidence-n-huge",
        "`--confidence-n 10000000`",
        "usage error: at most 100,000",
        1,
        "--confidence-n must be 1 or more and at most 100,000",
        shell="{mtscore} {ref} -i {hyp} -ci --confidence-n 10000000",
        over=None,
    ),
    Row(
        "width-negative",
        "`-w -1`",
        "usage error",
        1,
        "--width must be 0 or more",
        argv="{ref} -i {hyp} -w -1",
        over=None,
    ),
    Row(
        "confidence-n-negative",
        "`-cin -5` (or `-pbsn`, `-parn`)",
        "usage error",
        1,
        "--confidence-n must be 1 or more",
        argv="{ref} -i {hyp} -ci -cin -5",
        over=None,
    ),
    Row(
        "int-option-huge",
        "any metric's integer option at 1000000",
        "bounded: refused, or scored in bounded time and memory",
        (0, 1),
        shell="{mtscore} {ref} -i {hyp} -b {m} {flag} 1000000",
        over="int-options",
    ),
    Row(
        "int-option-negative",
        "any metric's integer option at -1",
        "refused as a usage error, or scored",
        (0, 1),
        argv="{ref} -i {hyp} -b {m} {flag} -1",
        over="int-options",
    ),
]


def cases() -> Iterator[Any]:
    """Every row with each metric it applies to; a row run in a real shell (a process each) runs with
    the first metric in the fast suite and with every metric only in the whole one (``slow``)."""
    first = next(iter(METRICS))
    for row in ROWS:
        if row.over == "metrics":
            for metric in METRICS:
                marks = [pytest.mark.slow] if row.shell and metric != first else []
                yield pytest.param(row, metric, None, id=f"{row.id}-{metric}", marks=marks)
        elif row.over == "int-options":
            for metric in METRICS:
                for option in metric_options(metric):
                    if option.kind is int and option.nargs is None:
                        flag = option.flags[-1]
                        yield pytest.param(row, metric, flag, id=f"{row.id}-{metric}{flag}")
        else:
            yield pytest.param(row, None, None, id=row.id)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SHELL_MEMORY, SHELL_MEMORY))


def run_row(row: Row, metric: str | None, flag: str | None, tmp: Path, capsys: Any) -> tuple[int, str, str, dict]:
    paths = {"tmp": str(tmp), "m": f"-m {metric}" if metric else "", "flag": flag or ""}
    for name, data in row.files.items():
        (tmp / name).write_bytes(data)
        paths[name] = str(tmp / name)
    if row.setup:
        row.setup(tmp, paths)
    if row.shell is None:
        code, out, err = run(capsys, *shlex.split(row.argv.format(**paths)))
    else:
        command = row.shell.replace("{mtscore}", MTSCORE).format(**paths)
        result = subprocess.run(
            ["bash", "-c", command],
            capture_output=True,
            text=True,
            timeout=SHELL_TIMEOUT,
            preexec_fn=_limit_memory,
            stdin=subprocess.DEVNULL,
        )
        code, out, err = result.returncode, result.stdout, result.stderr
    return code, out, err, paths


@pytest.mark.parametrize("row,metric,flag", list(cases()))
def test_bad_input(row: Row, metric: str | None, flag: str | None, tmp_path: Path, capsys: Any) -> None:
    if row.shell and not os.path.exists("/bin/bash"):
        pytest.skip("needs bash")
    code, out, err, paths = run_row(row, metric, flag, tmp_path, capsys)
    assert "Traceback" not in err, err
    assert code in row.expected_exit(metric), (code, err)
    message = row.expected_message(metric).format(**paths)
    assert message in err
    if code == 0:
        assert err == ""
    else:
        assert err.count("\n") <= 2 and out == "", err  # one line (a usage error adds a hint)
    if row.read:
        _check_reading(paths[row.read], err)
    if row.api:
        with pytest.raises(InputError) as error:
            row.api(metric or "", paths)
        assert (row.api_message or message) in str(error.value)
    if row.same_as is not None and code == 0:
        clean = tmp_path / "clean"
        clean.mkdir()
        files = {name: clean / name for name in row.files}
        for name, target in files.items():
            target.write_bytes(row.same_as.get(name, row.files[name]))
        expected = run(capsys, files["ref"], "-i", files["hyp"], "-b", *(["-m", metric] if metric else []))
        assert (code, out) == expected[:2] and expected[0] == 0
    if row.oracle and code == 0 and metric in ORACLES:
        assert out.strip() == _sacrebleu(metric, *row.oracle)
    if row.segments is not None:
        assert len(read_lines(paths["hyp"])) == row.segments
        command = [paths["ref"], "-i", paths["hyp"], "-sl", "-f", "json", *(["-m", metric] if metric else [])]
        code, out, _ = run(capsys, *command)
        assert code == 0 and [json.loads(line)["line"] for line in out.splitlines()] == [1, 2, "corpus"]


def _check_reading(path: str, err: str) -> None:
    """Reading the file through the library raises the very message the command printed, whole
    (``read_lines``) and block by block (``read_blocks``, whatever the block size)."""
    with pytest.raises(InputError) as whole:
        read_lines(path)
    assert err == f"mtscore: error: {whole.value}\n"
    for block in (5, 64, 1 << 16):
        with pytest.raises(InputError) as blocks:
            list(read_blocks(path, block))
        assert str(blocks.value) == str(whole.value)


def _sacrebleu(metric: str, hypotheses: list[str], references: list[list[str]]) -> str:
    import sacrebleu.metrics

    oracle = getattr(sacrebleu.metrics, ORACLES[metric])()
    return f"{oracle.corpus_score(hypotheses, references).score:.1f}"


def test_every_row_is_named_once_and_per_metric_rows_name_the_metric() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids))
    for row in ROWS:
        if row.over is not None:
            assert "{m}" in (row.shell or row.argv), row.id


# The README's section


@dataclass(frozen=True)
class CheckedElsewhere:
    """A row of the README's table whose cases need more than files and a command line (a damaged
    database, a shard, an API call): ``test`` names the table-driven test that checks it."""

    input: str
    exit: str
    gets: str
    test: str  # "tests/PATH.py::test_name"


ELSEWHERE = [
    CheckedElsewhere(
        "METEOR with a damaged WordNet copy (a file empty, cut short, a changed byte, junk, re-encoded, CRLF, "
        "a directory, or missing from a folder given by name)",
        "2",
        "refused, naming the file and what is wrong with it (sizes and SHA-256 checked against WordNet 3.0's "
        "Debian and Princeton/NLTK copies); never scored with fewer synonyms",
        "tests/robustness/test_wordnet_integrity.py::test_damaged_copy_is_an_input_error_on_the_command_line",
    ),
    CheckedElsewhere(
        "`mtscore merge` of a shard whose arrays were changed after `mtscore stats` wrote it",
        "2",
        "refuses it by name: its content does not match the digest written with it; count it again",
        "tests/robustness/test_shards_and_stats.py::test_damaged_shard_arrays_are_refused_naming_the_file",
    ),
    CheckedElsewhere(
        "`mtscore merge p1.npz p1.npz`, or a copy of a shard",
        "2",
        "refuses: the shard is given twice, or is the same shard as another (a copy); segments are never counted twice",
        "tests/robustness/test_shards_and_stats.py::test_a_shard_given_twice_or_copied_is_refused",
    ),
    CheckedElsewhere(
        "a shard with counts that are fractional, negative, NaN, above their totals, inconsistent (BLEU's `hyp_len` "
        "0 with n-grams, NIST lengths that disagree with the ids) or whose sums overflow, even with a valid digest",
        "2",
        "refuses it by name, saying what is wrong",
        "tests/robustness/test_shards_and_stats.py::test_damaged_shard_arrays_are_refused_naming_the_file",
    ),
    CheckedElsewhere(
        "a shard whose description has an unknown metric or option, an option of another type, options that are not "
        "a mapping, or a list as system name",
        "2",
        "refuses it by name",
        "tests/robustness/test_shards_and_stats.py::test_damaged_descriptions_are_refused_naming_the_file",
    ),
    CheckedElsewhere(
        "a shard of an earlier format (3, without a digest)",
        "2",
        "says which format it is and to write it again with `mtscore stats`",
        "tests/robustness/test_shards_and_stats.py::test_shards_of_an_earlier_format_are_refused_with_the_remedy",
    ),
    CheckedElsewhere(
        "`Stats` / `Statistics` of different tokenizers, cases or metrics added with `+`, or scored by a metric of "
        "other settings",
        "API",
        "`InputError` naming the settings that differ",
        "tests/robustness/test_shards_and_stats.py::test_statistics_of_other_settings_are_neither_added_nor_scored",
    ),
    CheckedElsewhere(
        '`Stats.load` of an empty, tiny, cut-short, foreign or missing file; `Stats.from_json("{}")` or JSON of '
        "wrong types",
        "API",
        "`InputError` saying what is wrong (naming the file)",
        "tests/robustness/test_shards_and_stats.py::test_load_refuses_what_save_cannot_write_naming_the_file",
    ),
    CheckedElsewhere(
        "`stats[10]` of statistics of 5 segments",
        "API",
        "`IndexError` (as a list)",
        "tests/robustness/test_shards_and_stats.py::test_an_index_past_the_segments_is_an_index_error",
    ),
    CheckedElsewhere(
        "`-s floor -sv` below 0 or above 1",
        "1",
        "usage error naming `-sv`, floor and the range 0 to 1 (above 1 a precision can pass 100%; below 0 sacrebleu "
        "fails)",
        ""
        ""
        "tests/robustness/test_options_and_signatures.py::test_smoothing_value_in_range_is_sacrebleus_and_out_of_range_is_refused",
    ),
    CheckedElsewhere(
        "`-s add-k -sv` below 0 or above 1e36",
        "1",
        "usage error naming `-sv`, add-k and the range 0 to 1e+36; within it, sacrebleu's scores and intervals",
        ""
        ""
        "tests/robustness/test_options_and_signatures.py::test_smoothing_value_in_range_is_sacrebleus_and_out_of_range_is_refused",
    ),
    CheckedElsewhere(
        "`-sv` with `-s exp` or `none`; `-cin` without `-ci`, `-pbsn` without `-pbs`, `-parn` without `-par`, "
        "`--seed` without resampling",
        "0",
        "sacrebleu's output; a warning on standard error naming the option and what it acts with",
        ""
        ""
        "tests/robustness/test_options_and_signatures.py::test_an_option_that_acts_only_with_another_is_said_to_be_ignored",
    ),
    CheckedElsewhere(
        "an option of a metric `-m` does not select (`-m chrf -lc`, `-m ter --chrf-whitespace`, ...)",
        "0",
        "the output unchanged; a warning naming the option and its metric, and the selected metric's own option "
        "where it has one (`--chrf-lowercase`)",
        ""
        ""
        "tests/robustness/test_options_and_signatures.py::test_an_option_of_a_metric_not_selected_is_said_to_be_ignored",
    ),
    CheckedElsewhere(
        "lines with trailing whitespace (spaces, tabs, Unicode spaces)",
        "0",
        "stripped as sacrebleu's command line strips them: chrF with `--chrf-whitespace` gives sacrebleu's command "
        "line's score",
        ""
        ""
        "tests/robustness/test_options_and_signatures.py::test_trailing_whitespace_is_read_as_sacrebleus_command_line_reads_it",
    ),
    CheckedElsewhere(
        '`BLEU(pad_id="0")`, `0.5` or `True`',
        "API",
        "`InputError`: pad_id must be an integer token id or None",
        "tests/robustness/test_options_and_signatures.py::test_pad_id_must_be_an_integer_or_none",
    ),
    CheckedElsewhere(
        "a NumPy array of strings as hypotheses or references",
        "API",
        "`InputError`: a NumPy array of its dtype's items, not token ids (give a list of str)",
        "tests/robustness/test_options_and_signatures.py::test_a_numpy_array_of_strings_is_called_text",
    ),
    CheckedElsewhere(
        "the sacrebleu drop-in's `get_signature()` before any references",
        "API",
        "`InputError` (a `ValueError`, as sacrebleu's); after scoring, the references of the last call, as sacrebleu",
        "tests/robustness/test_options_and_signatures.py::test_drop_in_signature_before_any_references_is_refused",
    ),
    CheckedElsewhere(
        'a metric\'s on/off option given anything but True or False (`corpus_ter(normalized="no")`, `None`)',
        "API",
        "`InputError` naming the option: normalized must be True or False",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_a_switch_given_anything_but_true_or_false_is_refused_by_name",
    ),
    CheckedElsewhere(
        "`mtscore.nltk` with integer or mixed hashable tokens",
        "0",
        "scored exactly as NLTK scores them",
        "tests/robustness/test_tracebacks_and_output.py::test_nltk_drop_in_scores_tokens_that_are_not_str_as_nltk",
    ),
    CheckedElsewhere(
        '`mtscore.nltk` with `weights="abcd"`, `()` or weights that are not numbers',
        "API",
        "`InputError`: weights must be a non-empty tuple of numbers",
        "tests/robustness/test_tracebacks_and_output.py::test_nltk_drop_in_refuses_weights_that_are_not_numbers",
    ),
    CheckedElsewhere(
        "a test-set cache folder that cannot be entered",
        "2",
        "names the folder and the reason (give yourself access, or point `$SACREBLEU` elsewhere)",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_a_cache_folder_that_cannot_be_entered_is_an_input_error_naming_it",
    ),
    CheckedElsewhere(
        "standard output in ASCII (`PYTHONIOENCODING=ascii`) with `--confidence -f text`",
        "0",
        "writes UTF-8, as sacrebleu's command line does (the same bytes as sacrebleu)",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_an_ascii_standard_output_gets_the_utf8_results_as_sacrebleu_writes_them",
    ),
    CheckedElsewhere(
        "a small gzip, bzip2 or xz file that expands to gigabytes",
        "0",
        "measured as it expands and scored block by block in bounded memory, like a large plain file",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_a_gzip_that_expands_to_far_more_than_it_weighs_is_read_in_bounded_memory",
    ),
    CheckedElsewhere(
        "a hypothesis file name with a tab or line break, with `-f tsv` or `-sl` of several systems",
        "1",
        "refused, naming the file (its name would break the rows); JSON, which escapes it, takes it",
        "tests/robustness/test_tracebacks_and_output.py::test_a_system_name_that_would_break_its_row_is_refused",
    ),
    CheckedElsewhere(
        "a `mtscore report` argument with U+202E or control characters",
        "0",
        "each argument of the shown command isolated (`<bdi>`), hidden characters shown as `$'\\u202e'`",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_the_report_shows_each_argument_of_its_command_isolated_and_visible",
    ),
    CheckedElsewhere(
        "a paired test on one segment",
        "0",
        "sacrebleu's table unchanged, and a warning that one segment cannot support a significance claim (also in "
        "the fuller text, the report and the API)",
        ""
        ""
        "tests/robustness/test_tracebacks_and_output.py::test_a_paired_test_on_one_segment_says_it_cannot_support_its_p_values",
    ),
    CheckedElsewhere(
        "a drop-in test-set call (`mtscore.sacrebleu.utils.get_source_file`, ...) with an unknown test set, pair or "
        "field",
        "API",
        "`TestSetError` naming it and listing the known ones",
        "tests/compat/test_sacrebleu_dropin_datasets.py::test_errors_name_what_is_wrong",
    ),
    CheckedElsewhere(
        "`meta-eval`: a human or metric score that is NaN, infinite or not a number; a score file naming a system "
        "with no output, or a system twice; a file with the wrong number of scores",
        "2",
        "names the file and the line or the system, and says how many scores it needs",
        "tests/metaeval/test_metaeval_cli.py::test_bad_human_scores_are_input_errors",
    ),
    CheckedElsewhere(
        "`meta-eval`: a system that humans never rated (`None` throughout); fewer than three rated systems",
        "0; 2",
        "leaves the unrated system out, as mt-metrics-eval does, and lists it (`unrated_systems` in the JSON); with "
        "fewer than three systems says which are left",
        "tests/metaeval/test_metaeval_cli.py::test_unrated_systems_are_left_out_and_fewer_than_three_is_an_error",
    ),
    CheckedElsewhere(
        "`meta-eval`: external scores missing a selected system, with `None`, or against another reference than the "
        "standard one",
        "2",
        "names the metric and the systems or the reference; never fills in 0 as mt-metrics-eval does",
        "tests/metaeval/test_metaeval_cli.py::test_external_scores_join_and_are_checked",
    ),
    CheckedElsewhere(
        "`meta-eval`: a test set mt-metrics-eval does not know, without `--gold` and `--reference`",
        "2",
        "asks for them and lists the references",
        "tests/metaeval/test_metaeval_cli.py::test_unknown_data_needs_gold_and_reference",
    ),
    CheckedElsewhere(
        "`--scores-file` with a score that is NaN, infinite or not a number, a malformed line, a TSV segment "
        "missing, twice or below 1",
        "2",
        "names the file, the line and what is wrong",
        "tests/external/test_external_scores.py::test_bad_score_files_are_input_errors",
    ),
    CheckedElsewhere(
        "`--scores-file` without scores for a system given with `-i`, or with another number of segments than its "
        "output; a `.sys.score` file; the same file twice",
        "2 (twice: 1)",
        "names the system and the systems the file scores, or both counts; one number per system cannot be resampled",
        "tests/external/test_external_scores.py::test_command_line_refuses_scores_that_do_not_fit",
    ),
    CheckedElsewhere(
        "`--scores-file` with so few rated segments that a resample draws none (`--confidence`, paired tests)",
        "2",
        "refuses: the resampled score is undefined; never an interval or p-value of NaN",
        "tests/external/test_external_scores.py::test_resamples_without_a_rated_segment_are_refused_not_printed_as_nan",
    ),
    CheckedElsewhere(
        "`meta-eval --statistics` naming an unknown level, statistic, grouping or variant",
        "1",
        "usage error listing the known `level:corr_fcn[:avg_by[:variant]]` tasks",
        "tests/metaeval/test_metaeval_variants.py::test_command_line_refuses_an_unknown_statistic_as_a_usage_error",
    ),
    CheckedElsewhere(
        "`meta-eval --statistics sys:pce` where the systems' human scores cover different segments",
        "2",
        "refuses: soft pairwise accuracy needs every system rated on the same segments (mt-metrics-eval would "
        "misalign them)",
        "tests/metaeval/test_metaeval_soft_accuracy.py::test_evaluate_refuses_unevenly_rated_systems_with_a_message",
    ),
    CheckedElsewhere(
        "`meta-eval` with several `-l` and a `--scores` path without `{lp}`, or with `--statistics`, `--svg` or "
        "`--outliers`; an empty pair",
        "1",
        "usage error saying how to name the pair, or that the option is for one language pair",
        "tests/metaeval/test_metaeval_tasksets.py::test_command_line_task_set_usage_errors",
    ),
    CheckedElsewhere(
        "`meta-eval -l en-de -l en-de` (a pair twice), or a task set of one pair",
        "2",
        "names the pair given twice, or asks for two or more",
        "tests/metaeval/test_metaeval_tasksets.py::test_task_sets_refuse_one_pair_pairs_twice_and_foreign_score_files",
    ),
    CheckedElsewhere(
        "`mtscore.explain(..., metric=NAME)` for a metric without an explanation (chrF, TER, Google-BLEU, METEOR, "
        'NIST), or `mtscore.tokenize(line, metric="chrf")`',
        "2",
        "`InputError` naming the metrics that explain (bleu, wer, cer) or that tokenize a line",
        "tests/metrics/test_one_api_shape.py::test_explain_of_a_metric_without_explanation_names_those_that_explain",
    ),
    CheckedElsewhere(
        "`mtscore.explain`/`mtscore.tokenize` with an unknown metric, or an option the metric does not declare",
        "2",
        "`InputError` naming the metric and its options",
        "tests/metrics/test_one_api_shape.py::test_explain_and_tokenize_refuse_unknown_metrics_and_options",
    ),
    CheckedElsewhere(
        "shards (`mtscore stats`, a merged state) of a plugin metric that declares `CorpusWeighted()` and no state "
        "of its own",
        "2",
        "refused: its statistics depend on the whole corpus and it defines no mergeable state; score the whole "
        "corpus at once",
        "tests/scaleout/test_state_hooks.py::test_a_metric_not_additive_without_its_own_state_is_refused",
    ),
    CheckedElsewhere(
        "`meta-eval --human-scores` naming a system that has no `-i` file, or an `-i` system without human scores",
        "2",
        "names the systems and the file",
        "tests/metaeval/test_metaeval_plain_files.py::test_system_without_human_scores_is_an_input_error",
    ),
    CheckedElsewhere(
        "`meta-eval --human-scores` with a missing, extra or repeated segment, `nan` or a non-number",
        "2",
        "names the file and line; `None` or an empty score means not rated",
        "tests/metaeval/test_metaeval_plain_files.py::test_bad_human_score_files_are_input_errors",
    ),
    CheckedElsewhere(
        "`meta-eval -i` with two files of one name, a system named like the reference, or an output whose "
        "length differs from the reference's",
        "2",
        "says which; `--names` sets names apart",
        "tests/metaeval/test_metaeval_plain_files.py::test_bad_system_files_are_input_errors",
    ),
    CheckedElsewhere(
        "`meta-eval` with a system whose human scores are all `None` or empty",
        "0 (2 if fewer than 3 systems are left)",
        "left out, as mt-metrics-eval does, and listed as unrated",
        "tests/metaeval/test_metaeval_plain_files.py::test_unrated_system_is_left_out_and_fewer_than_three_is_an_error",
    ),
    CheckedElsewhere(
        "`meta-eval --scores` TSV with `None`, NaN, a system given twice, a system without output, or a "
        "wrong segment count",
        "2",
        "names the file, line or system",
        "tests/metaeval/test_metaeval_plain_files.py::test_bad_tsv_metric_scores_are_input_errors",
    ),
    CheckedElsewhere(
        "`meta-eval --domain` unknown, without a `.docs` file, without domain-level human scores, or with a "
        "system-level `--scores` file",
        "2",
        "names the domain and the known ones, or the missing file; system-level scores cover every segment",
        "tests/metaeval/test_metaeval_plain_files.py::test_domain_errors",
    ),
    CheckedElsewhere(
        "`meta-eval` with ROOT and `--human-scores`/`-r`/`-i`, ROOT without `-t`/`-l`, or `--names` not one "
        "per `-i` file",
        "1",
        "usage error saying which",
        "tests/metaeval/test_metaeval_plain_files.py::test_plain_file_usage_errors",
    ),
    CheckedElsewhere(
        "`meta-eval --sample-rate 0`, or above 1",
        "1",
        "the sample rate must be in (0, 1]; nothing computed",
        "tests/metaeval/test_metaeval_grouped_significance.py::test_command_line_refuses_a_sample_rate_out_of_range",
    ),
    CheckedElsewhere(
        "`--scores-file` TSV of `system<TAB>score` (system level)",
        "2",
        "refused: the paired tests and intervals need each segment's score",
        "tests/external/test_external_scores.py::test_system_level_tsv_is_refused_for_segment_scores",
    ),
    CheckedElsewhere(
        "TER or NIST given the deprecated `case_sensitive` contradicting the `lowercase` given with it, or "
        "`case_sensitive` that is not True or False",
        "2",
        "`InputError` naming the keywords; give only `lowercase`",
        "tests/metrics/test_case_option.py::test_the_old_keyword_contradicting_lowercase_is_an_input_error",
    ),
    CheckedElsewhere(
        "`corpus_ter(h, r, False, False, False, True)`: the case option by position",
        "-",
        "`TypeError`: `lowercase` is keyword-only, so a value in `case_sensitive`'s old place is never read "
        "with the opposite meaning",
        ""
        "tests/metrics/test_case_option.py::test_a_value_by_position_in_the_old_keywords_place_is_refused_not_read_as_lowercase",
    ),
    CheckedElsewhere(
        "`mtscore.nltk.sentence_nist`/`corpus_nist` where no hypothesis has `n` tokens or every reference is "
        "empty (NLTK divides by zero)",
        "2",
        "`InputError` saying which, and the largest order that can be scored",
        "tests/metrics/test_nltk_gleu_nist_drop_in.py::test_nist_refuses_hypotheses_shorter_than_n_where_nltk_divides_by_zero",
    ),
    CheckedElsewhere(
        "`mtscore.nltk` GLEU/NIST with `max_len` below `min_len`, `n` outside 1-9, or a token that cannot be counted",
        "2",
        "`InputError` naming the argument, segment and reference",
        "tests/metrics/test_nltk_gleu_nist_drop_in.py::test_bad_arguments_are_input_errors_that_name_them",
    ),
    CheckedElsewhere(
        "`mtscore.nltk.meteor_score(..., wordnet=X)` with another WordNet than 3.0, or another stemmer than "
        "NLTK's default Porter",
        "2",
        "`InputError`: mtscore reads WordNet 3.0 itself and cannot use another object's synonyms or stems; "
        "no score without them",
        "tests/metrics/meteor/test_nltk_meteor_drop_in.py::test_other_wordnets_are_refused_by_name",
    ),
    CheckedElsewhere(
        "`mtscore.nltk.meteor_score` given a string instead of tokens, no references, or a token that is not a string",
        "2",
        "`InputError` naming the hypothesis or reference and the token's type",
        "tests/metrics/meteor/test_nltk_meteor_drop_in.py::test_bad_input_is_an_input_error_naming_it",
    ),
    CheckedElsewhere(
        "`metric.score_statistics(rows)` with rows of no segments, or of another width (any metric)",
        "2",
        "`InputError`: the statistics must be non-empty, or a (segments, N) matrix; sacrebleu has no score "
        "for an empty corpus either",
        "tests/core/test_base_bookkeeping.py::test_statistics_of_no_segments_are_refused_by_every_metric",
    ),
    CheckedElsewhere(
        "a whole-number option out of its declared range (`NIST(max_order=10)`, chrF's `char_order=33`, "
        "Google-BLEU's `min_len=0`), a fraction or a truth value",
        "2",
        "`InputError` naming the option and its range, before anything is counted",
        "tests/core/test_base_bookkeeping.py::test_a_whole_number_option_is_checked_against_its_declared_bounds",
    ),
    CheckedElsewhere(
        "`meta-eval --html` to a path that cannot be written",
        "3",
        "says which file and why; nothing else is printed",
        "tests/metaeval/test_metaeval_html.py::test_unwritable_html_path_is_an_output_error",
    ),
    CheckedElsewhere(
        "a system or metric name with markup (`<script>`, `&`) in meta-eval's HTML page",
        "0",
        "shown escaped, as text",
        "tests/metaeval/test_metaeval_html.py::test_names_from_files_are_escaped",
    ),
    CheckedElsewhere(
        "`-t ... --origlang/--subset` with a `--scores-file` that scores the whole test set, or of another length",
        "0 or 2",
        "takes the kept segments' scores; another length is refused naming the filter, the kept and total "
        "segment counts, and both ways to fix it",
        "tests/external/test_external_scores.py::test_scores_of_a_whole_test_set_give_the_kept_segments_of_a_subset",
    ),
]


def test_rows_checked_elsewhere_name_existing_tests() -> None:
    for row in ELSEWHERE:
        path, _, name = row.test.partition("::")
        assert f"def {name}(" in (REPO_ROOT / path).read_text(encoding="utf-8"), row.test


def readme_table() -> str:
    """The README's table: one row per case, generated from ``ROWS`` and ``ELSEWHERE``."""
    lines = ["| input | exit | what mtscore does |", "|---|---|---|"]
    for row in ROWS:
        if isinstance(row.exit, int):
            code = str(row.exit)
        elif isinstance(row.exit, tuple):
            code = " or ".join(map(str, row.exit))
        else:
            others = [f"`-m {metric}`: {code}" for metric, code in row.exit.items() if metric != "*"]
            code = f"{row.exit['*']} ({', '.join(others)})"
        lines.append(f"| {_cell(row.input)} | {code} | {_cell(row.gets)} |")
    for other in ELSEWHERE:
        lines.append(f"| {_cell(other.input)} | {other.exit} | {_cell(other.gets)} |")
    return "\n".join(lines)


def _cell(words: str) -> str:
    return words.replace("|", "\\|")


def readme_section(readme: str) -> tuple[int, int]:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return start, end


def test_readme_lists_every_row() -> None:
    readme = README.read_text(encoding="utf-8")
    start, end = readme_section(readme)
    assert readme[start:end].strip() == readme_table(), (
        "README.md's 'What bad input gets' table is out of date: run "
        "PYTHONPATH=src:tests python tests/robustness/test_bad_input.py"
    )


if __name__ == "__main__":  # rewrite the README's table from ROWS
    readme = README.read_text(encoding="utf-8")
    start, end = readme_section(readme)
    README.write_text(f"{readme[:start]}\n{readme_table()}\n{readme[end:]}", encoding="utf-8")
