"""``/puzzles/{id}``: a puzzle's record with its cells, and the correction of one cell."""

from __future__ import annotations

import logging
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, HTTPException, Path

from sudoku_batch.api.auth import ApiKeyId
from sudoku_batch.api.deps import Db, Queue, Sessions, owned_puzzle, public_record
from sudoku_batch.api.responses import CORRECTION_ERRORS, NOT_FOUND
from sudoku_batch.api.schemas import CellCorrected, CellCorrectionRecord, CellEdit, PuzzleDetail
from sudoku_batch.api.submission import BROKER_ERRORS, DATABASE_ERRORS
from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.store.corrections import (
    BadCorrection,
    CellValue,
    Correction,
    CorrectionRefused,
    correct_cell,
    correction_history,
)
from sudoku_batch.store.results import puzzle_result
from sudoku_batch.workers.publish import hand_over

logger = logging.getLogger(__name__)

GridIndex = Annotated[int, Path(ge=0, description="0-based, top (row) or left (col) first")]

router = APIRouter()


def _correction_record(correction: Correction) -> CellCorrectionRecord:
    return CellCorrectionRecord(
        row=correction.row,
        col=correction.col,
        old={"kind": str(correction.old.kind), "digit": correction.old.digit},
        new={"kind": str(correction.new.kind), "digit": correction.new.digit},
        corrected_by=correction.corrected_by,
        corrected_at=correction.corrected_at,
    )


@router.get("/puzzles/{puzzle_id}", responses=NOT_FOUND)
def get_puzzle(puzzle_id: UUID, key_id: ApiKeyId, db: Db) -> PuzzleDetail:
    """A puzzle's result record with every cell's reading."""
    puzzle, batch = owned_puzzle(db, puzzle_id, key_id)
    record = puzzle_result(db, puzzle.id)
    assert record is not None  # it was just found
    history = [_correction_record(c) for c in correction_history(db, puzzle.id)]
    return PuzzleDetail.model_validate(
        {**public_record(record, batch, {puzzle.id: puzzle.public_id}), "corrections": history}
    )


@router.patch("/puzzles/{puzzle_id}/cells/{row}/{col}", responses=CORRECTION_ERRORS)
def correct_puzzle_cell(
    puzzle_id: UUID,
    row: GridIndex,
    col: GridIndex,
    edit: CellEdit,
    key_id: ApiKeyId,
    db: Db,
    sessions: Sessions,
    queue: Queue,
) -> CellCorrected:
    """Correct one cell: the correction is kept beside the reading (never replacing it),
    and the puzzle is solved again at once with every correction applied; follow its
    ``status`` in ``GET /puzzles/{puzzle_id}``."""
    puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
    internal_id = puzzle.id
    try:
        correction = correct_cell(
            db, internal_id, row, col, CellValue(CellKind(edit.kind), edit.digit), key_id
        )
    except BadCorrection as error:
        raise HTTPException(422, error.message) from error
    except CorrectionRefused as error:
        raise HTTPException(409, error.message) from error
    db.commit()
    # Committed first, as for a submission: the sweep sends it should the queue be down.
    queued = True
    try:
        hand_over(queue, sessions, Step.SOLVE, [internal_id])
    except (*BROKER_ERRORS, *DATABASE_ERRORS) as error:
        logger.warning("correction of puzzle %s stored; queue unreachable (%s)", puzzle_id, error)
        queued = False
    return CellCorrected(
        **_correction_record(correction).model_dump(),
        puzzle_id=puzzle_id,
        status="read",
        queued=queued,
    )
