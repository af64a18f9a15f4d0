"""A solver's work on a printed puzzle checked against its unique solution: each handwritten
entry is right or wrong, and each cell's pencil marks hold the right digit or miss it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import Grid
from sudoku_batch.pipeline.reading import BoardReading, CellReading, InkKind
from sudoku_batch.pipeline.solve.result import PuzzleSolution, Verdict


@dataclass(frozen=True)
class EntryCheck:
    """One cell a solver marked: what is written there (one digit, or the candidates) and
    the digit the solution puts there."""

    row: int
    col: int
    ink: InkKind
    written: tuple[int, ...]
    right: int

    @property
    def ok(self) -> bool:
        """An entry is the right digit; pencil marks include it."""
        if self.ink is InkKind.HANDWRITTEN:
            return self.written == (self.right,)
        return self.right in self.written

    @property
    def finding(self) -> str:
        """The check in words, e.g. "r2c5: 7 written, 4 is right" (rows and columns 1-based)."""
        place = f"r{self.row + 1}c{self.col + 1}"
        written = " ".join(map(str, self.written)) or "nothing legible"
        if self.ink is InkKind.HANDWRITTEN:
            verdict = "right" if self.ok else f"{self.right} is right"
            return f"{place}: {written} written, {verdict}"
        verdict = f"{self.right} among them" if self.ok else f"missing {self.right}"
        return f"{place}: candidates {written}, {verdict}"


def check_entries(cells: Sequence[CellReading], solution: Grid) -> tuple[EntryCheck, ...]:
    """Every handwritten entry and pencilled cell of a reading, checked against ``solution``,
    in row-major order."""
    checks = []
    for cell in cells:
        right = solution[cell.row][cell.col]
        if right is None:
            continue
        if cell.ink is InkKind.HANDWRITTEN and cell.digit is not None:
            checks.append(EntryCheck(cell.row, cell.col, cell.ink, (cell.digit,), right))
        elif cell.ink is InkKind.PENCIL:
            checks.append(EntryCheck(cell.row, cell.col, cell.ink, cell.candidates, right))
    return tuple(checks)


def entries_json(checks: Sequence[EntryCheck]) -> list[dict[str, object]]:
    """The checks as stored and in the results: place, ink, what is written, the right digit,
    whether it is right, and the finding in words."""
    return [
        {
            "row": check.row,
            "col": check.col,
            "ink": str(check.ink),
            "written": list(check.written),
            "right": check.right,
            "ok": check.ok,
            "finding": check.finding,
        }
        for check in checks
    ]


def with_entries_checked(solution: PuzzleSolution, reading: BoardReading) -> PuzzleSolution:
    """``solution`` with the reading's entries checked, when it is unique."""
    result = solution.result
    if result.verdict is not Verdict.SOLVED or result.solution is None:
        return solution
    return replace(solution, entries_check=check_entries(reading.cells, result.solution))


def entries_as_print(reading: BoardReading) -> BoardReading | None:
    """The reading with the cells judged handwritten taken as printed givens (their ``ink``
    kept, so the certificate can say so); None when it has none. A printed puzzle has one
    solution from its printed givens: when the print as read leaves several and these cells
    make it one, they were print (a digit a warp stretched), not a solver's entries."""
    cells = tuple(
        replace(cell, kind=CellKind.GIVEN)
        if cell.ink is InkKind.HANDWRITTEN and cell.digit is not None
        else cell
        for cell in reading.cells
    )
    return replace(reading, cells=cells) if cells != reading.cells else None
