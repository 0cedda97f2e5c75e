"""Reading a test set's raw files into its fields (``src``, the references, ``docid`` ...), each a
list of segments, as sacrebleu 2.6.0 turns them into its text files and reads those back:

- WMT XML (WMT21 and later): one file per pair; ``<doc>`` > ``<src>``, ``<ref translator>``,
  ``<hyp system>`` > ``<seg id>``; segments no reference translates are left out; whitespace runs
  become one space. Fields: ``src``, ``ref:T`` per translator (``ref`` without one), ``docid``,
  ``origlang``, one per system, and ``domain`` when the last document kept has one.
- SGML (WMT08-20) and IWSLT XML: the text of each line starting ``<seg `` (entities left as they
  are), whitespace runs as one space; ``docid``, ``genre``, ``origlang`` from the source's ``<doc>``
  lines (not for wmt08). ``sgml+text``: references that are not ``.sgm`` are plain text.
- plain text: one segment per line; TSV: a column of each line.

Every value ends without trailing whitespace, as sacrebleu's ``line.rstrip()`` reads it.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from .errors import TestSetError

SEG_TEXT = re.compile(r"<seg.*?>(.*)</seg>")  # the text between the first <seg ...> and the last </seg>


@dataclass(frozen=True)
class Document:
    """What ``--origlang`` and ``--subset`` look at for a segment: its document's original language
    and the text ``--subset`` searches (WMT XML: the domain; SGML: the document's annotation)."""

    origlang: str | None
    tags: str | None


@dataclass
class PairData:
    """A test set's pair read: its fields (name -> segments, in sacrebleu's order), the fields that
    score, and each segment's document (``None``: before any document, or ``documents`` is ``None``
    where the format has no documents to filter by)."""

    fields: dict[str, list[str]]
    references: list[str]
    documents: list[Document | None] | None


def clean(text: str | None) -> str:
    """Whitespace runs as one space, none at the ends (sacrebleu's cleaning of WMT XML and SGML segments)."""
    return " ".join(text.split()) if text else ""


def lines_of(path: Path) -> list[str]:
    """The lines of a UTF-8 file (gzip when its name ends in ``.gz``), split on ``\\n`` only."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TestSetError(f"cannot read {path}: {error.strerror or error}") from None
    if path.name.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise TestSetError(f"{path} is not a valid gzip file ({error}); delete it to download it again") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TestSetError(f"{path}: invalid UTF-8 at byte {error.start}") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_wmt_xml(path: Path, translators_that_score: tuple[str, ...]) -> PairData:
    """A WMT XML file: its fields, the reference fields of ``translators_that_score`` (``""``: the
    reference without a translator) in the file's order, and each segment's document."""
    try:
        return _wmt_xml(ElementTree.parse(path).getroot(), translators_that_score)
    except ElementTree.ParseError as error:
        raise TestSetError(f"{path} is not valid XML ({error}); delete it to download it again") from None
    except OSError as error:
        raise TestSetError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:  # a segment id that is no number, or no single source or reference language
        raise TestSetError(f"{path}: {error}") from None


def _wmt_xml(root: ElementTree.Element, translators_that_score: tuple[str, ...]) -> PairData:
    for tag in ("src", "ref"):
        languages = {element.get("lang") for element in root.iter(tag)}
        if len(languages) != 1:
            raise ValueError(f"expected one {tag} language, found {len(languages)}")
    translators = list(dict.fromkeys(ref.get("translator") for ref in root.iter("ref")))
    names = [_reference_field(translator) for translator in translators]
    source: list[str | None] = []
    references: list[list[str]] = [[] for _ in translators]
    systems: dict[str, list[str]] = {}
    docids: list[str | None] = []
    origlangs: list[str | None] = []
    domains: list[str | None] = []
    has_domain = False
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        source_segments = _segments(doc, "src")
        by_translator = {ref.get("translator"): _texts(ref) for ref in doc.iter("ref")}
        by_system = {hyp.get("system") or "": _texts(hyp) for hyp in doc.iter("hyp")}
        for number in sorted(source_segments):
            if not any(texts.get(number) for texts in by_translator.values()):
                continue  # no reference translates it
            for stream, translator in zip(references, translators, strict=True):
                stream.append(by_translator.get(translator, {}).get(number, ""))
            source.append(source_segments[number])
            for system, texts in by_system.items():
                systems.setdefault(system, []).append(texts.get(number, ""))
            docids.append(doc.get("id"))
            origlangs.append(doc.get("origlang"))
            domains.append(doc.get("domain"))
            has_domain = doc.get("domain") is not None  # as sacrebleu: whether the last segment's document has one
    fields: dict[str, Sequence[str | None]] = {"src": source, **dict(zip(names, references, strict=True))}
    fields["docid"] = docids
    fields["origlang"] = origlangs
    fields.update(systems)
    if has_domain:
        fields["domain"] = domains
    else:  # sacrebleu then looks for no domain: --subset keeps nothing
        domains = [None] * len(domains)
    documents: list[Document | None] = [Document(*pair) for pair in zip(origlangs, domains, strict=True)]
    wanted = {_reference_field(translator) for translator in translators_that_score}
    return PairData(
        {name: [clean(value) for value in values] for name, values in fields.items()},
        [name for name in names if name in wanted],
        documents,
    )


def _reference_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _segments(doc: ElementTree.Element, tag: str) -> dict[int, str | None]:
    return {int(seg.get("id", "0")): seg.text for element in doc.iter(tag) for seg in element.iter("seg")}


def _texts(element: ElementTree.Element) -> dict[int, str]:
    return {int(seg.get("id", "0")): seg.text or "" for seg in element.iter("seg")}


def read_sgml(name: str, paths: list[Path], plain_references: bool, subsets: dict[str, str] | None) -> PairData:
    """SGML or IWSLT XML files (source first, then each reference; ``plain_references``: those not
    ending in ``.sgm`` are plain text). ``subsets``: the set's document annotations (docid -> tags),
    if it has them. Documents are known when the source is a ``.sgm`` file."""
    source_lines = lines_of(paths[0])
    fields = {"src": _sgml_segments(source_lines)}
    reference_names = ["ref"] if len(paths) == 2 else [f"ref:{number}" for number in range(len(paths) - 1)]
    for field, path in zip(reference_names, paths[1:], strict=True):
        lines = lines_of(path)
        if plain_references and not path.name.endswith(".sgm"):
            fields[field] = [line.rstrip() for line in lines]
        else:
            fields[field] = _sgml_segments(lines)
    if not name.startswith("wmt08"):
        for meta in ("docid", "genre", "origlang"):
            fields[meta] = _sgml_attribute(source_lines, meta)
    documents = _sgml_documents(source_lines, subsets) if paths[0].name.endswith(".sgm") else None
    return PairData(fields, reference_names, documents)


def _sgml_segments(lines: list[str]) -> list[str]:
    return [clean(SEG_TEXT.sub(r"\1", line)) for line in lines if line.startswith("<seg ")]


def _sgml_attribute(lines: list[str], attribute: str) -> list[str]:
    """Each segment's value of its ``<doc>``'s ``attribute`` (kept from an earlier document when
    a ``<doc>`` line lacks it, as sacrebleu carries it)."""
    pattern = re.compile(attribute + r'="(.*?)"')
    values, value = [], ""
    for line in lines:
        if line.startswith("<doc "):
            match = pattern.search(line)
            value = match.group(1) if match else value
        elif line.startswith("<seg "):
            values.append(value.rstrip())
    return values


def _sgml_documents(lines: list[str], subsets: dict[str, str] | None) -> list[Document | None]:
    """Each segment's document: its ``origlang`` and, from ``subsets``, its docid's annotation ('' if none)."""
    documents: list[Document | None] = []
    document = None
    for line in lines:
        if line.startswith("<doc "):
            docid = _last_attribute(line, "docid")
            tags = (subsets or {}).get(docid or "", "")
            document = Document(_last_attribute(line, "origlang"), tags)
        elif line.startswith("<seg "):
            documents.append(document)
    return documents


def _last_attribute(line: str, attribute: str) -> str | None:
    """The value of the last `` attribute="..."`` of a line (non-empty, as sacrebleu reads it)."""
    match = re.match(rf'.* {attribute}="([^"]+)"', line)
    return match.group(1) if match else None


def read_text(paths: list[Path]) -> PairData:
    """Plain text: the source file, then the reference file, one segment per line."""
    fields = {
        field: [line.rstrip() for line in lines_of(path)] for field, path in zip(("src", "ref"), paths, strict=True)
    }
    return PairData(fields, ["ref"], None)


def read_tsv(paths: list[Path], specs: tuple[str, ...]) -> PairData:
    """TSV: each field a column of a file, ``COLUMN:FILE`` in the registry (plain ``FILE``: column 0
    for the source, 1 for the reference)."""
    fields = {}
    for field, path, spec in zip(("src", "ref"), paths, specs, strict=True):
        column = int(spec.split(":")[0]) if spec.count(":") == 1 else 0 if field == "src" else 1
        values = []
        for number, line in enumerate(lines_of(path), 1):
            cells = line.split("\t")
            if column >= len(cells):
                raise TestSetError(f"{path}: line {number} has no column {column} (it has {len(cells)})")
            values.append(cells[column].rstrip())
        fields[field] = values
    return PairData(fields, ["ref"], None)


def tsv_file(spec: str) -> str:
    """The file of a TSV field's ``COLUMN:FILE`` (or ``FILE``)."""
    return spec.split(":")[1] if spec.count(":") == 1 else spec
