"""MkDocs hooks: the command-line reference is rendered from the argparse parsers at build time.

A page asks for a parser's reference with a marker on a line of its own::

    <!-- mtscore-cli: mtscore -->            the option tables and the full --help of `mtscore`
    <!-- mtscore-cli: mtscore explain -->    the same for `mtscore explain`
    <!-- mtscore-options: bleu -->           the options a metric declares (metrics/<name>/options.py)
    <!-- mtscore-api-metrics -->             the API index's rows of the built-in metrics

The nav's metric pages (``docs/metrics/<name>.md``) and API pages (``docs/api/<name>.md``) are
listed from the registry (``mtscore.metrics.METRICS``) too: ``on_config`` puts them first in the
sections ``Metrics`` and ``API reference`` (after its overview); a metric without its pages stops
the build. A metric documented on another's pages says so in its options module (``DOCUMENTED_WITH``).

Nothing of the help text is copied into the docs: every build reads it from the parsers and the
metrics' option declarations, so the reference cannot drift from the command. The sources in
``src/`` come first on ``sys.path``, so the docs describe this checkout, not whatever version
happens to be installed (an mtscore imported earlier from elsewhere, as in the tests of an installed
package, must hold the same sources).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from collections.abc import Callable
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
sys.path.insert(0, str(SRC))
import mtscore  # noqa: E402  (this checkout's, imported now: later imports, whatever sys.path is then, find it)


def _same_sources(package: Path) -> bool:
    """Whether ``package`` (an installed mtscore) holds exactly this checkout's Python sources."""
    for source in (SRC / "mtscore").rglob("*.py"):
        installed = package / source.relative_to(SRC / "mtscore")
        if not installed.is_file() or installed.read_bytes() != source.read_bytes():
            return False
    return True


_IMPORTED = Path(mtscore.__file__).resolve().parent
if _IMPORTED != SRC / "mtscore" and not _same_sources(_IMPORTED):
    raise ImportError(
        f"docs/hooks.py: mtscore was imported from {mtscore.__file__}, not from {SRC}, and its sources differ "
        "from this checkout's"
    )

HELP_WIDTH = 100  # --help is formatted at this width whatever the terminal of the build
MARKER = re.compile(r"^<!-- mtscore-cli: (?P<prog>[\w -]+?) -->$", re.M)
OPTIONS_MARKER = re.compile(r"^<!-- mtscore-options: (?P<metric>\w+) -->$", re.M)


def parser_builders() -> dict[str, Callable[[], argparse.ArgumentParser]]:
    """The command's parsers by program name."""
    # The one place that names the parser builders: one per subcommand module of mtscore.cli.
    from mtscore.cli import explain, report, score, shards

    return {
        "mtscore": score.build_parser,
        "mtscore explain": explain.build_parser,
        "mtscore report": report.build_parser,
        "mtscore stats": shards.build_stats_parser,
        "mtscore merge": shards.build_merge_parser,
    }


def _fixed_width(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser, formatting its help at ``HELP_WIDTH`` with its own formatter class."""
    formatter = parser.formatter_class
    parser.formatter_class = lambda prog: formatter(prog, width=HELP_WIDTH)
    return parser


def _cell(text: str) -> str:
    """Prose for a Markdown table cell: one line, HTML escaped, pipes kept out of the table syntax."""
    return html.escape(" ".join(text.split()), quote=False).replace("|", "&#124;")


def _code_cell(text: str) -> str:
    """A code span for a Markdown table cell (a code span shows entities as typed: no escaping)."""
    if "|" in text or "`" in text:
        raise ValueError(f"cannot put {text!r} in a table's code span")
    return f"`{text}`"


def _spelling(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    """``-tok/--tokenize {13a,intl,...}`` as the usage line writes it."""
    formatter = parser._get_formatter()
    if not action.option_strings:
        return formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
    names = "/".join(action.option_strings)
    if action.nargs == 0:
        return names
    return f"{names} {formatter._format_args(action, formatter._get_default_metavar_for_optional(action))}"


def _default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS):
        return ""
    value = " ".join(map(str, action.default)) if isinstance(action.default, list) else str(action.default)
    return _code_cell(value)


def options_tables(parser: argparse.ArgumentParser) -> str:
    """One Markdown table per argument group of ``parser``: spelling, meaning, default."""
    parts = []
    for group in parser._action_groups:
        actions = [action for action in group._group_actions if action.help is not argparse.SUPPRESS]
        if not actions:
            continue
        title = {"positional arguments": "Arguments", "options": "Options", "optional arguments": "Options"}.get(
            group.title, group.title
        )
        rows = ["| option | meaning | default |", "|---|---|---|"]
        for action in actions:
            meaning = parser._get_formatter()._expand_help(action) if action.help else ""
            rows.append(f"| {_code_cell(_spelling(action, parser))} | {_cell(meaning)} | {_default(action)} |")
        parts.append(f"**{title}**\n\n" + "\n".join(rows))
    return "\n\n".join(parts)


def reference(prog: str) -> str:
    """The Markdown reference of one parser: the description, option tables, then the full --help."""
    builders = parser_builders()
    if prog not in builders:
        raise KeyError(f"no parser for {prog!r}; known: {', '.join(builders)}")
    parser = _fixed_width(builders[prog]())
    description = parser.description or ""
    help_text = parser.format_help().rstrip()
    return (
        f"{description}\n\n{options_tables(parser)}\n\n"
        f'??? note "`{prog} --help`, as the command prints it"\n\n'
        "    ```text\n" + "\n".join(f"    {line}".rstrip() for line in help_text.splitlines()) + "\n    ```\n"
    )


def metric_options_table(name: str) -> str:
    """The options metric ``name`` declares (``mtscore/metrics/<name>/options.py``) as a table:
    the Python keyword, its command-line flags, the default, the allowed values and the meaning."""
    from mtscore.metrics import metric_options

    rows = ["| keyword | command line | default | meaning |", "|---|---|---|---|"]
    for option in metric_options(name):
        if option.kind is bool:
            default, spelling = f"`{bool(option.default)}`", "/".join(option.flags)
        else:
            metavar = option.metavar or ("NAME" if option.choices else "VALUE")
            default = "`None`" if option.default is None else _code_cell(repr(option.default))
            spelling = "/".join(option.flags) + (f" {metavar} ..." if option.nargs == "+" else f" {metavar}")
        choices = option.choice_list()
        meaning = _cell(option.help) + (f" (one of {', '.join(f'`{c}`' for c in choices)})" if choices else "")
        rows.append(f"| `{option.name}` | {_code_cell(spelling)} | {default} | {meaning} |")
    return "\n".join(rows)


# What each optional extra of pyproject.toml is for; the packages are read from pyproject.toml itself.
EXTRAS_MARKER = "<!-- mtscore-extras -->"
EXTRA_PURPOSES = {
    "torch": "scoring torch tensors of token ids on their own device (GPU included)",
    "ja": "the `ja-mecab` [tokenizer](tokenizers.md) (MeCab and its dictionary)",
    "ko": "the `ko-mecab` [tokenizer](tokenizers.md) (MeCab and its dictionary)",
    "spm": "the SentencePiece [tokenizers](tokenizers.md) `spm`, `flores101`, `flores200`, `spBLEU-1K`",
    "ray": "[`mtscore.ray`](scale-out.md): scores of Ray Datasets",
    "dask": "[`mtscore.dask`](scale-out.md): scores of Dask DataFrames and Bags",
    "test": "the tests: pytest, Hypothesis, the oracles they compare with, and what the tests start for real",
    "bench": "the peers the [benchmarks](performance.md) time",
    "lint": "the checks CI runs on the code (ruff, mypy)",
    "docs": "this site (`mkdocs build --strict`)",
    "release": "building and checking the wheel",
}


def extras_table() -> str:
    """The optional extras of pyproject.toml, each with what it is for and the packages it installs."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    project = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    missing = sorted(set(extras) - set(EXTRA_PURPOSES))
    if missing:
        raise ValueError(f"docs/hooks.py: EXTRA_PURPOSES says nothing of the extras {', '.join(missing)}")
    rows = ["| extra | what it is for | what it installs |", "|---|---|---|"]
    for name, requirements in extras.items():
        rows.append(f"| `mtscore[{name}]` | {EXTRA_PURPOSES[name]} | {_cell(', '.join(requirements))} |")
    return "\n".join(rows)


# The functions ``core.functional`` makes at run time (``corpus_X``, ``sentence_X``, ``sentence_Xs``) are
# documented from the objects themselves: their signature and their generated docstring.
FUNCTION_MARKER = re.compile(r"^<!-- mtscore-function: (?P<name>\w+) -->$", re.M)


def function_reference(name: str) -> str:
    """The reference of ``mtscore.NAME``: a heading, the signature, the summary and the parameters."""
    import inspect

    import mtscore

    function = getattr(mtscore, name)
    summary, _, rest = inspect.getdoc(function).partition("\n\nArgs:\n")
    arguments, _, returns = rest.partition("\n\nReturns:\n")
    signature = inspect.signature(function)
    shown = ", ".join(
        parameter.name if parameter.default is inspect.Parameter.empty else f"{parameter.name}={parameter.default!r}"
        for parameter in signature.parameters.values()
    )
    rows = ["| parameter | default | meaning |", "|---|---|---|"]
    for line in arguments.splitlines():
        parameter, _, meaning = line.strip().partition(": ")
        default = signature.parameters[parameter].default
        shown_default = "" if default is inspect.Parameter.empty else _code_cell(repr(default))
        rows.append(f"| `{parameter}` | {shown_default} | {_cell(meaning)} |")
    return "\n".join(
        [
            f"## `{name}` {{#mtscore.{name}}}",
            "",
            "```python",
            f"mtscore.{name}({shown})",
            "```",
            "",
            summary,
            "",
            *rows,
            "",
            f"**Returns:** {returns.strip()}",
        ]
    )


METRICS_SECTION, API_SECTION, API_OVERVIEW = "Metrics", "API reference", "api/index.md"
API_METRICS_MARKER = "<!-- mtscore-api-metrics -->"


def metric_pages() -> dict[str, list[str]]:
    """Docs page name -> the built-in metrics it documents, in registry order: a metric's own name,
    unless its options module names the metric whose pages document it (``DOCUMENTED_WITH``)."""
    from importlib import import_module

    from mtscore.metrics import METRICS

    pages: dict[str, list[str]] = {}
    for name in METRICS:
        if METRICS.is_builtin(name):
            options = import_module(f"mtscore.metrics.{name}.options")
            pages.setdefault(getattr(options, "DOCUMENTED_WITH", name), []).append(name)
    return pages


def check_metric_pages(docs_dir: Path) -> None:
    """Raise ``FileNotFoundError`` naming every built-in metric without its guide or API page."""
    missing = [
        f"{folder}/{page}.md (for {', '.join(names)})"
        for page, names in metric_pages().items()
        for folder in ("metrics", "api")
        if not (docs_dir / folder / f"{page}.md").is_file()
    ]
    if missing:
        raise FileNotFoundError(f"docs/hooks.py: the registry's metrics lack their pages: {'; '.join(missing)}")


def page_title(names: list[str]) -> str:
    """A metric page's title in the nav: its metrics' titles (``WER and CER``)."""
    from mtscore.metrics import metric_title

    return " and ".join(metric_title(name) for name in names)


def _section(nav: list, title: str) -> list:
    for entry in nav:
        if isinstance(entry, dict) and title in entry:
            return entry[title]
    raise KeyError(f"docs/hooks.py: mkdocs.yml's nav has no section {title!r} for the metrics' pages")


def _is_page(entry: str | dict, path: str) -> bool:
    """Whether a nav entry (``path`` or ``{title: path}``) is the page ``path``."""
    return entry == path or (isinstance(entry, dict) and path in entry.values())


def metrics_nav(nav: list) -> list:
    """``nav`` with the metric guides first in the ``Metrics`` section and the metric API pages after
    the API overview (those sections keep their other pages)."""
    pages = metric_pages()
    guides = [{page_title(names): f"metrics/{page}.md"} for page, names in pages.items()]
    api = [{page_title(names): f"api/{page}.md"} for page, names in pages.items()]
    metrics_section, api_section = _section(nav, METRICS_SECTION), _section(nav, API_SECTION)
    metrics_section[:0] = guides
    overview = next(i for i, entry in enumerate(api_section) if _is_page(entry, API_OVERVIEW))
    api_section[overview + 1 : overview + 1] = api
    return nav


def api_metric_rows() -> str:
    """The API index's rows of the built-in metrics: each page's public names (its metrics' ``__all__``)."""
    from importlib import import_module

    rows = []
    for page, names in metric_pages().items():
        exported = [name for metric in names for name in import_module(f"mtscore.metrics.{metric}").__all__]
        classes = ", ".join(f"`{name}`" for name in exported if not name[0].islower())
        functions = ", ".join(f"`{name}`" for name in exported if name[0].islower())
        title = page_title(names)
        what = f"{title}: the metric, its result, its functions"
        rows.append(f"| {functions}; {classes} | {what} | [{title}]({page}.md) |")
    return "\n".join(rows)


def on_config(config):
    """The nav's metric pages, from the registry (and a check that each metric has its pages)."""
    check_metric_pages(Path(config["docs_dir"]))
    config["nav"] = metrics_nav(config["nav"])
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each ``<!-- mtscore-cli: PROG -->`` marker by PROG's generated reference, each
    ``<!-- mtscore-options: METRIC -->`` marker by the metric's options table, each
    ``<!-- mtscore-function: NAME -->`` by the reference of a generated function,
    ``<!-- mtscore-extras -->`` by the table of optional extras and ``<!-- mtscore-api-metrics -->``
    by the API index's rows of the metrics."""
    markdown = MARKER.sub(lambda match: reference(match["prog"]), markdown)
    markdown = FUNCTION_MARKER.sub(lambda match: function_reference(match["name"]), markdown)
    markdown = markdown.replace(EXTRAS_MARKER, extras_table()) if EXTRAS_MARKER in markdown else markdown
    markdown = markdown.replace(API_METRICS_MARKER, api_metric_rows()) if API_METRICS_MARKER in markdown else markdown
    return OPTIONS_MARKER.sub(lambda match: metric_options_table(match["metric"]), markdown)


# Formulas: pymdownx.arithmatex leaves the TeX in <span class="arithmatex">\(...\)</span> and
# <div class="arithmatex">\[...\]</div>; they become MathML at build time, which browsers draw
# themselves, so the site needs no script or font from the network (it works opened from files).
MATH = re.compile(r'<(?P<tag>span|div) class="arithmatex">\s*\\(?P<open>[\[(])(?P<tex>.*?)\\[\])]\s*</(?P=tag)>', re.S)


TEXT = re.compile(r"\\text\{[^}]*\}")  # latex2mathml keeps an escaped underscore inside \text as it is


def on_page_content(html_text: str, page, config, files) -> str:
    """Each formula as MathML (``latex2mathml``, a ``docs`` extra)."""
    from latex2mathml.converter import convert

    def mathml(match: re.Match) -> str:
        display = "block" if match["open"] == "[" else "inline"
        tex = TEXT.sub(lambda text: text[0].replace("\\_", "_"), html.unescape(match["tex"]).strip())
        return convert(tex, display=display)

    return MATH.sub(mathml, html_text)
