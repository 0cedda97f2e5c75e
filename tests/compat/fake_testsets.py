"""Small made-up copies of sacrebleu 2.6.0's test sets, written straight into a cache folder
(``$SACREBLEU/NAME/raw/``) at the paths its registry reads: the same file names and formats as the
real downloads, unpacked, so that sacrebleu and ``mtscore.sacrebleu`` read them without a network.

Every pair file of a set holds the same segments for every pair that reads it:

- WMT XML: two documents (``origlang`` the pair's source, then its target language, domains
  ``news`` and ``speech``), each segment with the scoring translators' references and one more
  translator's (the next letter), one system's output, and one source segment no reference
  translates (left out by both tools).
- SGML and IWSLT XML: two documents (``origlang="en"`` with two segments, ``"de"`` with one; docids
  from the set's ``--subset`` annotations where it has them), whitespace runs inside segments.
- plain text (gzip where the name ends in ``.gz``), the references of ``sgml+text`` sets that are not
  ``.sgm``, and TSV files with every column the registry reads.

Each download the registry lists is there too, saved under sacrebleu's name (``NAME.BASENAME``): the
pair file itself where the download is one, else a stand-in for the archive (sacrebleu downloads any
that is missing before it reads the unpacked files; neither tool reads a present one again).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

from mtscore.testsets import data, formats, registry

SEGMENTS = 3  # of every SGML, text and TSV file


def write_fake_cache(cache: Path, names: list[str]) -> None:
    """Write the raw files of every pair of the test sets ``names`` under ``cache``."""
    for name in names:
        test_set = registry.SETS[name]
        raw = cache / name / "raw"
        if test_set.format == "wmt-xml":
            for pair, (path,) in test_set.pairs.items():
                _write(raw / path, _wmt_xml(pair, test_set.scoring_translators(pair)))
        elif test_set.format == "tsv":
            _write_tsv(raw, [spec for files in test_set.pairs.values() for spec in files])
        else:
            for files in test_set.pairs.values():
                for number, path in enumerate(files):
                    _write(raw / path, _sgml_or_text(name, test_set.format, path, number == 0))
        for download in test_set.downloads:
            saved = raw / f"{name.replace('/', '_')}.{os.path.basename(download.url)}"
            if not saved.exists():
                _write(saved, f"a stand-in for {download.url}, whose files are unpacked here\n")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = text.encode("utf-8")
    path.write_bytes(gzip.compress(body, mtime=0) if path.name.endswith(".gz") else body)


def _next_translator(translator: str) -> str | None:
    """Another translator's name than ``translator``: its last letter advanced (``A`` -> ``B``,
    ``refA`` -> ``refB``); none for the reference without a translator."""
    if not translator:
        return None
    return translator[:-1] + chr(ord(translator[-1]) + 1)


def _wmt_xml(pair: str, scoring: tuple[str, ...]) -> str:
    source, target = pair.split("-")
    extra = _next_translator(scoring[-1]) if scoring else None
    translators = [*scoring, *([extra] if extra and extra not in scoring else [])]
    documents = []
    for number, (origlang, domain) in enumerate(((source, "news"), (target, "speech")), 1):
        segments = {1: f"Source  {pair} document {number} one.", 2: f"Source {pair} document {number}  two"}
        segments[3] = f"Source {pair} document {number} without a reference"
        refs = "".join(
            f'<ref lang="{target}"'
            + (f' translator="{translator}"' if translator else "")
            + "><p>"
            + "".join(f'<seg id="{seg}">{translator or "plain"} ref {number}.{seg}  text </seg>' for seg in (1, 2))
            + "</p></ref>"
            for translator in translators
        )
        hyp = "".join(f'<seg id="{seg}">system output {number}.{seg}</seg>' for seg in (1, 2, 3))
        src = "".join(f'<seg id="{seg}">{text}</seg>' for seg, text in segments.items())
        documents.append(
            f'<doc id="doc{number}" origlang="{origlang}" domain="{domain}">'
            f'<src lang="{source}"><p>{src}</p></src>{refs}'
            f'<hyp system="fake-system" language="{target}"><p>{hyp}</p></hyp></doc>'
        )
    collection = f'<collection id="general">{"".join(documents)}</collection>'
    return f'<?xml version="1.0" encoding="utf-8"?>\n<dataset id="fake">{collection}</dataset>\n'


def _sgml_or_text(name: str, format: str, path: str, is_source: bool) -> str:
    """A file of an SGML, IWSLT XML or plain-text set: its segments name the file."""
    texts = [f"{Path(path).name}  segment {number} ." for number in range(1, SEGMENTS + 1)]
    plain = format == "text" or (format == "sgml+text" and not is_source and not path.endswith(".sgm"))
    if plain:
        return "".join(f"{text}\n" for text in texts)
    docids = list(data.SUBSETS.get(name, {}))[:2] or ["fake.1", "fake.2"]
    lines = ['<srcset setid="fake" srclang="any">']
    for docid, origlang, numbers in ((docids[0], "en", (1, 2)), (docids[1], "de", (3,))):
        lines += [f'<doc sysid="ref" docid="{docid}" genre="news" origlang="{origlang}">', "<p>"]
        lines += [f'<seg id="{number}"> {texts[number - 1]} </seg>' for number in numbers]
        lines += ["</p>", "</doc>"]
    lines.append("</srcset>")
    return "\n".join(lines) + "\n"


def _write_tsv(raw: Path, specs: list[str]) -> None:
    """Each TSV file with as many columns as the registry's ``COLUMN:FILE`` entries need."""
    columns: dict[str, int] = {}
    for spec in specs:
        column = int(spec.split(":")[0]) if spec.count(":") == 1 else 1
        file = formats.tsv_file(spec)
        columns[file] = max(columns.get(file, 0), column + 1)
    for file, count in columns.items():
        rows = [
            "\t".join(f"{Path(file).name} c{column} s{number}" for column in range(count))
            for number in range(1, SEGMENTS + 1)
        ]
        _write(raw / file, "".join(f"{row}\n" for row in rows))


def describe(dataset_module: Any, utils_module: Any, cache: Path) -> dict[str, Any]:
    """What a ``sacrebleu.dataset`` and ``sacrebleu.utils`` (sacrebleu's or the drop-in's) make of
    every pair of every test set in ``cache``: each field's text file (path relative to the cache, and
    its text), the source and reference files, ``source()``, ``references()`` (each file's lines), the reference fields
    that score (WMT XML), the documents' original languages and subsets, and the paths of the raw
    folder and downloads. An error is kept as its type's name (sacrebleu fails on some pairs)."""

    def relative(path: str) -> str:
        return os.path.relpath(path, cache)

    described: dict[str, Any] = {}
    for name, dataset in dataset_module.DATASETS.items():
        described[name] = {
            "rawdir": relative(dataset._rawdir),
            "downloads": [dataset._get_tarball_filename(url) for url in dataset.data],
        }
        for pair in dataset.langpairs:
            fields = dataset.fieldnames(pair)
            files = dataset.get_files(pair)
            item: dict[str, Any] = {
                "files": {field: [relative(path), _text(path)] for field, path in zip(fields, files, strict=True)},
                "source_file": relative(dataset.get_source_file(pair)),
                "reference_files": sorted(map(relative, dataset.get_reference_files(pair))),
                "source": list(dataset.source(pair)),
                # as streams, sorted: sacrebleu orders a WMT XML pair's translators as a Python set
                "references": sorted(map(list, zip(*dataset.references(pair), strict=True))),
            }
            if hasattr(dataset, "_get_langpair_allowed_refs"):
                item["allowed_refs"] = dataset._get_langpair_allowed_refs(pair)
            for function in ("get_available_origlangs", "get_available_subsets"):
                try:
                    item[function] = getattr(utils_module, function)(name, pair)
                except Exception as error:
                    item[function] = type(error).__name__
            described[f"{name}:{pair}"] = item
    return described


def _text(path: str) -> str:
    """A text file's content, its line ends as they are."""
    return Path(path).read_bytes().decode("utf-8")


if __name__ == "__main__":  # the oracle: sacrebleu's view of $SACREBLEU as JSON
    import json
    import sys

    import sacrebleu.dataset
    import sacrebleu.utils

    json.dump(describe(sacrebleu.dataset, sacrebleu.utils, Path(os.environ["SACREBLEU"])), sys.stdout)
