"""One page, start to finish, in one process: what the embedded runner hands to each core.

It calls the job steps the Celery tasks call (``jobs.steps``), in the same order, and returns
their results; the coordinating process records them through ``store.record`` exactly as the
tasks do. Nothing here touches the database, so pages run on every core while one process owns
the SQLite file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from sudoku_batch.engine_files import engine_files
from sudoku_batch.jobs.steps import (
    BoardContext,
    Clock,
    FoundBoards,
    PageContext,
    ReadBoard,
    SolvedBoard,
    SolveOptions,
    find_boards_step,
    load_page_step,
    read_board_step,
    solve_board_step,
)
from sudoku_batch.jobs.table import Stage, Step, sequence
from sudoku_batch.pipeline.board import BoardImage, RectifiedBoard
from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.certify import CertifyPolicy
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.errors import InternalError, SudokuBatchError
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.printed_captions import Caption, CaptionReader, printed_role
from sudoku_batch.pipeline.render import board_region
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.store.artifacts import Artifacts, PageRef
from sudoku_batch.store.local_storage import LocalFolder

# The steps a page goes through, in the order the workers run them (jobs.table): the page's
# own (load it, find its boards), then each board's.
PAGE_STEP, *BOARD_STEPS = sequence(Step.RECTIFY)


@dataclass
class BoardOutcome:
    """One board of a page: what its steps made of it, or where it stopped and why."""

    read: ReadBoard | None = None
    solved: SolvedBoard | None = None
    error: SudokuBatchError | None = None
    error_stage: Stage | None = None
    error_seconds: float = 0.0


@dataclass
class PageOutcome:
    """A page's step results (its pixels stay in the process that loaded it)."""

    # stored path (if kept), width, height, the decoder's warning if the file is damaged
    image: tuple[str | None, int, int, str | None] | None = None
    found: FoundBoards | None = None
    boards: list[BoardOutcome] = field(default_factory=list)
    error: SudokuBatchError | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class PageJobSettings:
    dpi: int
    solve_timeout: float
    out_dir: Path  # the batch's files go here (boards/, renders/, pages/, cells/)
    rating_seconds: float = DEFAULT_RATING_SECONDS
    certify_policy: CertifyPolicy = CertifyPolicy()
    keep_intermediates: bool = False  # also whole pages and the cell interiors read
    limits: InputLimits = DEFAULT_LIMITS
    engine_files: EngineFiles = field(default_factory=engine_files)


@dataclass(frozen=True)
class Engines:
    """What a page is read and solved with: made once per process, used for every page."""

    ocr: OcrEngine
    backend: SatBackend
    captions: CaptionReader | None  # None: no caption is read


@dataclass(frozen=True)
class BoardWork:
    """What one board's steps need here: the board as found and stored, its page's pixels
    (kept in this process to draw on), and how to read and solve it."""

    at: BoardContext
    found: RectifiedBoard
    image_path: str  # where the board is stored
    caption: Caption | None  # printed nearest the board
    page_pixels: np.ndarray = field(repr=False)
    engine: OcrEngine
    solving: SolveOptions
    keep_cell_images: bool


def process_page(
    source: PageSource, page: PageRef, engines: Engines, settings: PageJobSettings
) -> PageOutcome:
    """Run every step on one page. Errors end the page (or one board) with a reason, never
    the batch."""
    artifacts = Artifacts(LocalFolder(settings.out_dir, make_folder=True), folder_per_batch=False)
    at = PageContext(page, artifacts)
    outcome = PageOutcome()
    clock = Clock()  # load and find together, as the rectify task counts them
    try:
        loaded = load_page_step(
            source, at, settings.dpi, settings.limits, settings.keep_intermediates
        )
        outcome.image = (loaded.image_path, loaded.width, loaded.height, loaded.damaged)
        # The page stays in this process for the solve step: no page regions to store.
        outcome.found = find_boards_step(
            loaded.pixels, at, engines.captions, store_regions=False, damaged=loaded.damaged
        )
    except Exception as error:  # noqa: BLE001 - every failure is recorded, see _as_user_error
        outcome.error = _as_user_error(error, PAGE_STEP.stage)
        return outcome
    finally:
        outcome.seconds = clock.seconds
    solving = SolveOptions(
        engines.backend, settings.solve_timeout, settings.rating_seconds, settings.certify_policy
    )
    found = outcome.found
    for index, board in enumerate(found.boards):
        work = BoardWork(
            at.board(index),
            board,
            found.image_paths[index],
            found.captions[index],
            loaded.pixels,
            engines.ocr,
            solving,
            settings.keep_intermediates,
        )
        outcome.boards.append(_process_board(work))
    return outcome


def _process_board(work: BoardWork) -> BoardOutcome:
    """A board's steps in order, until one fails."""
    board = BoardOutcome()
    for row in BOARD_STEPS:
        clock = Clock()
        try:
            BOARD_RUNS[row.step](work, board)
        except Exception as error:  # noqa: BLE001
            board.error, board.error_stage = _as_user_error(error, row.stage), row.stage
            board.error_seconds = clock.seconds
            break
    return board


def _read(work: BoardWork, board: BoardOutcome) -> None:
    found = work.found
    board.read = read_board_step(
        found.board, work.image_path, found.cells, work.at, work.engine, work.keep_cell_images
    )


def _solve(work: BoardWork, board: BoardOutcome) -> None:
    assert board.read is not None  # read first (BOARD_STEPS)
    recognised = board.read.recognised
    board.solved = solve_board_step(
        recognised.reading,
        recognised.board,
        board_region(work.page_pixels, work.found.board),
        work.at,
        work.solving,
        printed_role(work.caption),
    )


# How this process runs each board step of the job's table.
BOARD_RUNS = {Step.OCR: _read, Step.SOLVE: _solve}


def without_pixels(outcome: PageOutcome) -> PageOutcome:
    """The outcome with its boards' pixels dropped (each board is stored already, and
    recording needs only its geometry): what a pool process sends the coordinator, so the
    boards' pixels are never pickled, copied and unpickled."""
    if outcome.found is not None:
        boards = [replace(found, board=_bare(found.board)) for found in outcome.found.boards]
        outcome.found = replace(outcome.found, boards=boards)
    for board in outcome.boards:
        if board.read is not None:
            recognised = replace(board.read.recognised, board=_bare(board.read.recognised.board))
            board.read = replace(board.read, recognised=recognised)
    return outcome


def _bare(board: BoardImage) -> BoardImage:
    return replace(board, pixels=np.empty((0, 0), np.uint8))


def _as_user_error(error: Exception, stage: Stage) -> SudokuBatchError:
    return error if isinstance(error, SudokuBatchError) else InternalError.wrapping(error, stage)
