"""The steps of a job, as both drivers run them: load a page, find and rectify its boards, read
a board, solve it and draw the solution.

Each step calls the pure pipeline, writes the images it makes through ``Artifacts`` and
returns a dataclass holding everything ``store.record`` persists of it. The Celery tasks call
one step per task (loading their inputs by id); the embedded runner calls them one after
another in a pool process. Neither adds steps of its own, so both write the same rows.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, CellImage, CellKind, RectifiedBoard
from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.book.facts import PuzzleFacts, other_grid_facts, puzzle_facts
from sudoku_batch.pipeline.certify import BoardFacts, CertifyPolicy, certify
from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI, PageSource, load_page
from sudoku_batch.pipeline.reading import BoardReading, RecognisedBoard
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.printed_captions import Caption, CaptionReader
from sudoku_batch.pipeline.recognise.read_board import cell_interiors, recognise_board
from sudoku_batch.pipeline.render import PageRegion, board_region, render_solution
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.pipeline.solve.entries import entries_as_print, with_entries_checked
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.repairs import printed_verdict
from sudoku_batch.pipeline.solve.result import PuzzleSolution, SolveResult, Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.store.artifacts import RENDER_JPEG_QUALITY, Artifacts, PageRef


@dataclass(frozen=True)
class PageContext:
    """The page a step works on: what names its files, and where they are stored."""

    page: PageRef
    artifacts: Artifacts

    def board(self, index: int) -> BoardContext:
        return BoardContext(self.page, index, self.artifacts)


@dataclass(frozen=True)
class BoardContext:
    """One board of a page (``index``: its place in reading order): what names its files, and
    where they are stored."""

    page: PageRef
    index: int
    artifacts: Artifacts


@dataclass(frozen=True)
class SolveOptions:
    """How a reading is solved: the SAT backend, its timeout in seconds, the rater's budget,
    and the thresholds of a confident reading (``pipeline.certify``)."""

    backend: SatBackend
    timeout: float
    rating_seconds: float = DEFAULT_RATING_SECONDS
    policy: CertifyPolicy = CertifyPolicy()


class Clock:
    """Seconds since a step started."""

    def __init__(self) -> None:
        self.started = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


@dataclass
class LoadedPage:
    """A page decoded or rasterised, and stored as an image if asked (a page with no grid then
    still shows what was read)."""

    pixels: np.ndarray = field(repr=False)
    image_path: str | None
    width: int
    height: int
    seconds: float
    damaged: str | None = None  # the decoder's warning (pipeline.ingest.damage); None: intact


@dataclass
class FoundBoards:
    """Every board on a page, rectified with its cells sorted, each stored as an image; each
    board's pixels are as stored (grey), so that the next step reads the same pixels whether
    it runs here or in another process."""

    boards: list[RectifiedBoard]
    image_paths: list[str]
    seconds: float
    captions: list[Caption | None]  # per board, the caption printed nearest it


@dataclass
class ReadBoard:
    """A board read: turned upright, every cell's reading, the upright board's image."""

    recognised: RecognisedBoard
    image_path: str
    seconds: float


@dataclass
class SolvedBoard:
    """A board's reading solved (doubting contradictory readings), the drawing of its
    solution when it has exactly one, and what the book check needs of it (role, rating,
    canonical form)."""

    solution: PuzzleSolution
    render_path: str | None
    seconds: float
    facts: PuzzleFacts

    @property
    def drawable(self) -> bool:
        """Whether the solution is one to draw: exactly one, proven."""
        return self.solution.result.verdict is Verdict.SOLVED


def load_page_step(
    source: PageSource,
    at: PageContext,
    dpi: int = DEFAULT_PDF_DPI,
    limits: InputLimits = DEFAULT_LIMITS,
    keep_image: bool = False,
) -> LoadedPage:
    """``keep_image``: also store the whole page (larger than its grids' own images; what a
    render needs of it is stored by ``find_boards_step``)."""
    clock = Clock()
    loaded = load_page(source, dpi, limits)
    pixels = loaded.pixels
    image_path = None
    if keep_image:
        image_path = at.artifacts.page_image(at.page)
        at.artifacts.write_image(image_path, pixels)
    height, width = pixels.shape[:2]
    return LoadedPage(pixels, image_path, width, height, clock.seconds, loaded.damaged)


def find_boards_step(
    pixels: np.ndarray,
    at: PageContext,
    captions: CaptionReader | None,
    store_regions: bool,
    damaged: str | None = None,
) -> FoundBoards:
    """Raises ``NoGridFound`` (or ``LatticeNotFound``) when the page holds no board. The
    captions printed beside the boards ("Easy", "Puzzle 12") are read here, where the whole page
    and every board's place on it are at hand; ``captions`` None reads none.
    ``store_regions``: the solve step runs in another process, without the page, so store the
    page region each board's render is drawn on (``Artifacts.board_region``). ``damaged``:
    the decoder's warning if the page's file is damaged (``LoadedPage.damaged``)."""
    clock = Clock()
    page, artifacts = at.page, at.artifacts
    boards, image_paths = [], []
    for index, found in enumerate(rectify_page(pixels, damaged)):
        image_paths.append(artifacts.board_image(page, index, upright=False))
        stored = artifacts.store_board(image_paths[-1], found.board.pixels)
        boards.append(replace(found, board=replace(found.board, pixels=stored)))
        if store_regions:
            region = board_region(pixels, found.board).pixels
            artifacts.write_image(artifacts.board_region(page, index), region, RENDER_JPEG_QUALITY)
    read: list[Caption | None] = [None] * len(boards)
    if captions is not None:
        gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
        read = captions.page_captions(gray, [found.board.location.corners for found in boards])
    return FoundBoards(boards, image_paths, clock.seconds, read)


def read_board_step(
    board: BoardImage,
    board_image_path: str,
    cells: Sequence[CellImage],
    at: BoardContext,
    engine: OcrEngine,
    keep_cell_images: bool = False,
) -> ReadBoard:
    """``board_image_path`` is where ``board`` is stored; a board that needed no turn keeps
    that image (most do). ``keep_cell_images``
    also stores the interior of each given cell as the recogniser read it, for checking a
    misread digit by eye."""
    clock = Clock()
    recognised = recognise_board(board, cells, engine)
    image_path = board_image_path
    if recognised.quarter_turns:
        image_path = at.artifacts.board_image(at.page, at.index, upright=True)
        at.artifacts.store_board(image_path, recognised.board.pixels)
    if keep_cell_images:
        _write_cell_images(recognised, at)
    return ReadBoard(recognised, image_path, clock.seconds)


def solve_board_step(
    reading: BoardReading,
    board: BoardImage,
    region: PageRegion | None,
    at: BoardContext,
    solving: SolveOptions,
    printed_role: str | None = None,
) -> SolvedBoard:
    """``solve_reading_step``, then ``draw_solution_step``."""
    solved = solve_reading_step(reading, solving, printed_role, BoardFacts.of_board(board))
    return draw_solution_step(solved, board, region, at)


def solve_reading_step(
    reading: BoardReading,
    solving: SolveOptions,
    printed_role: str | None,
    board_facts: BoardFacts,
) -> SolvedBoard:
    """A board's reading solved, not yet drawn, with its certificate (``pipeline.certify``;
    ``board_facts``: its page's damage and whether its box shape was seen). ``printed_role``:
    what the caption near the board calls it (``Caption.role``). A grid read as no Sudoku
    (``reading.other_reason``) is not solved: it gets no verdict and the role "other". One
    solved only by doubting a confident reading is, as printed, unsolvable: the repaired
    reading is its suggestion (``pipeline.solve.repairs``). One whose print as read has several
    solutions is solved again with its cells judged handwritten taken as print
    (``entries_as_print``), and kept so when that makes it one."""
    clock = Clock()
    policy = solving.policy
    if reading.other_reason is not None:
        result = SolveResult(Verdict.NOT_SUDOKU, message=reading.other_reason)
        solution = _certified(
            reading, PuzzleSolution(reading.puzzle(), result), board_facts, policy
        )
        return SolvedBoard(solution, None, clock.seconds, other_grid_facts())
    solution = solve_reading(reading, solving.backend, solving.timeout)
    as_print = entries_as_print(reading)
    if solution.result.verdict is Verdict.MULTIPLE_SOLUTIONS and as_print is not None:
        retried = solve_reading(as_print, solving.backend, solving.timeout)
        if retried.result.verdict is Verdict.SOLVED:
            reading, solution = as_print, retried
    solution = printed_verdict(reading.puzzle(), solution, policy.confident_reading)
    solution = with_entries_checked(solution, reading)
    solution = _certified(reading, solution, board_facts, policy)
    facts = puzzle_facts(
        reading.puzzle(), solution.puzzle, solution.result, solving.rating_seconds, printed_role
    )
    return SolvedBoard(solution, None, clock.seconds, facts)


def _certified(
    reading: BoardReading | None,
    solution: PuzzleSolution,
    board_facts: BoardFacts,
    policy: CertifyPolicy,
) -> PuzzleSolution:
    return replace(solution, certificate=certify(reading, solution, board_facts, policy))


def draw_solution_step(
    solved: SolvedBoard, board: BoardImage, region: PageRegion | None, at: BoardContext
) -> SolvedBoard:
    """Only a unique solution is drawn: one of several (or an unproven one) is no answer,
    and drawing it would look like one (``SolvedBoard.drawable``: a caller may skip loading
    ``board`` and ``region`` for any other). ``region`` (``board_region``) None: nothing to
    draw on. A jigsaw's regions and a diagonal variant's diagonals, as the solve used them,
    are drawn with the digits."""
    if not solved.drawable or region is None:
        return solved
    clock = Clock()
    result = solved.solution.result
    assert result.solution is not None
    puzzle = solved.solution.puzzle
    drawn = render_solution(
        region, board, puzzle.givens, result.solution, puzzle.shape.regions, puzzle.shape.variant
    )
    render_path = at.artifacts.render(at.page, at.index)
    at.artifacts.write_image(render_path, drawn, RENDER_JPEG_QUALITY)
    return replace(solved, render_path=render_path, seconds=solved.seconds + clock.seconds)


def solve_text_step(puzzle: Puzzle, solving: SolveOptions) -> SolvedBoard:
    """A puzzle given as text: its givens are certain, so none is doubted, and there is no
    page to draw the solution on."""
    clock = Clock()
    result = solve_puzzle(puzzle, solving.backend, solving.timeout)
    facts = puzzle_facts(puzzle, puzzle, result, solving.rating_seconds)
    solution = _certified(None, PuzzleSolution(puzzle, result), BoardFacts(), solving.policy)
    return SolvedBoard(solution, None, clock.seconds, facts)


def _write_cell_images(recognised: RecognisedBoard, at: BoardContext) -> None:
    given = [
        (cell.row, cell.col) for cell in recognised.reading.cells if cell.kind is CellKind.GIVEN
    ]
    for (row, col), crop in zip(given, cell_interiors(recognised.board, given), strict=True):
        at.artifacts.write_image(at.artifacts.cell_image(at.page, at.index, row, col), crop)
