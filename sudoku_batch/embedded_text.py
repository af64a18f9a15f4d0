"""The embedded driver for text files of puzzles (``run --text``): the rows the server's
``ingest_text`` and ``solve_text`` tasks write, from the same reader and step.

Each file is read here (reading is quick); its puzzles are solved on the process pool in
chunks, since one puzzle takes milliseconds and a process hop per puzzle would cost more.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tqdm import tqdm

from sudoku_batch.embedded import BatchRun, EmbeddedOptions
from sudoku_batch.embedded_store import open_database, write_results
from sudoku_batch.jobs.steps import Clock, SolvedBoard, SolveOptions, solve_text_step
from sudoku_batch.jobs.table import Step, sequence
from sudoku_batch.pipeline.errors import InternalError, SudokuBatchError
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import read_puzzle_file
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.resume import prepare_text_batch
from sudoku_batch.store.record import (
    add_input_file,
    add_text_puzzles,
    inputs_label,
    record_failure,
    record_solution,
)

# The server's steps for a text file (jobs.table), whose stages failures are recorded under.
INGEST, SOLVE = sequence(Step.INGEST_TEXT)
PUZZLES_PER_TASK = 64  # a pool task's backend start-up and IPC are then noise

Solved = SolvedBoard | SudokuBatchError  # a puzzle's step result, or why the solver broke


def run_text_batch(
    inputs: Iterable[str | Path], options: EmbeddedOptions, box: GridShape | None = None
) -> BatchRun:
    """Solve every puzzle line of the text files ``inputs`` (box shape ``box``, else the usual
    one per size), going on with a batch of the same inputs in the output folder as
    ``resume.prepare_text_batch`` says unless ``options.restart``; the result records are also
    written to ``out_dir/results.jsonl``."""
    inputs = [str(path) for path in inputs]
    shape = (box.box_rows, box.box_cols) if box else None
    engine, sessions = open_database(options.out_dir)
    with sessions.begin() as session:
        prepared = prepare_text_batch(
            session, inputs_label(inputs), inputs, shape, options.out_dir, options.restart
        )
    run = BatchRun(prepared.batch_id, [], prepared.resumed, prepared.lines_kept)
    puzzles: list[tuple[int, Puzzle]] = []
    for name, content_hash in prepared.todo:
        clock = Clock()
        with sessions.begin() as session:
            input_file_id = add_input_file(
                session, run.batch_id, name, name, shape, content_hash, text=True
            )
        try:
            lines = read_puzzle_file(Path(name), name, box)
        except SudokuBatchError as error:
            with sessions.begin() as session:
                record_failure(
                    session, error, INGEST.stage, input_file_id=input_file_id, seconds=clock.seconds
                )
            run.pages_done += 1  # the file, failed as a whole
            continue
        with sessions.begin() as session:
            ids = add_text_puzzles(session, input_file_id, lines, clock.seconds)
        run.pages_done += len(lines)
        read = [line.puzzle.puzzle for line in lines if line.puzzle is not None]
        puzzles += zip(ids, read, strict=True)

    bar = tqdm(
        total=len(puzzles),
        unit="puzzle",
        disable=not options.progress or not puzzles,
        smoothing=0.1,
    )
    for puzzle_id, solved in _solved(puzzles, options):
        with sessions.begin() as session:
            if isinstance(solved, SudokuBatchError):
                record_failure(session, solved, SOLVE.stage, puzzle_id=puzzle_id)
            else:
                record_solution(
                    session,
                    puzzle_id,
                    solved.solution,
                    solved.render_path,
                    solved.seconds,
                    facts=solved.facts,
                )
        bar.update(1)
    bar.close()
    run.records, run.results = write_results(engine, sessions, run.batch_id, options.out_dir)
    return run


def _solved(
    puzzles: list[tuple[int, Puzzle]], options: EmbeddedOptions
) -> Iterator[tuple[int, Solved]]:
    chunks = [
        (
            puzzles[start : start + PUZZLES_PER_TASK],
            options.backend,
            options.engine_files.kissat,
            options.solve_timeout,
            options.rating_seconds,
        )
        for start in range(0, len(puzzles), PUZZLES_PER_TASK)
    ]
    if options.jobs == 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield from _solve_chunk(chunk)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(options.jobs, len(chunks)), mp_context=context) as pool:
        for answers in pool.map(_solve_chunk, chunks):
            yield from answers


def _solve_chunk(
    task: tuple[list[tuple[int, Puzzle]], str, Path | None, float, float],
) -> list[tuple[int, Solved]]:
    puzzles, backend_name, kissat, timeout, rating_seconds = task
    solving = SolveOptions(make_backend(backend_name, kissat), timeout, rating_seconds)
    answers: list[tuple[int, Solved]] = []
    for puzzle_id, puzzle in puzzles:
        try:
            answers.append((puzzle_id, solve_text_step(puzzle, solving)))
        except SudokuBatchError as error:  # the solver broke on this puzzle; the others go on
            answers.append((puzzle_id, error))
        except Exception as error:  # noqa: BLE001 - recorded as a bug, the batch goes on
            answers.append((puzzle_id, InternalError.wrapping(error, SOLVE.stage)))
    return answers
