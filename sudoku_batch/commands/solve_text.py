"""``sudoku-batch solve-text``: solve puzzles given as text, one per line.

Prints one line per input line, in input order: the solution in the input's alphabet when the
puzzle has exactly one, else ``<verdict>: <reason>`` (``error: <reason>`` for a line that is not
a puzzle); comments and blank lines are echoed so the output lines up with the input. With
``--format jsonl`` it prints one full record per puzzle instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from sudoku_batch.commands import option_types
from sudoku_batch.commands.text_options import box_argument
from sudoku_batch.engine_files import engine_files
from sudoku_batch.outcome import exit_code
from sudoku_batch.pipeline.errors import SudokuBatchError, UnreadableInput
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.textpuzzle import (
    format_grid,
    is_puzzle_line,
    numbered_lines,
    parse_line,
)
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.pipeline.solve.backends import BACKEND_NAMES, DEFAULT_BACKEND, make_backend
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from sudoku_batch.pipeline.solve.timeouts import COMMAND_SOLVE_TIMEOUT

SKIPPED = "skipped"  # a comment or blank line: no puzzle, no status
LINES_PER_TASK = 64  # big enough that a worker's backend start-up and IPC are noise

Line = tuple[int, str]  # (1-based line number, text without the newline)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve-text",
        help="solve puzzles written as text, one per line (81 symbols for 9x9, . = empty)",
        description=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
    parser.add_argument(
        "--format", choices=("text", "jsonl"), default="text", help="output (default: text)"
    )
    parser.add_argument(
        "--jobs", type=option_types.jobs, default=1, help="processes to use (default: 1)"
    )
    parser.add_argument(
        "--backend",
        choices=BACKEND_NAMES,
        default=DEFAULT_BACKEND,
        help="SAT backend (default: %(default)s)",
    )
    parser.add_argument(
        "--timeout",
        type=option_types.positive_seconds,
        default=COMMAND_SOLVE_TIMEOUT,
        help="seconds per puzzle, uniqueness check included (default: %(default)s)",
    )
    parser.add_argument(
        "--box",
        type=box_argument,
        metavar="RxC",
        help="box shape, e.g. 2x3 for 6x6 (default: the usual one for the grid's size)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    kissat = engine_files().kissat
    make_backend(args.backend, kissat)  # fail once, up front, if the backend cannot run
    chunks = _chunks(_numbered_lines(args.file), LINES_PER_TASK)
    tasks = ((chunk, args.backend, kissat, args.timeout, args.box, args.format) for chunk in chunks)
    statuses: set[str] = set()
    if args.jobs <= 1:
        answers = map(_solve_chunk, tasks)
    else:
        from concurrent.futures import ProcessPoolExecutor  # not on every command's start-up

        pool = ProcessPoolExecutor(max_workers=args.jobs)
        answers = pool.map(_solve_chunk, tasks)  # yields in input order
    try:
        for chunk_answers in answers:
            for line, status in chunk_answers:
                if line is not None:
                    print(line, flush=False)
                statuses.add(status)
            sys.stdout.flush()
    finally:
        if args.jobs > 1:
            pool.shutdown(cancel_futures=True)
    return exit_code({"status": status} for status in statuses - {SKIPPED})


def _solve_chunk(
    task: tuple[list[Line], str, Path | None, float, GridShape | None, str],
) -> list[tuple[str | None, str]]:
    """Each line's output (None: nothing to print) and its status as the results contract
    says it (``solved``, ``unsolvable``, ..., ``failed``), for the exit code."""
    lines, backend_name, kissat, timeout, box, output_format = task
    backend = make_backend(backend_name, kissat)
    return [
        _solve_line(number, text, backend, timeout, box, output_format) for number, text in lines
    ]


def _solve_line(
    number: int,
    text: str,
    backend: SatBackend,
    timeout: float,
    box: GridShape | None,
    output_format: str,
) -> tuple[str | None, str]:
    jsonl = output_format == "jsonl"
    if not is_puzzle_line(text):
        return (None if jsonl else text), SKIPPED
    line = parse_line(number, text, box)
    if line.puzzle is None:
        assert line.error is not None
        return _error(number, f"line {number}: {line.error.message}", jsonl)
    parsed = line.puzzle
    try:
        result = solve_puzzle(parsed.puzzle, backend, timeout)
    except SudokuBatchError as error:  # the solver broke on this puzzle; the others go on
        return _error(number, f"line {number}: {error.message}", jsonl)
    status = "solved" if result.verdict is Verdict.SOLVED else "unsolvable"
    if not jsonl:
        if result.verdict is Verdict.SOLVED:
            return format_grid(result.solution), status
        return f"{result.verdict}: {result.message}", status
    record = {
        "line": number,
        "variant": parsed.puzzle.shape.variant,
        "verdict": str(result.verdict),
        "solution": format_grid(result.solution) if result.solution else None,
        "second_solution": (
            format_grid(result.second_solution) if result.second_solution else None
        ),
        "message": result.message,
        "seconds": round(result.seconds, 6),
        "backend": result.backend,
        "tags": list(parsed.tags),
    }
    return json.dumps(record), status


def _error(number: int, message: str, jsonl: bool) -> tuple[str, str]:
    line = json.dumps({"line": number, "error": message}) if jsonl else f"error: {message}"
    return line, "failed"


def _numbered_lines(path: str) -> Iterator[Line]:
    """The input's lines, read as text batches on the server read theirs."""
    if path == "-":
        yield from numbered_lines(sys.stdin.buffer, "standard input")
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below, after the last line
    except OSError as error:
        raise UnreadableInput(f"cannot read {path}: {error.strerror}") from error
    with stream:
        yield from numbered_lines(stream, path)


def _chunks(lines: Iterable[Line], size: int) -> Iterator[list[Line]]:
    chunk: list[Line] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


if __name__ == "__main__":  # until sudoku_batch.cli is in place: python -m ...solve_text FILE
    shim = argparse.ArgumentParser(prog="solve_text")
    register(shim.add_subparsers(dest="command", required=True))
    arguments = shim.parse_args(["solve-text", *sys.argv[1:]])
    try:
        sys.exit(arguments.func(arguments))
    except SudokuBatchError as failure:
        sys.exit(f"solve_text: {failure.message}")
