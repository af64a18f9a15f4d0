"""Rebuild the pipeline's objects from stored rows, for a stage that runs in another process
than the one before it (the Celery driver hands on ids only)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline import grid
from sudoku_batch.pipeline.board import BoardImage, BoardLocation, CellImage, CellKind, Lattice
from sudoku_batch.pipeline.certify import BoardFacts
from sudoku_batch.pipeline.geometry import CLASSIC, DIAGONAL, JIGSAW
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.sources import PageFormat, PageSource
from sudoku_batch.pipeline.reading import BoardReading, CellReading, InkKind
from sudoku_batch.pipeline.render import PageRegion, region_window
from sudoku_batch.store.artifacts import Artifacts, PageRef
from sudoku_batch.store.corrections import latest_corrections
from sudoku_batch.store.models import Cell, InputFile, Page, Puzzle


def page_source(session: Session, page_id: int, artifacts: Artifacts) -> PageSource:
    page = session.get_one(Page, page_id)
    input_file = session.get_one(InputFile, page.input_file_id)
    return PageSource(
        source=page.source,
        page=page.page_number,
        path=str(artifacts.local_file(input_file.stored_path)),
        format=PageFormat(page.format),
        member=page.member,
        index=page.frame_index,
        # A refused page is failed at listing (see store.record.add_pages); its reason loads
        # with it should a stage be handed it all the same.
        problem=page.message if page.error_code else None,
        error_code=page.error_code,
    )


def page_ref(session: Session, page_id: int) -> PageRef:
    page = session.get_one(Page, page_id)
    return PageRef(page.batch_id, page.id, page.source, page.page_number)


def puzzle_page(session: Session, puzzle_id: int) -> tuple[PageRef, int]:
    """The page a puzzle was found on, and its index there."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    return page_ref(session, puzzle.page_id), puzzle.index_on_page


def stored_input(session: Session, input_file_id: int, artifacts: Artifacts) -> tuple[Path, str]:
    """A path on this host holding an input file (``Artifacts.local_file``), and its name."""
    input_file = session.get_one(InputFile, input_file_id)
    return artifacts.local_file(input_file.stored_path), input_file.name


def text_puzzle_file(
    session: Session, input_file_id: int, artifacts: Artifacts
) -> tuple[Path, str, GridShape | None]:
    """A path on this host holding a text file of puzzles, its name, and the box shape given
    for it."""
    input_file = session.get_one(InputFile, input_file_id)
    box = None
    if input_file.box_rows is not None and input_file.box_cols is not None:
        box = GridShape(input_file.box_rows, input_file.box_cols)
    return artifacts.local_file(input_file.stored_path), input_file.name, box


def stored_puzzle(session: Session, puzzle_id: int) -> grid.Puzzle:
    """A puzzle as its givens say (a text puzzle has no cells rows to read it from)."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    if puzzle.givens is None:
        raise LookupError(f"puzzle {puzzle_id} has no givens")
    return grid.Puzzle.from_rows(puzzle.givens, _shape(puzzle))


def stored_board(session: Session, puzzle_id: int, artifacts: Artifacts) -> tuple[BoardImage, str]:
    """The board as last stored (as found by rectification, or upright once read), and where
    its image is."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    if puzzle.board_image_path is None or puzzle.homography is None or puzzle.lattice is None:
        raise LookupError(f"puzzle {puzzle_id} has no stored board")
    page = session.get_one(Page, puzzle.page_id)
    page_size = None if page.height is None or page.width is None else (page.height, page.width)
    board = BoardImage(
        location=BoardLocation(
            np.array(puzzle.corners, dtype=np.float32),
            page_size=page_size,
            page_damage=page.damaged,
        ),
        pixels=artifacts.read_image(puzzle.board_image_path),
        homography=np.array(puzzle.homography, dtype=np.float64),
        lattice=Lattice(
            _shape(puzzle),
            tuple(puzzle.lattice["row_lines"]),
            tuple(puzzle.lattice["col_lines"]),
            puzzle.lattice.get("box_lines", True),
        ),
    )
    return board, puzzle.board_image_path


def stored_region(session: Session, puzzle_id: int, artifacts: Artifacts) -> PageRegion:
    """The page region stored around a board (``jobs.steps.find_boards_step``), placed on
    its page."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    page = session.get_one(Page, puzzle.page_id)
    if puzzle.corners is None or page.width is None or page.height is None:
        raise LookupError(f"puzzle {puzzle_id} has no stored board")
    left, top, _, _ = region_window(
        (page.height, page.width), np.array(puzzle.corners, dtype=np.float32)
    )
    relative = artifacts.board_region(*puzzle_page(session, puzzle_id))
    return PageRegion(artifacts.read_image(relative), left, top)


def board_facts(session: Session, puzzle_id: int) -> BoardFacts:
    """What a puzzle's certificate needs of its board: its page's damage, and whether its box
    shape was seen."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    page = session.get_one(Page, puzzle.page_id)
    box_measured = True if puzzle.lattice is None else puzzle.lattice.get("box_lines", True)
    return BoardFacts(page.damaged, box_measured)


def stored_cells(session: Session, puzzle_id: int) -> tuple[CellImage, ...]:
    """A board's cells as the rectify step sorted them, row-major."""
    # Only what the OCR step needs: no digits or runner-ups (JSON) to decode. A solver's
    # marks were sorted out of the givens after this step: they are marked cells to it.
    columns = (Cell.row, Cell.col, Cell.kind, Cell.confidence, Cell.ink)
    return tuple(
        CellImage(row, col, CellKind.GIVEN, None)
        if ink in SOLVERS_MARKS
        else CellImage(row, col, CellKind(kind), confidence)
        for row, col, kind, confidence, ink in _cells(session, puzzle_id, columns)
    )


def stored_reading(session: Session, puzzle_id: int) -> BoardReading:
    """The board as read, each corrected cell as a person last said: certain (no confidence,
    so the solver never doubts it) and with no runner-ups."""
    puzzle = session.get_one(Puzzle, puzzle_id)
    corrected = latest_corrections(session, puzzle_id)
    readings = []
    for cell in _cells(session, puzzle_id):
        correction = corrected.get((cell.row, cell.col))
        if correction is not None:
            readings.append(CellReading(cell.row, cell.col, correction.kind, correction.digit))
            continue
        readings.append(
            CellReading(
                row=cell.row,
                col=cell.col,
                kind=CellKind(cell.kind),
                digit=cell.digit,
                confidence=cell.confidence,
                alternatives=tuple((int(d), float(p)) for d, p in cell.alternatives),
                ink=None if cell.ink is None else InkKind(cell.ink),
                candidates=tuple(int(d) for d in cell.candidates),
            )
        )
    return BoardReading(
        _shape(puzzle),
        tuple(readings),
        other_reason=puzzle.other_reason,
        regions_certainty=puzzle.regions_certainty,
    )


READING_COLUMNS = (
    Cell.row,
    Cell.col,
    Cell.kind,
    Cell.digit,
    Cell.confidence,
    Cell.alternatives,
    Cell.ink,
    Cell.candidates,
)
SOLVERS_MARKS = (str(InkKind.PENCIL), str(InkKind.HANDWRITTEN))


def _cells(
    session: Session, puzzle_id: int, columns: Sequence[Any] = READING_COLUMNS
) -> Sequence[Row[Any]]:
    # Columns, not Cell objects: building 81 ORM objects a board took longer than the query.
    query = select(*columns).where(Cell.puzzle_id == puzzle_id).order_by(Cell.row, Cell.col)
    return session.execute(query).all()


def _shape(puzzle: Puzzle) -> GridShape:
    if puzzle.box_rows is None or puzzle.box_cols is None:
        raise LookupError(f"puzzle {puzzle.id} has no grid shape")
    kinds = (puzzle.variant or CLASSIC).split("+")
    regions = tuple(map(tuple, puzzle.regions)) if JIGSAW in kinds and puzzle.regions else None
    return GridShape(puzzle.box_rows, puzzle.box_cols, regions, DIAGONAL in kinds)
