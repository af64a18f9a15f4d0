"""The persistence functions both drivers call, one per hand-over of the pipeline.

Every function is idempotent: rows are found by their natural key (input file + page, page +
index, puzzle + row + col, ...) and replaced in the caller's transaction, so a redelivered task
rewrites what its first delivery wrote instead of adding to it, and ids handed to the next stage
stay valid. Each function also records its stage run (timing, worker, outcome). None commits:
the caller owns the transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

import numpy as np
from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from sudoku_batch.jobs.table import Stage
from sudoku_batch.pipeline.board import BoardImage, RectifiedBoard
from sudoku_batch.pipeline.book.facts import PuzzleFacts
from sudoku_batch.pipeline.errors import Interrupted, NoGridFound, SudokuBatchError
from sudoku_batch.pipeline.grid import Grid, GridShape
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.pipeline.ingest.textpuzzle import PuzzleLine
from sudoku_batch.pipeline.reading import BoardReading, CellReading, RecognisedBoard
from sudoku_batch.pipeline.recognise.printed_captions import Caption, printed_role
from sudoku_batch.pipeline.solve.entries import entries_json
from sudoku_batch.pipeline.solve.result import (
    Certificate,
    PuzzleSolution,
    ReviewReason,
    Suggestion,
    Verdict,
)
from sudoku_batch.store.models import (
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
    utc_now,
)

# An invalid reading (clashing givens) is reported as unsolvable: to the user the printed
# puzzle as read has no solution either way; error_code keeps 'invalid' for those who care.
PUZZLE_STATUS_OF_VERDICT = {
    Verdict.SOLVED: PuzzleStatus.SOLVED,
    Verdict.MULTIPLE_SOLUTIONS: PuzzleStatus.MULTIPLE_SOLUTIONS,
    Verdict.UNSOLVABLE: PuzzleStatus.UNSOLVABLE,
    Verdict.TIMEOUT: PuzzleStatus.TIMEOUT,
    Verdict.INVALID: PuzzleStatus.UNSOLVABLE,
    Verdict.NOT_SUDOKU: PuzzleStatus.NOT_SUDOKU,
}

_DEFAULT_VERDICT_MESSAGES = {
    Verdict.MULTIPLE_SOLUTIONS: "the puzzle as read has more than one solution",
    Verdict.UNSOLVABLE: "the puzzle as read has no solution",
    Verdict.TIMEOUT: "the solver ran out of time before deciding",
    Verdict.INVALID: "the digits read clash, so the puzzle as read cannot be solved",
    Verdict.NOT_SUDOKU: "not a Sudoku grid",
}


# A board's cells are written in one go through the table: the ORM's bulk insert leaves out
# None values, and so would split given and empty cells into a statement per run of either.
CELL_INSERT = insert(Cell.__table__)


def inputs_label(inputs: list[str]) -> str:
    """An embedded run's batch label: its inputs, comma-separated. A list too long for the
    column is cut and ends with a digest of the whole, so a resumed run still finds it and two
    lists with the same start never share it."""
    label = ", ".join(inputs)
    limit = Batch.__table__.c.label.type.length
    if len(label) <= limit:
        return label
    digest = hashlib.sha256(label.encode()).hexdigest()[:16]
    tail = f" ... ({len(inputs)} inputs, sha256 {digest})"
    return label[: limit - len(tail)] + tail


def create_batch(session: Session, label: str | None = None, api_key_id: int | None = None) -> int:
    batch = Batch(label=label, api_key_id=api_key_id)
    session.add(batch)
    session.flush()
    return batch.id


def add_input_file(
    session: Session,
    batch_id: int,
    name: str,
    stored_path: str,
    box: tuple[int, int] | None = None,
    content_hash: str | None = None,
    *,
    text: bool = False,
) -> int:
    """The input file stored at ``stored_path`` (relative to the data dir), named ``name``;
    ``text``: a text file of puzzles, with ``box`` the box shape (rows, columns) given;
    ``content_hash`` the SHA-256 of its bytes, when the caller knows it."""
    row = session.scalar(
        select(InputFile).where(
            InputFile.batch_id == batch_id, InputFile.stored_path == stored_path
        )
    )
    if row is None:
        row = InputFile(batch_id=batch_id, stored_path=stored_path)
        session.add(row)
    row.name, row.is_text = name, text
    row.box_rows, row.box_cols = box or (None, None)
    row.content_hash = content_hash
    session.flush()
    return row.id


def add_pages(
    session: Session,
    input_file_id: int,
    sources: Sequence[PageSource],
    seconds: float,
    worker: str | None = None,
    *,
    task: Stage | None = None,
) -> list[int]:
    """Page rows for an input file's listed pages, in order; returns their ids. A page refused
    at listing is failed at once with its error; the others are pending. ``task``: the server
    task it ran in (``StageRun.task``; None when embedded)."""
    input_file = session.get_one(InputFile, input_file_id)
    existing = {
        (page.source, page.page_number): page
        for page in session.scalars(select(Page).where(Page.input_file_id == input_file_id))
    }
    pages = []
    for source in sources:
        page = existing.pop((source.source, source.page), None)
        if page is None:
            page = Page(batch_id=input_file.batch_id, input_file_id=input_file_id)
            session.add(page)
        page.source, page.page_number = source.source, source.page
        page.format, page.member, page.frame_index = str(source.format), source.member, source.index
        page.image_path = page.width = page.height = page.error_code = page.message = None
        page.status = PageStatus.PENDING
        pages.append(page)
    for stale in existing.values():
        session.delete(stale)
    session.flush()  # one INSERT for all new pages, which gives their ids
    for page, source in zip(pages, sources, strict=True):
        if source.refused:
            # Refused at listing (unreadable, too large, encrypted, ...): final already, with
            # its reason, so no stage ever loads it.
            record_failure(session, source.error(), Stage.INGEST, page_id=page.id, task=task)
    ids = [page.id for page in pages]
    _listed(session, input_file, seconds, worker, task)
    return ids


def _listed(
    session: Session, input_file: InputFile, seconds: float, worker: str | None, task: Stage | None
) -> None:
    """Mark an input file whose pages are recorded as expanded, with its ingest run."""
    input_file.status, input_file.error_code, input_file.message = InputStatus.EXPANDED, None, None
    _record_run(
        session,
        Stage.INGEST,
        input_file.batch_id,
        seconds,
        worker,
        input_file_id=input_file.id,
        task=task,
    )


# Page.format of a puzzle line of a text file: the page is the line, there is no image.
TEXT_LINE_FORMAT = "text_line"


def add_text_puzzles(
    session: Session,
    input_file_id: int,
    lines: Sequence[PuzzleLine],
    seconds: float,
    worker: str | None = None,
    *,
    task: Stage | None = None,
) -> list[int]:
    """A text file's puzzle lines as its pages (``page_number``: the line's number). A line
    that parsed is one puzzle whose givens are certain (status ``read``: ready to solve); one
    that did not is a failed page with the parse error. Earlier solutions are dropped; returns
    the puzzle ids in order."""
    input_file = session.get_one(InputFile, input_file_id)
    pages_of_file = select(Page.id).where(Page.input_file_id == input_file_id)
    old_pages = {
        page.page_number: page
        for page in session.scalars(select(Page).where(Page.input_file_id == input_file_id))
    }
    pages = []
    for line in lines:
        page = old_pages.pop(line.number, None)
        if page is None:
            page = Page(batch_id=input_file.batch_id, input_file_id=input_file_id)
            session.add(page)
        page.source, page.page_number = input_file.name, line.number
        page.format, page.member, page.frame_index = TEXT_LINE_FORMAT, None, 0
        page.image_path = page.width = page.height = None
        page.status = PageStatus.FAILED if line.error else PageStatus.DONE
        page.error_code = line.error.code if line.error else None
        page.message = line.error.message if line.error else None
        pages.append(page)
    for stale in old_pages.values():
        session.delete(stale)
    session.flush()
    old_puzzles = {
        puzzle.page_id: puzzle
        for puzzle in session.scalars(select(Puzzle).where(Puzzle.page_id.in_(pages_of_file)))
    }
    puzzles = []
    for line, page in zip(lines, pages, strict=True):
        if line.puzzle is None:
            continue  # a puzzle an earlier run made of this line is deleted as stale below
        puzzle = old_puzzles.pop(page.id, None)
        if puzzle is None:
            puzzle = Puzzle(batch_id=input_file.batch_id, page_id=page.id, index_on_page=0)
            session.add(puzzle)
        given = line.puzzle.puzzle
        shape = given.shape
        puzzle.size, puzzle.box_rows, puzzle.box_cols = shape.size, shape.box_rows, shape.box_cols
        _set_variant(puzzle, shape)
        puzzle.corners = puzzle.homography = puzzle.lattice = puzzle.board_image_path = None
        puzzle.rotation = 0
        # Typed digits are certain, and the givens say all there is: no cells rows, which
        # hold what recognition made of each cell (81 rows a line took a large file minutes).
        puzzle.givens = grid_json(given.givens)
        puzzle.lowest_confidence = 1.0 if any(any(row) for row in given.givens) else None
        puzzle.status, puzzle.error_code, puzzle.message = PuzzleStatus.READ, None, None
        set_facts(puzzle, None)
        puzzles.append(puzzle)
    for stale in old_puzzles.values():
        session.delete(stale)
    session.flush()
    puzzles_of_file = select(Puzzle.id).where(Puzzle.page_id.in_(pages_of_file))
    session.execute(delete(Solution).where(Solution.puzzle_id.in_(puzzles_of_file)))
    _listed(session, input_file, seconds, worker, task)
    return [puzzle.id for puzzle in puzzles]


def record_page_image(
    session: Session,
    page_id: int,
    image_path: str | None,
    width: int,
    height: int,
    damaged: str | None = None,
) -> None:
    """Where a loaded page's pixels were stored (None: not kept), its size, and the decoder's
    warning if the file is damaged."""
    session.execute(
        update(Page)
        .where(Page.id == page_id)
        .values(image_path=image_path, width=width, height=height, damaged=damaged)
        .returning(Page.id)
    ).one()


def record_boards(
    session: Session,
    page_id: int,
    boards: Sequence[RectifiedBoard],
    board_image_paths: Sequence[str],
    seconds: float,
    worker: str | None = None,
    captions: Sequence[Caption | None] = (),
    *,
    task: Stage | None = None,
) -> list[int]:
    """The boards found on a page, in reading order, each with its sorted cells, stored image
    and the caption printed beside it (label and number; none when ``captions`` is short);
    returns the puzzle ids. Earlier readings and solutions of these puzzles are dropped;
    a page left with no boards reads as ``no_grid`` in the results."""
    if len(boards) != len(board_image_paths):
        raise ValueError("boards and board_image_paths must line up")
    page = session.get_one(Page, page_id)
    existing = {
        puzzle.index_on_page: puzzle
        for puzzle in session.scalars(select(Puzzle).where(Puzzle.page_id == page_id))
    }
    puzzles = []
    for index, (found, image_path) in enumerate(zip(boards, board_image_paths, strict=True)):
        puzzle = existing.pop(index, None)
        if puzzle is None:
            puzzle = Puzzle(batch_id=page.batch_id, page_id=page_id, index_on_page=index)
            session.add(puzzle)
        _set_board(puzzle, found.board, image_path)
        caption = captions[index] if index < len(captions) else None
        puzzle.printed_label = caption.label if caption else None
        puzzle.printed_number = caption.number if caption else None
        puzzle.printed_role = printed_role(caption)
        puzzles.append(puzzle)
    for stale in existing.values():
        session.delete(stale)
    # Puzzles made before (a task run again) drop their cells and solution; new ones have none.
    earlier = [puzzle.id for puzzle in puzzles if puzzle.id is not None]
    session.flush()  # one INSERT for all new puzzles, which gives their ids
    if earlier:
        session.execute(delete(Cell).where(Cell.puzzle_id.in_(earlier)))
        session.execute(delete(Solution).where(Solution.puzzle_id.in_(earlier)))
    cells = [
        row
        for puzzle, found in zip(puzzles, boards, strict=True)
        for row in _cell_rows(
            puzzle.id,
            [CellReading(c.row, c.col, c.kind, confidence=c.confidence) for c in found.cells],
        )
    ]
    if cells:
        session.execute(CELL_INSERT, cells)
    _record_run(session, Stage.RECTIFY, page.batch_id, seconds, worker, page_id=page_id, task=task)
    page.status, page.error_code, page.message = PageStatus.DONE, None, None
    return [puzzle.id for puzzle in puzzles]


def _set_board(puzzle: Puzzle, board: BoardImage, image_path: str) -> None:
    puzzle.corners = _floats(board.location.corners)
    puzzle.rotation = 0
    puzzle.board_image_path = image_path
    puzzle.givens = puzzle.lowest_confidence = None
    puzzle.status, puzzle.error_code, puzzle.message = PuzzleStatus.PENDING, None, None
    set_facts(puzzle, None)
    _set_geometry(puzzle, board)


def _set_geometry(puzzle: Puzzle, board: BoardImage) -> None:
    shape = board.lattice.shape
    puzzle.size, puzzle.box_rows, puzzle.box_cols = shape.size, shape.box_rows, shape.box_cols
    _set_variant(puzzle, shape)
    puzzle.homography = _floats(board.homography)
    puzzle.lattice = {
        "row_lines": [float(v) for v in board.lattice.row_lines],
        "col_lines": [float(v) for v in board.lattice.col_lines],
        # Whether the box shape was seen (thicker lines) or assumed: a turn swaps only the
        # former (pipeline.recognise.turns).
        "box_lines": board.lattice.box_lines,
    }


def _set_variant(puzzle: Puzzle, shape: GridShape) -> None:
    """The grid's variant and its regions (the boxes' numbers for a classic grid)."""
    puzzle.variant = shape.variant
    puzzle.regions = [list(row) for row in shape.geometry.regions]


@dataclass(frozen=True)
class ReadingToRecord:
    """A board's reading, for ``record_readings``: its upright board is stored at
    ``board_image_path``."""

    puzzle_id: int
    recognised: RecognisedBoard
    board_image_path: str
    seconds: float


def record_reading(
    session: Session,
    puzzle_id: int,
    recognised: RecognisedBoard,
    board_image_path: str,
    seconds: float,
    worker: str | None = None,
) -> None:
    """A board's reading: its upright board (stored at ``board_image_path``), every cell's
    digit, confidence and runner-ups. Any earlier solution is dropped."""
    record_readings(
        session, [ReadingToRecord(puzzle_id, recognised, board_image_path, seconds)], worker
    )


def record_readings(
    session: Session,
    readings: Sequence[ReadingToRecord],
    worker: str | None = None,
    *,
    task: Stage | None = None,
) -> None:
    """``record_reading`` for a page's boards, in the same four statements however many (and
    one UPDATE of their puzzles when the caller's changes flush)."""
    if not readings:
        return
    ids = [read.puzzle_id for read in readings]
    puzzles = [session.get_one(Puzzle, puzzle_id) for puzzle_id in ids]
    session.execute(delete(Cell).where(Cell.puzzle_id.in_(ids)))
    session.execute(delete(Solution).where(Solution.puzzle_id.in_(ids)))
    session.execute(
        CELL_INSERT,
        [
            row
            for read in readings
            for row in _cell_rows(read.puzzle_id, read.recognised.reading.cells)
        ],
    )
    runs = [(puzzle, read.seconds) for puzzle, read in zip(puzzles, readings, strict=True)]
    _record_puzzle_runs(session, Stage.OCR, worker, runs, task)
    # The puzzles' own changes last: they flush as one UPDATE each, with any the caller adds.
    for puzzle, read in zip(puzzles, readings, strict=True):
        recognised, reading = read.recognised, read.recognised.reading
        # The OCR stage reads the board last stored: upright already if a first delivery got
        # this far, so turns add up to the rotation from the board as found.
        puzzle.rotation = (puzzle.rotation + recognised.quarter_turns) % 4
        puzzle.board_image_path = read.board_image_path
        _set_geometry(puzzle, recognised.board)
        _set_variant(puzzle, reading.shape)  # recognition's regions and diagonals
        puzzle.regions_certainty = reading.regions_certainty
        puzzle.givens = grid_json(reading.givens())
        puzzle.lowest_confidence = reading.lowest_confidence()
        puzzle.symbols = reading.symbols
        puzzle.other_reason = reading.other_reason
        puzzle.ink = ink_grid(reading)
        puzzle.status, puzzle.error_code, puzzle.message = PuzzleStatus.READ, None, None
        set_facts(puzzle, None)


def _cell_rows(puzzle_id: int, cells: Sequence[CellReading]) -> list[dict[str, Any]]:
    """Cells as rows for one bulk insert."""
    return [
        {
            "puzzle_id": puzzle_id,
            "row": cell.row,
            "col": cell.col,
            "kind": str(cell.kind),
            "digit": cell.digit,
            "confidence": cell.confidence,
            "alternatives": [[digit, float(p)] for digit, p in cell.alternatives],
            "ink": None if cell.ink is None else str(cell.ink),
            "candidates": list(cell.candidates),
        }
        for cell in cells
    ]


@dataclass(frozen=True)
class SolutionToRecord:
    """A puzzle's solving, for ``record_solutions``: ``render_path`` None if not drawn,
    ``facts`` None if unknown."""

    puzzle_id: int
    solution: PuzzleSolution
    render_path: str | None
    seconds: float
    facts: PuzzleFacts | None = None


def record_solution(
    session: Session,
    puzzle_id: int,
    solution: PuzzleSolution,
    render_path: str | None,
    seconds: float,
    worker: str | None = None,
    *,
    facts: PuzzleFacts | None = None,
    task: Stage | None = None,
) -> None:
    """A puzzle's verdict, solution(s), doubted readings and render (None if not drawn), and
    its book-check facts (role, rating, canonical form; None: unknown, left empty). ``task``:
    the server task it was solved in (``StageRun.task``; None when embedded)."""
    record_solutions(
        session,
        [SolutionToRecord(puzzle_id, solution, render_path, seconds, facts)],
        worker,
        task=task,
    )


def record_solutions(
    session: Session,
    solved: Sequence[SolutionToRecord],
    worker: str | None = None,
    *,
    task: Stage | None = None,
) -> None:
    """``record_solution`` for a page's puzzles, in the same two statements however many."""
    if not solved:
        return
    puzzles = [session.get_one(Puzzle, each.puzzle_id) for each in solved]
    rows, messages = [], []
    for each in solved:
        result = each.solution.result
        messages.append(
            None
            if result.verdict is Verdict.SOLVED
            else (result.message or _DEFAULT_VERDICT_MESSAGES[result.verdict])
        )
        rows.append(
            {
                "puzzle_id": each.puzzle_id,
                "verdict": str(result.verdict),
                "grid": grid_json(result.solution),
                "second_grid": grid_json(result.second_solution),
                "doubts": [asdict(doubt) for doubt in each.solution.doubts],
                "entries_check": _entries_check(each.solution),
                "backend": result.backend or None,
                "seconds": result.seconds,
                "render_path": each.render_path,
                "message": messages[-1],
                "created_at": utc_now(),
                "suggestion": suggestion_json(each.solution.suggestion),
            }
        )
    # No flush of the puzzles' changes before these statements (their readings', when recorded
    # in the same transaction): they flush as one UPDATE each with those below.
    with session.no_autoflush:
        _upsert(session, Solution, ["puzzle_id"], rows)
        runs = [(puzzle, each.seconds) for puzzle, each in zip(puzzles, solved, strict=True)]
        _record_puzzle_runs(session, Stage.SOLVE, worker, runs, task)
    for puzzle, each, message in zip(puzzles, solved, messages, strict=True):
        verdict = each.solution.result.verdict
        set_facts(puzzle, each.facts)
        set_certificate(puzzle, each.solution.certificate)
        puzzle.status = PUZZLE_STATUS_OF_VERDICT[verdict]
        puzzle.error_code = None if verdict is Verdict.SOLVED else str(verdict)
        puzzle.message = _with_form_reason(message, each.facts)


def ink_grid(reading: BoardReading) -> list[list[str | None]] | None:
    """Each cell's ink as rows (null a blocked cell); None when no cell's ink was judged."""
    if all(cell.ink is None for cell in reading.cells):
        return None
    n = reading.shape.size
    rows: list[list[str | None]] = [[None] * n for _ in range(n)]
    for cell in reading.cells:
        rows[cell.row][cell.col] = None if cell.ink is None else str(cell.ink)
    return rows


def _entries_check(solution: PuzzleSolution) -> list[dict[str, Any]] | None:
    checks = solution.entries_check
    return None if checks is None else entries_json(checks)


def _with_form_reason(message: str | None, facts: PuzzleFacts | None) -> str | None:
    """A puzzle without a canonical form says why in its message (after the verdict's, or the
    rating's note, which the results show when there is no message)."""
    if facts is None or facts.canonical_reason is None:
        return message
    first = message or facts.rating_reason
    return f"{first}; {facts.canonical_reason}" if first else facts.canonical_reason


def set_facts(puzzle: Puzzle, facts: PuzzleFacts | None) -> None:
    """The book-check columns from ``facts``; None clears them and the certificate (a puzzle
    read again, corrected or failed keeps no rating or certificate of an earlier reading)."""
    if facts is None:
        puzzle.role = puzzle.rating = puzzle.techniques = puzzle.level = None
        puzzle.rating_reason = puzzle.canonical = puzzle.canonical_complete = None
        set_certificate(puzzle, None)
        return
    puzzle.role, puzzle.rating = str(facts.role), facts.rating
    puzzle.techniques, puzzle.level = list(facts.techniques), facts.level
    puzzle.rating_reason = facts.rating_reason
    puzzle.canonical, puzzle.canonical_complete = facts.canonical, facts.canonical_complete


def set_certificate(puzzle: Puzzle, certificate: Certificate | None) -> None:
    """The certificate's columns (``pipeline.certify``); None: not judged (not solved yet)."""
    if certificate is None:
        puzzle.certified = puzzle.review_reasons = None
        return
    puzzle.certified = certificate.certified
    puzzle.review_reasons = [asdict(reason) for reason in certificate.reasons]


def suggestion_json(suggestion: Suggestion | None) -> dict[str, Any] | None:
    """A repaired reading as stored: its givens, their solution, and the readings changed."""
    if suggestion is None:
        return None
    return {
        "givens": grid_json(suggestion.givens),
        "solution": grid_json(suggestion.solution),
        "doubts": [asdict(doubt) for doubt in suggestion.doubts],
    }


def record_failure(
    session: Session,
    error: SudokuBatchError,
    stage: Stage,
    *,
    input_file_id: int | None = None,
    page_id: int | None = None,
    puzzle_id: int | None = None,
    seconds: float = 0.0,
    worker: str | None = None,
    task: Stage | None = None,
) -> None:
    """Mark one input file, page or puzzle as failed in ``stage``, with the error's message;
    a page whose error is ``NoGridFound`` is ``no_grid``. Its dependants are dropped.
    ``task``: the server task it failed in (``StageRun.task``; None when embedded)."""
    subject: InputFile | Page | Puzzle
    if input_file_id is not None:
        subject = session.get_one(InputFile, input_file_id)
        subject.status = InputStatus.FAILED
        session.execute(delete(Page).where(Page.input_file_id == input_file_id))
    elif page_id is not None:
        subject = session.get_one(Page, page_id)
        subject.status = (
            PageStatus.NO_GRID
            if isinstance(error, NoGridFound)
            else PageStatus.INTERRUPTED
            if isinstance(error, Interrupted)
            else PageStatus.FAILED
        )
        session.execute(delete(Puzzle).where(Puzzle.page_id == page_id))
    elif puzzle_id is not None:
        subject = session.get_one(Puzzle, puzzle_id)
        subject.status = PuzzleStatus.FAILED
        set_facts(subject, None)
        set_certificate(subject, Certificate(False, (ReviewReason(error.code, error.message),)))
        session.execute(delete(Solution).where(Solution.puzzle_id == puzzle_id))
    else:
        raise ValueError("record_failure needs an input_file_id, page_id or puzzle_id")
    subject.error_code, subject.message = error.code, error.message
    _record_run(
        session,
        stage,
        subject.batch_id,
        seconds,
        worker,
        error=error,
        input_file_id=input_file_id,
        page_id=page_id,
        puzzle_id=puzzle_id,
        task=task,
    )


def _record_run(
    session: Session,
    stage: Stage,
    batch_id: int,
    seconds: float,
    worker: str | None,
    *,
    error: SudokuBatchError | None = None,
    input_file_id: int | None = None,
    page_id: int | None = None,
    puzzle_id: int | None = None,
    task: Stage | None = None,
) -> None:
    """Replace the stage run of ``stage`` on the one subject given: one upsert on the
    subject's (subject, stage) unique index."""
    subject_model, subject_key, subject_id = (
        (InputFile, "input_file_id", input_file_id)
        if input_file_id is not None
        else (Page, "page_id", page_id)
        if page_id is not None
        else (Puzzle, "puzzle_id", puzzle_id)
    )
    if subject_id is None:
        raise ValueError("a stage run needs an input_file_id, page_id or puzzle_id")
    run = _run(seconds, worker, session.get(subject_model, subject_id), error, task)
    row = {subject_key: subject_id, "stage": str(stage), "batch_id": batch_id, **run}
    _upsert(session, StageRun, [subject_key, "stage"], [row])


def _record_puzzle_runs(
    session: Session,
    stage: Stage,
    worker: str | None,
    runs: list[tuple[Puzzle, float]],
    task: Stage | None = None,
) -> None:
    """``_record_run`` of ``stage`` for each (puzzle, seconds), in one upsert; ``task``: the
    server task they ran in (``StageRun.task``)."""
    rows = [
        {
            "puzzle_id": puzzle.id,
            "stage": str(stage),
            "batch_id": puzzle.batch_id,
            **_run(seconds, worker, puzzle, task=task),
        }
        for puzzle, seconds in runs
    ]
    _upsert(session, StageRun, ["puzzle_id", "stage"], rows)


def _run(
    seconds: float,
    worker: str | None,
    subject: InputFile | Page | Puzzle | None,
    error: SudokuBatchError | None = None,
    task: Stage | None = None,
) -> dict[str, Any]:
    finished = utc_now()
    return {
        "status": "failed" if error else "ok",
        "started_at": finished - timedelta(seconds=seconds),
        "finished_at": finished,
        "seconds": seconds,
        "waited_seconds": _waited(subject),
        "worker": worker,
        "error_code": error.code if error else None,
        "message": error.message if error else None,
        "task": None if task is None else str(task),
    }


def _upsert(
    session: Session,
    model: type[Solution | StageRun],
    key: list[str],
    rows: list[dict[str, Any]],
) -> None:
    """Insert rows, or update each one with the same ``key`` (the columns of a unique index)
    to its other values, in one statement."""
    # Each database spells it its own way; imported here, so an embedded run never loads the
    # PostgreSQL dialect (tests/test_one_photo_start.py).
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    upsert = dialect_insert(model.__table__).values(rows)
    updated = [column for column in rows[0] if column not in key]
    session.execute(
        upsert.on_conflict_do_update(
            index_elements=key, set_={column: upsert.excluded[column] for column in updated}
        )
    )


def _waited(subject: InputFile | Page | Puzzle | None) -> float | None:
    """How long the subject waited in its queue before a worker took it (server runs only)."""
    if subject is None or subject.queued_at is None or subject.started_at is None:
        return None
    return max(0.0, (subject.started_at - subject.queued_at).total_seconds())


def _floats(array: np.ndarray) -> list[Any]:
    return np.asarray(array, dtype=np.float64).tolist()


def grid_json(grid: Grid | None) -> list[list[int | None]] | None:
    return None if grid is None else [[None if v is None else int(v) for v in row] for row in grid]
