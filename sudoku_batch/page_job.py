"""One page, start to finish, in one process: what the embedded runner hands to each core.

It calls the same pipeline stages as the Celery tasks (ingest, rectify, recognise, solve,
render), in the same order, and returns plain dataclasses; the coordinating process persists
them through ``store.record`` exactly as the workers do. Nothing here touches the database, so
pages can run on every core while one process owns the SQLite file.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from pipeline.board import BoardImage, CellKind
from pipeline.errors import InternalError, SudokuBatchError
from pipeline.ingest.sources import PageSource, load_page
from pipeline.reading import RecognisedBoard
from pipeline.recognise.ocr.base import OcrEngine
from pipeline.recognise.read_board import cell_interiors, recognise_board
from pipeline.render import render_solution
from pipeline.solve.backend import SatBackend
from pipeline.solve.reconcile import solve_reading
from pipeline.solve.result import PuzzleSolution
from pipeline.vision.page_boards import rectify_page


@dataclass
class PuzzleOutcome:
    """One board of a page: what each stage made of it, or where it stopped and why."""

    board: BoardImage
    recognised: RecognisedBoard | None = None
    solution: PuzzleSolution | None = None
    board_image_path: str | None = None  # with --keep-intermediates
    render_path: str | None = None
    error: SudokuBatchError | None = None
    error_stage: str | None = None  # "ocr" or "solve" (which renders too), as the queues
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class PageOutcome:
    source: PageSource
    puzzles: list[PuzzleOutcome] = field(default_factory=list)
    error: SudokuBatchError | None = None
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class PageJobSettings:
    dpi: int
    solve_timeout: float
    out_dir: Path  # renders go under out_dir/renders; paths returned are relative to out_dir
    keep_intermediates: bool = False  # also warped boards and cell crops, out_dir/intermediates


def process_page(
    source: PageSource,
    sequence: int,
    engine: OcrEngine,
    backend: SatBackend,
    settings: PageJobSettings,
) -> PageOutcome:
    """Run every stage on one page. Errors end the page (or one board) with a reason, never
    the batch. ``sequence`` numbers the page within the batch, for unique file names."""
    outcome = PageOutcome(source)
    stage = "load"
    try:
        with _timer(outcome.seconds, stage):
            page = load_page(source, settings.dpi)
        stage = "rectify"
        with _timer(outcome.seconds, stage):
            boards = rectify_page(page.pixels)
    except Exception as error:  # noqa: BLE001 - every failure is recorded, see _as_user_error
        outcome.error = _as_user_error(error, stage)
        return outcome

    for index, board in enumerate(boards):
        puzzle = PuzzleOutcome(board)
        outcome.puzzles.append(puzzle)
        try:
            name = f"{sequence:05d}-{_slug(source.source)}-p{source.page}-g{index}"
            _process_board(page.pixels, puzzle, name, engine, backend, settings)
        except Exception as error:  # noqa: BLE001
            puzzle.error_stage = "ocr" if puzzle.recognised is None else "solve"
            puzzle.error = _as_user_error(error, puzzle.error_stage)
    return outcome


def _process_board(
    page_pixels: np.ndarray,
    puzzle: PuzzleOutcome,
    name: str,
    engine: OcrEngine,
    backend: SatBackend,
    settings: PageJobSettings,
) -> None:
    with _timer(puzzle.seconds, "ocr"):
        puzzle.recognised = recognise_board(puzzle.board, engine)
    if settings.keep_intermediates:
        puzzle.board_image_path = _keep_intermediates(
            settings.out_dir, Path("intermediates") / name, puzzle.recognised
        )
    with _timer(puzzle.seconds, "solve"):
        puzzle.solution = solve_reading(puzzle.recognised.reading, backend, settings.solve_timeout)
    solved = puzzle.solution.result.solution
    if solved is not None:
        with _timer(puzzle.seconds, "render"):
            image = render_solution(
                page_pixels, puzzle.recognised.board, puzzle.solution.puzzle.givens, solved
            )
            puzzle.render_path = (Path("renders") / f"{name}.png").as_posix()
            _write_png(settings.out_dir / puzzle.render_path, image)


def _slug(source: str) -> str:
    """A file-name-safe short form of a page's source, so render names say where they came
    from (the sequence number in front keeps them unique)."""
    stem = Path(source).name
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem)[:60]


@contextmanager
def _timer(seconds: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds[stage] = time.perf_counter() - started


def _as_user_error(error: Exception, stage: str) -> SudokuBatchError:
    return error if isinstance(error, SudokuBatchError) else InternalError.wrapping(error, stage)


def _keep_intermediates(out_dir: Path, folder: Path, recognised: RecognisedBoard) -> str:
    """Write the upright board and, for each given cell, the crop the recogniser read;
    returns the board's path."""
    board_path = folder / "board.png"
    _write_png(out_dir / board_path, recognised.board.pixels)
    given = [
        (cell.row, cell.col) for cell in recognised.reading.cells if cell.kind is CellKind.GIVEN
    ]
    for (row, col), crop in zip(given, cell_interiors(recognised.board, given), strict=True):
        _write_png(out_dir / folder / f"cell-r{row + 1}c{col + 1}.png", crop)
    return board_path.as_posix()


def _write_png(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise OSError(f"could not write {path}")
