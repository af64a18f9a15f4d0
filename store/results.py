"""Reading results back: the results contract, and a batch's progress.

One record per grid found, plus one per page where none was found (or that failed before its
grids were known, or is still pending), plus one per input file that failed before its pages
were listed (``page`` null). ``status`` is one of: solved, unsolvable, multiple_solutions,
timeout, no_grid, failed, or pending while the batch is still running. A reading whose givens
clash (verdict ``invalid``) is ``unsolvable`` with a message and ``error_code: "invalid"``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pipeline.book.findings import BookFindings
from store.book_check import NO_BOOK_FIELDS, batch_findings, book_fields
from store.models import (
    Batch,
    Cell,
    InputFile,
    InputStatus,
    Page,
    PageStatus,
    Puzzle,
    PuzzleStatus,
    Solution,
    StageRun,
)

UNFINISHED_PUZZLE_STATES = (PuzzleStatus.PENDING, PuzzleStatus.READ)


class BatchNotFound(LookupError):
    pass


def result_records(session: Session, batch_id: int) -> list[dict[str, Any]]:
    """The results contract for a batch, in input order, then page, then reading order."""
    _require_batch(session, batch_id)
    inputs = session.scalars(
        select(InputFile).where(InputFile.batch_id == batch_id).order_by(InputFile.id)
    ).all()
    pages_of = _grouped(
        session.scalars(select(Page).where(Page.batch_id == batch_id).order_by(Page.id)),
        "input_file_id",
    )
    puzzles_of = _grouped(
        session.scalars(
            select(Puzzle).where(Puzzle.batch_id == batch_id).order_by(Puzzle.index_on_page)
        ),
        "page_id",
    )
    solutions = {
        s.puzzle_id: s
        for s in session.scalars(select(Solution).join(Puzzle).where(Puzzle.batch_id == batch_id))
    }
    timings = _timings(session, batch_id)
    findings = batch_findings(session, batch_id)
    records = []
    for input_file in inputs:
        if input_file.status == InputStatus.FAILED:
            records.append(_input_record(input_file))
        for page in pages_of.get(input_file.id, []):
            puzzles = puzzles_of.get(page.id, [])
            if not puzzles:
                records.append(_page_record(page))
            for puzzle in puzzles:
                records.append(
                    puzzle_record(
                        page, puzzle, solutions.get(puzzle.id), timings[puzzle.id], findings
                    )
                )
    return records


def puzzle_record(
    page: Page,
    puzzle: Puzzle,
    solution: Solution | None,
    seconds: dict[str, float],
    findings: BookFindings | None = None,
) -> dict[str, Any]:
    """One grid's result record; ``findings``: the batch's book check (None: not computed,
    so no answer key or duplicate is named)."""
    return {
        **_page_fields(page),
        "puzzle_id": puzzle.id,
        "index": puzzle.index_on_page,
        "status": puzzle.status,
        "size": [puzzle.size, puzzle.size] if puzzle.size else None,
        "box": [puzzle.box_rows, puzzle.box_cols] if puzzle.box_rows else None,
        "givens": puzzle.givens,
        "solution": solution.grid if solution else None,
        "second_solution": solution.second_grid if solution else None,
        "confidence": puzzle.lowest_confidence,
        # A solved puzzle left unrated says why here; so does one whose score is not SE's
        # own (another size, or the search-effort fallback past dynamic forcing chains).
        "message": puzzle.message or puzzle.rating_reason,
        "error_code": puzzle.error_code,
        **book_fields(puzzle, findings),
        "doubts": solution.doubts if solution else [],
        "rotation": puzzle.rotation,
        "corners": puzzle.corners,
        "backend": solution.backend if solution else None,
        "render_path": solution.render_path if solution else None,
        "seconds": seconds,
    }


def puzzle_cells(session: Session, puzzle_id: int) -> list[dict[str, Any]]:
    return [
        {
            "row": cell.row,
            "col": cell.col,
            "kind": cell.kind,
            "digit": cell.digit,
            "confidence": cell.confidence,
            "alternatives": cell.alternatives,
        }
        for cell in session.scalars(
            select(Cell).where(Cell.puzzle_id == puzzle_id).order_by(Cell.row, Cell.col)
        )
    ]


def puzzle_result(session: Session, puzzle_id: int) -> dict[str, Any] | None:
    """A puzzle's result record with its cells, or None if there is no such puzzle."""
    puzzle = session.get(Puzzle, puzzle_id)
    if puzzle is None:
        return None
    page = session.get_one(Page, puzzle.page_id)
    solution = session.scalar(select(Solution).where(Solution.puzzle_id == puzzle_id))
    seconds = {
        run.stage: run.seconds
        for run in session.scalars(select(StageRun).where(StageRun.puzzle_id == puzzle_id))
    }
    findings = batch_findings(session, puzzle.batch_id)
    return {
        **puzzle_record(page, puzzle, solution, seconds, findings),
        "cells": puzzle_cells(session, puzzle_id),
    }


def batch_status(session: Session, batch_id: int) -> dict[str, Any]:
    """Counts per state of a batch's input files, pages and puzzles, and whether it is done."""
    batch = _require_batch(session, batch_id)
    inputs = _counts(session, InputFile, batch_id)
    pages = _counts(session, Page, batch_id)
    puzzles = _counts(session, Puzzle, batch_id)
    unfinished = (
        inputs.get(InputStatus.PENDING, 0)
        + pages.get(PageStatus.PENDING, 0)
        + sum(puzzles.get(state, 0) for state in UNFINISHED_PUZZLE_STATES)
    )
    return {
        "batch_id": batch.id,
        "label": batch.label,
        "created_at": batch.created_at.isoformat(),
        "inputs": inputs,
        "pages": pages,
        "puzzles": puzzles,
        "unfinished": unfinished,
        "finished": unfinished == 0,
    }


def _require_batch(session: Session, batch_id: int) -> Batch:
    batch = session.get(Batch, batch_id)
    if batch is None:
        raise BatchNotFound(f"there is no batch {batch_id}")
    return batch


def _counts(session: Session, model: type[InputFile | Page | Puzzle], batch_id: int) -> dict:
    rows = session.execute(
        select(model.status, func.count()).where(model.batch_id == batch_id).group_by(model.status)
    )
    return dict(sorted(Counter({status: count for status, count in rows}).items()))


def _grouped(rows: Any, key: str) -> dict[int, list[Any]]:
    groups: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        groups[getattr(row, key)].append(row)
    return groups


def _timings(session: Session, batch_id: int) -> dict[int, dict[str, float]]:
    """Seconds per stage for each puzzle, the page's rectify time included."""
    runs = session.scalars(select(StageRun).where(StageRun.batch_id == batch_id)).all()
    by_page = {run.page_id: run.seconds for run in runs if run.page_id is not None}
    page_of = dict(
        session.execute(select(Puzzle.id, Puzzle.page_id).where(Puzzle.batch_id == batch_id)).all()
    )
    timings: dict[int, dict[str, float]] = defaultdict(dict)
    for puzzle_id, page_id in page_of.items():
        if page_id in by_page:
            timings[puzzle_id]["rectify"] = by_page[page_id]
    for run in runs:
        if run.puzzle_id is not None:
            timings[run.puzzle_id][run.stage] = run.seconds
    return timings


def _page_fields(page: Page) -> dict[str, Any]:
    return {
        "batch_id": page.batch_id,
        "input_file_id": page.input_file_id,
        "page_id": page.id,
        "source": page.source,
        "page": page.page_number,
    }


def _empty_grid_fields() -> dict[str, Any]:
    return {
        "puzzle_id": None,
        "index": None,
        "size": None,
        "box": None,
        "givens": None,
        "solution": None,
        "second_solution": None,
        "confidence": None,
        **NO_BOOK_FIELDS,
        "doubts": [],
    }


def _page_record(page: Page) -> dict[str, Any]:
    return {
        **_page_fields(page),
        **_empty_grid_fields(),
        "status": page.status if page.status != PageStatus.DONE else PageStatus.NO_GRID,
        "message": page.message,
        "error_code": page.error_code,
    }


def _input_record(input_file: InputFile) -> dict[str, Any]:
    return {
        "batch_id": input_file.batch_id,
        "input_file_id": input_file.id,
        "page_id": None,
        "source": input_file.name,
        "page": None,
        **_empty_grid_fields(),
        "status": "failed",
        "message": input_file.message,
        "error_code": input_file.error_code,
    }
