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
    Clock,
    FoundBoards,
    ReadBoard,
    SolvedBoard,
    find_boards_step,
    load_page_step,
    read_board_step,
    solve_board_step,
)
from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.errors import InternalError, SudokuBatchError
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.printed_captions import CaptionReader, printed_role
from sudoku_batch.pipeline.render import board_region
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.store.artifacts import Artifacts, PageRef
from sudoku_batch.store.stage import Stage


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
    keep_intermediates: bool = False  # also whole pages and the cell interiors read
    limits: InputLimits = DEFAULT_LIMITS
    engine_files: EngineFiles = field(default_factory=engine_files)


def process_page(
    source: PageSource,
    page: PageRef,
    engine: OcrEngine,
    backend: SatBackend,
    captions: CaptionReader | None,
    settings: PageJobSettings,
) -> PageOutcome:
    """Run every step on one page. Errors end the page (or one board) with a reason, never
    the batch."""
    artifacts = Artifacts(settings.out_dir, folder_per_batch=False, make_folder=True)
    outcome = PageOutcome()
    clock = Clock()  # load and find together, as the rectify task counts them
    try:
        loaded = load_page_step(
            source, page, artifacts, settings.dpi, settings.limits, settings.keep_intermediates
        )
        outcome.image = (loaded.image_path, loaded.width, loaded.height, loaded.damaged)
        # The page stays in this process for the solve step: no page regions to store.
        outcome.found = find_boards_step(
            loaded.pixels, page, artifacts, captions, store_regions=False, damaged=loaded.damaged
        )
    except Exception as error:  # noqa: BLE001 - every failure is recorded, see _as_user_error
        outcome.error = _as_user_error(error, Stage.RECTIFY)
        return outcome
    finally:
        outcome.seconds = clock.seconds
    for index, found in enumerate(outcome.found.boards):
        board = BoardOutcome()
        outcome.boards.append(board)
        clock = Clock()
        try:
            board.read = read_board_step(
                found.board,
                outcome.found.image_paths[index],
                found.cells,
                page,
                index,
                engine,
                artifacts,
                settings.keep_intermediates,
            )
        except Exception as error:  # noqa: BLE001
            board.error, board.error_stage = _as_user_error(error, Stage.OCR), Stage.OCR
            board.error_seconds = clock.seconds
            continue
        clock = Clock()
        try:
            board.solved = solve_board_step(
                board.read.recognised.reading,
                board.read.recognised.board,
                board_region(loaded.pixels, found.board),
                page,
                index,
                backend,
                settings.solve_timeout,
                artifacts,
                settings.rating_seconds,
                printed_role(outcome.found.captions[index]),
            )
        except Exception as error:  # noqa: BLE001
            board.error, board.error_stage = _as_user_error(error, Stage.SOLVE), Stage.SOLVE
            board.error_seconds = clock.seconds
    return outcome


def without_pixels(outcome: PageOutcome) -> PageOutcome:
    """The outcome with its boards' pixels dropped (each board is stored already, and
    recording needs only its geometry): what a pool process sends the coordinator, about 20
    KB a page instead of 660 to pickle, copy and unpickle on a 200 dpi book."""
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
