"""The API's response models: what OpenAPI documents and every route answers."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field


class Problem(BaseModel):
    detail: str


class SubmittedFile(BaseModel):
    name: str = Field(description="the file's base name, as the results' `source` shows it")
    error_code: str | None = Field(
        default=None,
        description="why the file will not be read (docs/errors.md), null if it is queued: "
        "it is recorded as failed beside the others",
    )
    message: str | None = Field(default=None, description="the reason, for a person")


class Submitted(BaseModel):
    batch_id: UUID
    input_files: list[SubmittedFile]
    status: str = Field(description="where to follow the batch")
    queued: bool = Field(
        description="false if the work queue was unreachable: the batch is stored and is "
        "queued by the recovery sweep once the queue is back"
    )


class StageProgress(BaseModel):
    queued: int
    running: int
    done: int
    failed: int
    oldest_wait_seconds: float | None = Field(
        description="the longest any subject still queued for the stage has waited"
    )
    mean_wait_seconds: float | None = Field(
        description="from sent to taken by a worker, over the stage's finished runs"
    )
    done_inline: int = Field(
        0,
        description="of done, how many ran inline in an earlier stage's task: solves the OCR "
        "task settled itself (cheap and certain); the rest ran in solve tasks",
    )


class BatchStatus(BaseModel):
    batch_id: UUID
    label: str | None
    created_at: datetime
    inputs: dict[str, int]
    pages: dict[str, int]
    puzzles: dict[str, int]
    unfinished: int
    finished: bool
    stages: dict[str, StageProgress] = Field(description="ingest, rectify, ocr, solve")
    progress: str = Field(
        description="an opaque token that changes whenever the batch's work moves (items found, "
        "finished, stage runs recorded): send it back as `since`, with `wait`, to have the "
        "next answer held until it changes"
    )


class BatchSummary(BaseModel):
    batch_id: UUID
    label: str | None
    created_at: datetime
    finished: bool
    status: str


class BatchPage(BaseModel):
    items: list[BatchSummary]
    total: int
    limit: int
    offset: int


class GridPlace(BaseModel):
    source: str
    page: int
    index: int


class AnswerKeyCheck(GridPlace):
    """Where the printed answer is, and whether it matches the unique solution."""

    matches: bool
    wrong_cells: list[list[int]] = Field(description="[row, col], 0-based")


class ReviewReason(BaseModel):
    code: str = Field(
        description="low_confidence_given, low_confidence_empty, doubted_reading, damaged_page, "
        "not_sudoku, lattice_uncertain, regions_uncertain, entries_as_print, unsolvable, "
        "not_unique, timeout, solution_unchecked, "
        "or a failed grid's error code (docs/errors.md)"
    )
    message: str = Field(description="the same, for a person")


class Suggestion(BaseModel):
    """A repaired reading of a printed puzzle that has no solution as read."""

    givens: list[Any] = Field(description="the givens with the doubted readings changed")
    solution: list[Any] = Field(description="their one solution")
    doubts: list[Any] = Field(description="the readings changed: row, col, read, replaced_by")


class ResultRecord(BaseModel):
    """One grid, or a page without one, or an input file that failed before its pages."""

    batch_id: UUID
    puzzle_id: UUID | None
    source: str
    page: int | None
    index: int | None
    status: str
    size: list[int] | None
    box: list[int] | None
    givens: list[Any] | None
    solution: list[Any] | None
    second_solution: list[Any] | None
    confidence: float | None
    message: str | None
    error_code: str | None
    role: str | None = Field(None, description="puzzle, or answer (every cell printed)")
    rating: float | None = Field(None, description="SE scale; null: the reason is in message")
    techniques: list[str] = Field([], description="techniques used, hardest last")
    level: str | None = Field(None, description="easy ... extreme, or unrated")
    answer_key: AnswerKeyCheck | None = Field(
        None, description="the printed answer paired with this puzzle, checked; null: none"
    )
    duplicate_of: GridPlace | None = Field(
        None, description="the first copy (exact or disguised) of this puzzle in the batch"
    )
    printed_label: str | None = Field(None, description="the difficulty printed near the grid")
    printed_number: int | None = Field(
        None, description="the puzzle number printed near the grid ('Puzzle 12')"
    )
    doubts: list[Any] = []
    rotation: int | None = None
    corners: list[Any] | None = None
    backend: str | None = None
    render_path: str | None = Field(None, description="URL of the render, if drawn")
    seconds: dict[str, float] = {}
    corrected: bool = Field(False, description="whether a person corrected a cell's reading")
    damaged: str | None = Field(
        None, description="the decoder's warning when the page's file is damaged; null: intact"
    )
    variant: str | None = Field(
        None, description="classic, jigsaw, diagonal, or a combination such as jigsaw+diagonal"
    )
    regions: list[list[int]] | None = Field(
        None,
        description="N x N region numbers 0..N-1 in reading order of each region's first cell "
        "(the boxes of a classic grid)",
    )
    certified: bool | None = Field(
        None,
        description="true when the outcome needs no review: every reading confident, none "
        "doubted, a whole page, a sure lattice, one solution checked; null until solved",
    )
    review_reasons: list[ReviewReason] | None = Field(
        None, description="why it is not certified (empty when it is); null until solved"
    )
    suggestion: Suggestion | None = Field(
        None,
        description="when the printed puzzle as read has no solution (status unsolvable) but "
        "a repaired reading has one",
    )
    ink: list[Any] | None = Field(
        None, description="each cell's ink: empty, given (printed), pencil, handwritten"
    )
    entries_check: list[Any] | None = Field(
        None,
        description="handwritten entries and pencil marks checked against the unique solution",
    )


class ResultPage(BaseModel):
    items: list[ResultRecord]
    total: int
    limit: int
    offset: int


class CellReading(BaseModel):
    row: int
    col: int
    kind: str
    digit: int | None
    confidence: float | None
    alternatives: list[Any]
    ink: str | None = Field(None, description="empty, given (printed), pencil, handwritten")
    candidates: list[int] = Field([], description="pencil marks: the candidates read")


class CellValue(BaseModel):
    kind: Literal["given", "empty", "blocked"]
    digit: int | None = Field(None, description="the digit of a given cell; null otherwise")


class CellEdit(CellValue):
    """What a cell holds, as a person says: a digit (``given``), nothing (``empty``) or a
    solid cell (``blocked``)."""

    kind: Literal["given", "empty", "blocked"] = "given"
    digit: int | None = Field(None, ge=1, description="1..N for a given cell; omit otherwise")


class CellCorrectionRecord(BaseModel):
    row: int
    col: int
    old: CellValue = Field(description="the cell before: as read, or as last corrected")
    new: CellValue
    corrected_by: str | None = Field(description="the name of the API key that corrected it")
    corrected_at: datetime


class CellCorrected(CellCorrectionRecord):
    puzzle_id: UUID
    status: str = Field(description="the puzzle's state now: read, waiting to be solved again")
    queued: bool = Field(
        description="false if the work queue was unreachable: the recovery sweep sends the "
        "puzzle to be solved once the queue is back"
    )


class PuzzleDetail(ResultRecord):
    cells: list[CellReading] = Field(description="every cell as read (corrections beside it)")
    corrections: list[CellCorrectionRecord] = Field(description="oldest first")


class Health(BaseModel):
    database: bool
    broker: bool
    storage: bool  # the store (data folder or object storage) answers, is the API's, takes writes
    problem: str | None = None  # what is wrong with the store
