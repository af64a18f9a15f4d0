"""Puzzles as one line of text, the format of the public benchmark sets.

A line is the grid row-major, ``.`` (or ``0``) for an empty cell, digits ``1``-``9`` then ``A``
= 10, ``B`` = 11, ... ``P`` = 25 ...; the size is inferred from the length (N*N symbols), the box
shape is given or the conventional one for N. A ``*`` marks a blocked cell (one that takes no
digit), an extension of ours; the public sets have none. Anything after the grid, separated by
white space, is a tag (source index, rating) and kept aside. Lines starting with ``#`` are
comments.

Variants, also ours (docs/solving.md): a jigsaw's regions follow the grid as N*N more symbols,
one per cell row-major, each distinct letter or digit one region (``ABC...`` or ``123...``),
either straight after it (2*N*N symbols in all, never a square, so never taken for a grid) or
after a ``/``; a diagonal Sudoku (X-Sudoku: both diagonals hold every digit once) ends the
field with ``/X``. So ``GRID``, ``GRIDREGIONS``, ``GRID/REGIONS``, ``GRID/X``,
``GRID/REGIONS/X``.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from sudoku_batch.pipeline.errors import (
    InvalidPuzzle,
    MalformedPuzzleText,
    NotUtf8,
    UnreadableInput,
)
from sudoku_batch.pipeline.geometry import Regions
from sudoku_batch.pipeline.grid import Grid, GridShape, Puzzle

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # symbol i stands for digit i + 1
EMPTY_SYMBOLS = ".0"
BLOCKED_SYMBOL = "*"
REGION_SYMBOLS = "0" + SYMBOLS  # region k written as the symbol k, in base 36
DIAGONAL_MARK = "X"  # "/X" after the grid (and regions): the two diagonals are units


@dataclass(frozen=True)
class TextPuzzle:
    puzzle: Puzzle
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class PuzzleLine:
    """One puzzle line of a text file: its 1-based number, and its puzzle or why it is none."""

    number: int
    puzzle: TextPuzzle | None = None
    error: InvalidPuzzle | None = None


def is_puzzle_line(line: str) -> bool:
    """False for blank lines and ``#`` comments, which carry no puzzle."""
    text = line.strip()
    return bool(text) and not text.startswith("#")


def parse_puzzle_line(line: str, box: GridShape | None = None) -> TextPuzzle:
    """The puzzle on ``line``. Raises ``MalformedPuzzleText`` when the text is not a grid and
    ``InvalidPuzzle`` when it is a grid that cannot be a Sudoku (a digit beyond N, wrong box)."""
    field, *tags = line.split()
    grid_text, regions_text, diagonals = _split_field(field)
    n = math.isqrt(len(grid_text))
    if n * n != len(grid_text):
        raise MalformedPuzzleText(
            f"{len(grid_text)} symbols do not make a square grid "
            "(a 9x9 puzzle has 81, 16x16 has 256, 25x25 has 625)"
        )
    if n > len(SYMBOLS):
        raise MalformedPuzzleText(f"a {n}x{n} grid is larger than this format's alphabet allows")
    if regions_text is not None:  # a jigsaw's regions take the place of any box shape
        shape = GridShape.jigsaw(_regions(regions_text, n))
    else:
        shape = box or GridShape.square(n)
    if shape.size != n:
        raise InvalidPuzzle(f"boxes of {shape.box_rows}x{shape.box_cols} do not fit a {n}x{n} grid")
    if diagonals:
        shape = dataclasses.replace(shape, diagonals=True)
    values: list[int | None] = []
    for index, symbol in enumerate(grid_text):
        if symbol in EMPTY_SYMBOLS:
            values.append(0)
        elif symbol == BLOCKED_SYMBOL:
            values.append(None)
        elif symbol in SYMBOLS:
            values.append(SYMBOLS.index(symbol) + 1)
        else:
            raise MalformedPuzzleText(
                f"unexpected character {symbol!r} at position {index + 1}"
                " (use . for an empty cell, 1-9 then A=10, B=11, ...)"
            )
    rows = [values[r * n : (r + 1) * n] for r in range(n)]
    return TextPuzzle(Puzzle.from_rows(rows, shape), tuple(tags))


def _split_field(field: str) -> tuple[str, str | None, bool]:
    """(grid, regions or None, diagonals) of a line's first field (see the module notes)."""
    parts = field.split("/")
    diagonals = len(parts) > 1 and parts[-1].upper() == DIAGONAL_MARK
    if diagonals:
        parts.pop()
    if len(parts) > 2:
        raise MalformedPuzzleText(
            f"{field[:40]!r}: expected GRID, GRID/REGIONS, GRID/X or GRID/REGIONS/X"
        )
    if len(parts) == 2:
        return parts[0], parts[1], diagonals
    text = parts[0]
    half = len(text) // 2
    n = math.isqrt(half)
    if len(text) % 2 == 0 and n * n == half and n > 1:  # GRID then REGIONS, N*N symbols each
        return text[:half], text[half:], diagonals
    return text, None, diagonals


def _regions(text: str, n: int) -> list[list[str]]:
    """N*N region symbols as N rows; any letters or digits, each distinct one a region."""
    if len(text) != n * n:
        raise MalformedPuzzleText(f"a {n}x{n} jigsaw needs {n * n} region symbols, not {len(text)}")
    if not text.isalnum():
        bad = next(symbol for symbol in text if not symbol.isalnum())
        raise MalformedPuzzleText(f"unexpected region symbol {bad!r} (use letters or digits)")
    return [list(text[r * n : (r + 1) * n]) for r in range(n)]


def parse_box(text: str) -> GridShape:
    """``"3x4"`` as a box shape of 3 rows by 4 columns."""
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError as error:
        raise InvalidPuzzle(f"box shape {text!r} is not ROWSxCOLS, e.g. 3x3 or 2x3") from error
    return GridShape(rows, cols)


def format_puzzle(puzzle: Puzzle) -> str:
    """A puzzle as it is written on a line: its grid, then its regions and ``/X`` when a
    variant."""
    shape = puzzle.shape
    text = format_grid(puzzle.givens)
    if shape.regions is not None:
        text += "/" + format_regions(shape.regions)
    return text + (f"/{DIAGONAL_MARK}" if shape.diagonals else "")


def format_regions(regions: Regions) -> str:
    """Region numbers 0..N-1 as one line: ``0``-``9`` then ``A`` = 10, ``B`` = 11, ..."""
    return "".join(REGION_SYMBOLS[region] for row in regions for region in row)


def format_grid(grid: Grid) -> str:
    """A grid as one line in the same alphabet."""
    return "".join(
        "." if value == 0 else BLOCKED_SYMBOL if value is None else SYMBOLS[value - 1]
        for row in grid
        for value in row
    )


def read_puzzle_file(path: Path, name: str, box: GridShape | None = None) -> list[PuzzleLine]:
    """Every puzzle line of the text file at ``path`` (called ``name`` in messages), parsed or
    with its parse error; comments and blank lines are skipped, numbers still count them.
    Raises ``MalformedPuzzleText`` for a file with no puzzle line at all."""
    try:
        stream = path.open("rb")
    except OSError as error:
        raise UnreadableInput(f"{name}: cannot be read ({error.strerror})") from error
    with stream:
        lines = [
            parse_line(number, line, box)
            for number, line in numbered_lines(stream, name)
            if is_puzzle_line(line)
        ]
    if not lines:
        raise MalformedPuzzleText(f"{name}: holds no puzzle, only comments or blank lines")
    return lines


def parse_line(number: int, line: str, box: GridShape | None = None) -> PuzzleLine:
    """A puzzle line parsed, or with the reason it is no puzzle: the one policy for text
    batches on the server and ``solve-text`` alike (such a line fails; it is no verdict)."""
    try:
        return PuzzleLine(number, puzzle=parse_puzzle_line(line, box))
    except InvalidPuzzle as error:
        return PuzzleLine(number, error=error)


def numbered_lines(stream: BinaryIO, name: str) -> Iterator[tuple[int, str]]:
    """(1-based number, text without its line end) for each line of a byte stream, decoded
    as UTF-8 with or without a byte-order mark, as it is read (standard input too)."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline=None)
    try:
        for number, line in enumerate(text, 1):
            yield number, line.rstrip("\n")
    except UnicodeDecodeError as error:
        # Decoded a block at a time, so the line is not known: say what to do instead.
        raise NotUtf8(
            f"{name}: is not UTF-8 text; save it as plain UTF-8 (with or without a BOM)"
        ) from error
    finally:
        text.detach()  # the caller owns the stream
