"""The book check of a batch, read from its rows (see ``pipeline.book.findings``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline.book.findings import BookFindings, GridEntry, book_findings
from sudoku_batch.pipeline.grid import Grid
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.store.models import InputFile, Page, Puzzle, Solution


def batch_findings(session: Session, batch_id: int) -> BookFindings:
    rows = session.execute(
        select(Puzzle, Page, Solution.verdict, Solution.grid)
        .join(Page, Page.id == Puzzle.page_id)
        .join(InputFile, InputFile.id == Page.input_file_id)
        .outerjoin(Solution, Solution.puzzle_id == Puzzle.id)
        .where(Puzzle.batch_id == batch_id)
        .order_by(InputFile.id, Page.id, Puzzle.index_on_page)
    ).all()
    return book_findings([_entry(*row) for row in rows])


def _entry(puzzle: Puzzle, page: Page, verdict: str | None, grid: Any) -> GridEntry:
    unique = verdict == Verdict.SOLVED
    return GridEntry(
        id=puzzle.id,
        source=page.source,
        page=page.page_number,
        index=puzzle.index_on_page,
        role=puzzle.role,
        size=puzzle.size,
        givens=as_grid(puzzle.givens),
        solution=as_grid(grid) if unique else None,
        canonical=puzzle.canonical,
        level=puzzle.level,
        printed_number=puzzle.printed_number,
        printed_label=puzzle.printed_label,
    )


def as_grid(rows: list[list[int | None]] | None) -> Grid | None:
    """JSON rows as a hashable grid."""
    return None if rows is None else tuple(tuple(row) for row in rows)


def batch_fields(puzzle_id: int, findings: BookFindings) -> dict[str, Any]:
    """The results contract's fields judged over the whole batch: the printed answer checked
    against this puzzle, and the earlier copy it repeats."""
    return {
        "answer_key": findings.answer_key.get(puzzle_id),
        "duplicate_of": findings.duplicate_of.get(puzzle_id),
    }


NO_BATCH_FIELDS: dict[str, Any] = {"answer_key": None, "duplicate_of": None}
