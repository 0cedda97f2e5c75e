"""The subcommands of ``mtscore`` beside scoring, with the line ``mtscore --help`` shows for each: the
one table the dispatcher (``cli.main``), the top-level help and ``mtscore help`` read. Light: no
subcommand module is imported here."""

from __future__ import annotations

# Name -> (module of ``cli`` and its function taking the arguments after the name, one line of help).
COMMANDS = {
    "explain": ("explain:run", "show how a metric is computed for a segment or a small file, step by step"),
    "report": ("report:run", "compare systems in one self-contained HTML page (or Markdown, LaTeX)"),
    "meta-eval": ("metaeval:run", "how well metrics agree with human scores (mt-metrics-eval's statistics)"),
    "stats": ("shards:run_stats", "count one shard of a corpus into a .npz file for 'mtscore merge'"),
    "merge": ("shards:run_merge", "score shards written by 'mtscore stats' together"),
    "help": ("commands:run_help", "show the help of mtscore or of one of its commands"),
}


def commands_help() -> str:
    """The ``commands:`` section of ``mtscore --help``."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {line}" for name, (_, line) in COMMANDS.items()]
    return "commands (mtscore COMMAND --help for each):\n" + "\n".join(lines)


def run_help(argv: list[str]) -> int:
    """``mtscore help [COMMAND]``: the help of ``mtscore`` or of ``mtscore COMMAND``."""
    from . import main
    from .common import UsageError

    if argv in (["-h"], ["--help"]):
        print(f"usage: mtscore help [COMMAND]\n\nShow the help of mtscore or of mtscore COMMAND: {', '.join(COMMANDS)}")
        return 0
    if len(argv) > 1 or (argv and argv[0] not in COMMANDS):
        raise UsageError(f"help takes one of: {', '.join(COMMANDS)} (or nothing, for mtscore's own help)")
    return main([*argv, "--help"])
