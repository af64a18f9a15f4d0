"""The results contract assembled in Python from the tables, as store.results did before the
``results`` view existed: an independent account the view's rows are checked against."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_batch.store.models import (
    CellCorrection,
    InputFile,
    InputStatus,
    Page,
    PageStatus,
    Puzzle,
    Solution,
    StageRun,
)


def result_records(session: Session, batch_id: int) -> list[dict[str, Any]]:
    """The results contract for a batch, in input order, then page, then reading order."""
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
    corrected = set(
        session.scalars(
            select(CellCorrection.puzzle_id).join(Puzzle).where(Puzzle.batch_id == batch_id)
        )
    )
    records = []
    for input_file in inputs:
        if input_file.status == InputStatus.FAILED:
            records.append(_input_record(input_file))
        for page in pages_of.get(input_file.id, []):
            puzzles = puzzles_of.get(page.id, [])
            if not puzzles:
                records.append(_page_record(page))
            for puzzle in puzzles:
                solution = solutions.get(puzzle.id)
                records.append(
                    puzzle_record(
                        page, puzzle, solution, timings[puzzle.id], puzzle.id in corrected
                    )
                )
    return records


def puzzle_record(
    page: Page,
    puzzle: Puzzle,
    solution: Solution | None,
    seconds: dict[str, float],
    corrected: bool = False,
) -> dict[str, Any]:
    """One grid's result record."""
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
        # A solved grid left unrated says why in its message.
        "message": puzzle.message or puzzle.rating_reason,
        "error_code": puzzle.error_code,
        "doubts": solution.doubts if solution else [],
        "rotation": puzzle.rotation,
        "corners": puzzle.corners,
        "backend": solution.backend if solution else None,
        "render_path": solution.render_path if solution else None,
        "seconds": seconds,
        "role": puzzle.role,
        "rating": puzzle.rating,
        "techniques": puzzle.techniques or [],
        "level": puzzle.level,
        "printed_label": puzzle.printed_label,
        "printed_number": puzzle.printed_number,
        "corrected": corrected,
        "damaged": page.damaged,
        "variant": puzzle.variant,
        "regions": puzzle.regions,
        "certified": puzzle.certified,
        "review_reasons": puzzle.review_reasons,
        "suggestion": solution.suggestion if solution else None,
        "ink": puzzle.ink,
        "entries_check": solution.entries_check if solution else None,
    }


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
        "doubts": [],
        "role": None,
        "rating": None,
        "techniques": [],
        "level": None,
        "printed_label": None,
        "printed_number": None,
        "corrected": False,
        "damaged": None,
        "variant": None,
        "regions": None,
    }


def _page_record(page: Page) -> dict[str, Any]:
    return {
        **_page_fields(page),
        **_empty_grid_fields(),
        "status": page.status if page.status != PageStatus.DONE else PageStatus.NO_GRID,
        "message": page.message,
        "error_code": page.error_code,
        "damaged": page.damaged,
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
