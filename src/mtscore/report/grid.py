"""sacrebleu's tables of several systems, drawn as it draws them (with ``tabulate``): a box grid
for ``-f text`` and a booktabs tabular for ``-f latex``. The first column (the systems) is
right-aligned, the others centred; a column is 2 wider than its header, or as wide as its widest
cell; a cell may hold several lines (the grid's p-values)."""

from __future__ import annotations

from collections.abc import Sequence
from unicodedata import combining, east_asian_width

LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}  # as tabulate escapes cells, after padding them (so an escaped cell sticks out of its column)


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal, as tabulate counts them: wide East Asian characters
    take two, combining marks none."""
    return sum(0 if combining(char) else 2 if east_asian_width(char) in "WF" else 1 for char in text)


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [
        max(display_width(header) + 2, *(display_width(line) for row in rows for line in row[i].split("\n")))
        for i, header in enumerate(headers)
    ]


def _aligned(cells: Sequence[str], widths: Sequence[int]) -> list[str]:
    """The first cell right-aligned, the others centred (an odd space goes right)."""
    aligned = []
    for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        room = max(width - display_width(cell), 0)
        left = room if i == 0 else room // 2
        aligned.append(" " * left + cell + " " * (room - left))
    return aligned


def box_grid(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of ``-f text``'s table (tabulate's ``fancy_grid``)."""
    widths = _widths(headers, rows)

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def row_lines(cells: Sequence[str]) -> list[str]:
        split = [cell.split("\n") for cell in cells]
        height = max(map(len, split))
        return [
            "│ " + " │ ".join(_aligned([c[k] if k < len(c) else "" for c in split], widths)) + " │"
            for k in range(height)
        ]

    lines = [rule("╒", "═", "╤", "╕"), *row_lines(headers), rule("╞", "═", "╪", "╡")]
    for number, row in enumerate(rows):
        if number:
            lines.append(rule("├", "─", "┼", "┤"))
        lines += row_lines(row)
    return [*lines, rule("╘", "═", "╧", "╛")]


def booktabs(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of ``-f latex``'s table (tabulate's ``latex_booktabs``)."""
    widths = _widths(headers, rows)

    def row_line(cells: Sequence[str]) -> str:
        padded = (f" {cell} " for cell in _aligned(cells, widths))
        return "&".join("".join(LATEX_SPECIAL.get(char, char) for char in cell) for cell in padded) + "\\\\"

    return [
        "\\begin{tabular}{r" + "c" * (len(headers) - 1) + "}",
        "\\toprule",
        row_line(headers),
        "\\midrule",
        *map(row_line, rows),
        "\\bottomrule",
        "\\end{tabular}",
    ]


def signature_lines(names: Sequence[str], signatures: Sequence[str]) -> list[str]:
    """sacrebleu's list of signatures under a table of several systems."""
    rule = "-" * len("Metric signatures")
    return [rule, "Metric signatures", rule, *(f" - {n:<10} {s}" for n, s in zip(names, signatures, strict=True))]
