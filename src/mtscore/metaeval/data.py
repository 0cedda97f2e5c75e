"""Reading an mt-metrics-eval data folder: one test set and language pair.

The layout is mt-metrics-eval's own (``<root>/<test set>/...``)::

    sources/<lp>.txt
    references/<lp>.<ref>.txt
    system-outputs/<lp>/<system>.txt
    human-scores/<lp>.<gold>.{seg,sys}.score
    metric-scores/<lp>/<metric>-<ref>.{seg,sys}.score
    documents/<lp>.docs                      (optional: "<domain> <document>" per segment)

Score files hold ``<system> <score>`` per line (``.seg.score``: one line per segment of each system,
in order); ``None`` marks a segment or system that humans did not rate. Text lines lose their trailing
whitespace, as mt-metrics-eval reads them (a byte order mark stays in the first line, as there).
Everything is checked on reading: a score file for a system without output, a wrong number of
scores, NaN or a malformed line is an input error naming the file and the line, never a silently
dropped or repaired score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, counted
from ..external.files import read_tsv_scores
from ..files.read import read_lines
from ..files.scores import parse_score

LEVELS = ("sys", "seg")
DOMAIN_LEVEL = "domain"  # human scores per domain: "<domain> <system> <score>" lines
# A file of mt-metrics-eval's metric scores: NAME-REF.LEVEL.score (the level a known one).
_METRIC_FILE = re.compile(r"^(?P<name>.+)-(?P<refs>[^-]+)\.(?P<level>sys|seg)\.score$")

Scores = dict[str, list[float | None]]  # system -> one score (sys) or one per segment (seg)


@dataclass
class EvalSet:
    """The data of one test set and language pair, as read from an mt-metrics-eval folder.

    Attributes:
        test_set: The test set's name (the folder under the root), e.g. ``wmt23``.
        lp: The language pair, e.g. ``en-de``.
        sources: The source segments.
        references: Reference name (``refA``) -> its segments.
        outputs: System name -> its segments; human translations are among them, as upstream.
        human_scores: ``(gold, level)`` -> the human scores, e.g. ``("mqm", "seg")``; level ``domain``:
            each system's score per domain, in the order of ``domain_names``.
        metric_scores: ``(metric, refs, level)`` -> scores stored in ``metric-scores/``.
        domains: The domain of each segment, or ``None`` without a documents file.
        domain: The one domain kept (``in_domain``), or ``None`` for all segments.
    """

    test_set: str
    lp: str
    sources: list[str]
    references: dict[str, list[str]]
    outputs: dict[str, list[str]]
    human_scores: dict[tuple[str, str], Scores] = field(default_factory=dict)
    metric_scores: dict[tuple[str, str, str], Scores] = field(default_factory=dict)
    domains: list[str] | None = None
    domain: str | None = None  # the domain these segments were chosen from (``in_domain``)

    @property
    def domain_names(self) -> list[str]:
        """The domains of the segments, sorted (mt-metrics-eval's canonical order)."""
        return sorted(set(self.domains or ()))

    def in_domain(self, domain: str) -> EvalSet:
        """The segments of ``domain`` only, as mt-metrics-eval's ``GetCorrelations`` filters them: segment
        scores of the domain's segments, and as system-level human scores the domain-level ones.

        Raises:
            InputError: no documents file, an unknown domain, or no domain-level human scores.
        """
        if self.domains is None:
            raise InputError(
                f"{self.test_set}/{self.lp} has no documents file (documents/{self.lp}.docs, '<domain> <document>' "
                "per segment): no domains to choose from"
            )
        if domain not in self.domain_names:
            raise InputError(
                f"{self.test_set}/{self.lp} has no domain {domain!r}; domains: {', '.join(self.domain_names)}"
            )
        keep = self.segment_mask(domain)
        assert keep is not None  # the domains are known (checked above)
        position = self.domain_names.index(domain)

        def kept(values: list) -> list:
            return [value for value, chosen in zip(values, keep, strict=True) if chosen]

        human: dict[tuple[str, str], Scores] = {}
        for (gold, level), scores in self.human_scores.items():
            if level == "seg":
                human[(gold, "seg")] = {system: kept(values) for system, values in scores.items()}
            elif level == DOMAIN_LEVEL:
                human[(gold, "sys")] = {system: [values[position]] for system, values in scores.items()}
        return EvalSet(
            test_set=self.test_set,
            lp=self.lp,
            sources=kept(self.sources),
            references={name: kept(lines) for name, lines in self.references.items()},
            outputs={name: kept(lines) for name, lines in self.outputs.items()},
            human_scores=human,
            metric_scores={
                key: {system: kept(values) for system, values in scores.items()}
                for key, scores in self.metric_scores.items()
                if key[2] == "seg"
            },
            domains=kept(self.domains),
            domain=domain,
        )

    def segment_mask(self, domain: str | None) -> list[bool] | None:
        """Which segments belong to ``domain`` (``None``: no filter)."""
        if domain is None or self.domains is None:
            return None
        return [segment_domain == domain for segment_domain in self.domains]

    @property
    def human_systems(self) -> set[str]:
        """The outputs that are human translations: those named like a reference."""
        return set(self.outputs) & set(self.references)

    def gold(self, name: str, level: str) -> Scores:
        """The human scores ``name`` (``mqm``) at ``level`` (``sys`` or ``seg``)."""
        if (name, level) not in self.human_scores:
            if self.domain is not None and level == "sys":
                raise InputError(
                    f"{self.test_set}/{self.lp} has no domain-level human scores called {name!r} "
                    f"(human-scores/{self.lp}.{name}.domain.score): system level in domain {self.domain!r} needs them"
                )
            known = sorted({gold for gold, _ in self.human_scores}) or ["none"]
            raise InputError(
                f"{self.test_set}/{self.lp} has no {level}-level human scores called {name!r} "
                f"(human-scores/{self.lp}.{name}.{level}.score); it has: {', '.join(known)}"
            )
        return self.human_scores[(name, level)]


def read_eval_set(root: str | Path, test_set: str, lp: str) -> EvalSet:
    """Read ``<root>/<test_set>`` for language pair ``lp``.

    Args:
        root: The folder that holds the test sets (mt-metrics-eval's ``mt-metrics-eval-v2``).
        test_set: The test set's folder name, e.g. ``wmt23``.
        lp: The language pair, e.g. ``en-de``.

    Returns:
        The sources, references, system outputs, human scores, stored metric scores and domains.

    Raises:
        InputError: a missing folder or file, files of different lengths, or a bad score file.
    """
    folder = Path(root) / test_set
    if not folder.is_dir():
        raise InputError(f"no test set folder {folder} (expected <root>/<test set>, mt-metrics-eval's layout)")
    sources_path = folder / "sources" / f"{lp}.txt"
    if not sources_path.is_file():
        raise InputError(f"no source file {sources_path}: is {lp!r} a language pair of {test_set}?")
    sources = read_text(sources_path)
    references = _read_named_texts(folder / "references", f"{lp}.", ".txt", len(sources), "reference")
    if not references:
        raise InputError(f"no references {folder / 'references'}/{lp}.<name>.txt")
    outputs = _read_named_texts(folder / "system-outputs" / lp, "", ".txt", len(sources), "system output")
    if not outputs:
        raise InputError(f"no system outputs in {folder / 'system-outputs' / lp}")
    evs = EvalSet(test_set, lp, sources, references, outputs)
    evs.domains = _read_domains(folder / "documents" / f"{lp}.docs", len(sources))
    for path in sorted((folder / "human-scores").glob(f"{lp}.*.*.score")):
        gold, _, level = path.name[len(lp) + 1 : -len(".score")].rpartition(".")
        if level in LEVELS and gold:
            evs.human_scores[(gold, level)] = read_score_file(path, evs, level, human=True)
        elif level == DOMAIN_LEVEL and gold and evs.domains is not None:
            evs.human_scores[(gold, level)] = _read_domain_scores(path, evs)
    metric_folder = folder / "metric-scores" / lp
    for path in sorted(metric_folder.glob("*.score")) if metric_folder.is_dir() else []:
        match = _METRIC_FILE.match(path.name)
        if match:
            key = (match["name"], match["refs"], match["level"])
            evs.metric_scores[key] = read_score_file(path, evs, match["level"], human=False)
    return evs


def read_text(path: Path) -> list[str]:
    """The lines of a UTF-8 text file as mt-metrics-eval reads them: without trailing whitespace, and
    with a byte order mark kept as part of the first line (the official WMT23 scores count it)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path} is not UTF-8 text (byte {error.start}: {error.reason})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _read_named_texts(folder: Path, prefix: str, suffix: str, length: int, what: str) -> dict[str, list[str]]:
    """``name -> lines`` of the files ``<prefix><name><suffix>`` in ``folder``, each ``length`` lines long."""
    texts: dict[str, list[str]] = {}
    for path in sorted(folder.glob(f"{prefix}*{suffix}")) if folder.is_dir() else []:
        name = path.name[len(prefix) : -len(suffix)]
        lines = read_text(path)
        if len(lines) != length:
            raise InputError(
                f"{what} {path} has {counted(len(lines), 'line')} but the source has {length}; "
                "every file needs one line per segment"
            )
        texts[name] = lines
    return texts


def _read_domains(path: Path, length: int, *, required: bool = False) -> list[str] | None:
    """The domain of each segment from a ``.docs`` file (``<domain> <document>`` per line), if there is one."""
    if not path.is_file():
        if required:
            raise InputError(f"no documents file {path}")
        return None
    domains = []
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split()
        if len(fields) != 2:
            raise InputError(f"{path} line {number}: expected '<domain> <document>', got {line!r}")
        domains.append(fields[0])
    if len(domains) != length:
        raise InputError(f"{path} has {counted(len(domains), 'line')} but the source has {length}")
    return domains


def _read_domain_scores(path: Path, evs: EvalSet) -> Scores:
    """``system -> score per domain`` (in ``evs.domain_names`` order) from ``<domain> <system> <score>`` lines;
    a domain a system has no line for is ``None`` (not rated), as mt-metrics-eval reads it."""
    names = evs.domain_names
    scores: Scores = {}
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split()
        if len(fields) != 3:
            raise InputError(f"{path} line {number}: expected '<domain> <system> <score>', got {line!r}")
        domain, system, text = fields
        if domain not in names:
            raise InputError(f"{path} line {number}: domain {domain!r} is not one of documents/{evs.lp}.docs")
        if system not in evs.outputs:
            raise InputError(f"{path} line {number}: {system!r} has no output in system-outputs/{evs.lp}/")
        values = scores.setdefault(system, [None] * len(names))
        values[names.index(domain)] = parse_score(text, path, number, True)
    return scores


def parse_score_lines(path: Path, *, allow_none: bool) -> Scores:
    """``system -> scores`` in file order from the lines ``<system> <score>`` of ``path``.

    Raises:
        InputError: a line without exactly two fields, a score that is not a number, NaN or an
            infinity, or ``None`` where it is not allowed (metric scores).
    """
    scores: Scores = {}
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split()
        if not fields:
            raise InputError(f"{path} line {number} is empty; expected '<system> <score>'")
        if len(fields) != 2:
            raise InputError(f"{path} line {number}: expected '<system> <score>', got {line!r}")
        system, text = fields
        scores.setdefault(system, []).append(parse_score(text, path, number, allow_none))
    return scores


def read_score_file(path: str | Path, evs: EvalSet, level: str, *, human: bool) -> Scores:
    """Read and check a ``.sys.score`` or ``.seg.score`` file against the outputs of ``evs``.

    Args:
        path: The score file.
        evs: The data whose systems and segment count the scores must fit.
        level: ``sys`` (one score per system) or ``seg`` (one per segment).
        human: Human scores may be ``None`` (not rated); metric scores may not.

    Returns:
        ``system -> scores``.

    Raises:
        InputError: a system without output, a wrong number of scores, or a bad line.
    """
    path = Path(path)
    scores = parse_score_lines(path, allow_none=human)
    expected = 1 if level == "sys" else len(evs.sources)
    for system, values in scores.items():
        if system not in evs.outputs:
            raise InputError(
                f"{path} has scores for {system!r}, which has no output in system-outputs/{evs.lp}/ "
                "(a misspelt name, or the output is missing)"
            )
        if len(values) != expected:
            what = "once" if level == "sys" else f"once per segment ({expected} lines)"
            raise InputError(
                f"{path} has {counted(len(values), 'score')} for {system!r}; "
                f"a {level}-level file lists each system {what}"
            )
    return scores


def read_plain_eval_set(
    human_scores: str | Path,
    reference: str | Path,
    systems: Sequence[str | Path],
    *,
    names: Sequence[str] | None = None,
    gold: str | None = None,
    lp: str = "",
    documents: str | Path | None = None,
) -> EvalSet:
    """Data from plain files, for people with their own ratings: one reference, one file per system
    and a TSV of human scores.

    The human scores are ``system TAB segment TAB score`` lines (segments numbered from 1, after an
    optional header ``system TAB segment TAB score``); ``None`` or an empty score marks a segment
    nobody rated. A system's system-level human score is the mean of its rated segments (WMT23's MQM
    system scores are exactly that); a system with no rated segment is left out, as mt-metrics-eval
    leaves it out.

    Args:
        human_scores: The TSV of human scores.
        reference: The reference file, one segment per line (its base name less its extension names it).
        systems: The system output files, as long as the reference.
        names: The systems' names (default: each file's base name less its extension).
        gold: The human scores' name (default: the TSV's base name less its extension).
        lp: The language pair, if known (shown in results).
        documents: mt-metrics-eval's ``.docs`` file (``<domain> <document>`` per segment), for ``--domain``.

    Returns:
        The data, with the reference as the only reference and no source text (no metric needs it).

    Raises:
        InputError: files of different lengths, duplicate or empty names, a human-score file whose
            systems or segments do not match the outputs, or a bad score line.
    """
    reference_path = Path(reference)
    reference_lines = read_text(reference_path)
    length = len(reference_lines)
    if names is not None and len(names) != len(systems):
        raise InputError(f"{counted(len(names), 'name')} for {counted(len(systems), 'system file')}; give one each")
    system_names = list(names) if names is not None else [_stem(Path(path)) for path in systems]
    reference_name = _stem(reference_path)
    _check_names(system_names, systems, reference_name)
    outputs: dict[str, list[str]] = {}
    for name, path in zip(system_names, map(Path, systems), strict=True):
        lines = read_text(path)
        if len(lines) != length:
            raise InputError(
                f"system output {path} has {counted(len(lines), 'line')} but the reference {reference_path} has "
                f"{length}; every file needs one line per segment"
            )
        outputs[name] = lines
    human_path = Path(human_scores)
    human_lines = read_lines(human_path)
    if not human_lines:
        raise InputError(f"{human_path} is empty: no human scores")
    level, segment_scores = read_tsv_scores(human_path, human_lines)
    if level != "seg":
        raise InputError(
            f"{human_path} holds one score per system; give each segment's human score "
            "(system<TAB>segment<TAB>score, None or empty where not rated)"
        )
    _check_human_systems(human_path, segment_scores, outputs, length)
    gold_name = gold if gold is not None else _stem(human_path)
    system_scores: Scores = {system: [_mean_in(values, [""] * length, "")] for system, values in segment_scores.items()}
    evs = EvalSet(
        test_set=human_path.name,
        lp=lp,
        sources=[""] * length,
        references={reference_name: reference_lines},
        outputs=outputs,
        human_scores={(gold_name, "seg"): segment_scores, (gold_name, "sys"): system_scores},
    )
    if documents is not None:
        domains = _read_domains(Path(documents), length, required=True) or []
        evs.domains = domains
        evs.human_scores[(gold_name, DOMAIN_LEVEL)] = {
            system: [_mean_in(values, domains, domain) for domain in evs.domain_names]
            for system, values in segment_scores.items()
        }
    return evs


def _mean_in(values: list[float | None], domains: list[str], domain: str) -> float | None:
    """The mean of the rated scores of ``domain``'s segments (``None`` if none is rated)."""
    rated_values = [value for value, its in zip(values, domains, strict=True) if its == domain and value is not None]
    return sum(rated_values) / len(rated_values) if rated_values else None


def _stem(path: Path) -> str:
    """A file's base name less its last extension (``sysA.txt``: ``sysA``)."""
    return path.stem or path.name


def _check_names(names: list[str], paths: Sequence[str | Path], reference_name: str) -> None:
    """System names must be non-empty, single words (score files split on whitespace), distinct, and
    not the reference's."""
    for name, path in zip(names, paths, strict=True):
        if not name or name != name.strip() or len(name.split()) != 1:
            raise InputError(f"the system name {name!r} (of {path}) must be one word without spaces")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"two system files have the name {', '.join(map(repr, twice))}: name them apart (--names)")
    if reference_name in names:
        raise InputError(
            f"a system is named {reference_name!r}, like the reference: the reference is never a system; "
            "name it apart (--names)"
        )


def _check_human_systems(path: Path, scores: Scores, outputs: dict[str, list[str]], length: int) -> None:
    """The human scores must be of exactly the systems given, each with one score per segment."""
    without_output = sorted(set(scores) - set(outputs))
    if without_output:
        raise InputError(
            f"{path} has scores for {', '.join(map(repr, without_output))}, which has no output among the system "
            f"files ({', '.join(outputs)}); a misspelt name, or give its file (names are file names less extension)"
        )
    without_scores = [name for name in outputs if name not in scores]
    if without_scores:
        raise InputError(
            f"{path} has no scores for {', '.join(map(repr, without_scores))}; give every system's segments "
            "(None or empty where not rated)"
        )
    for system, values in scores.items():
        if len(values) != length:
            raise InputError(
                f"{path} has scores up to segment {len(values)} for {system!r}, but its output has "
                f"{counted(length, 'line')}; give every segment (None or empty where not rated)"
            )
