"""Solving a puzzle with a verdict: solved (unique), several solutions, none, timeout, invalid.

Uniqueness costs a second solve: the same CNF plus a clause forbidding the first solution (the
backend adds it to its live solver if it can). If that is unsatisfiable the first solution was
the only one. When propagation before encoding (``pipeline.solve.propagate``) already fills
the grid, that grid is forced, hence unique, and no SAT call is made. Every solution is checked
by ``pipeline.solve.check`` before it is reported.
"""

from __future__ import annotations

import time

from sudoku_batch.pipeline.errors import InvalidPuzzle, SolverFailed
from sudoku_batch.pipeline.grid import Grid, Puzzle
from sudoku_batch.pipeline.solve.backend import SatBackend, SatStatus
from sudoku_batch.pipeline.solve.check import solution_problems
from sudoku_batch.pipeline.solve.encode import (
    DEFAULT_POLICY,
    Encoding,
    EncodingPolicy,
    encode_puzzle,
)
from sudoku_batch.pipeline.solve.result import SolveResult, Verdict


def solve_puzzle(
    puzzle: Puzzle,
    backend: SatBackend,
    timeout: float,
    policy: EncodingPolicy = DEFAULT_POLICY,
) -> SolveResult:
    """The verdict on ``puzzle`` within ``timeout`` seconds in all (both solves together);
    ``policy`` is for measuring other encodings, the default is the measured best.

    Raises ``SolverFailed``/``EngineUnavailable`` when the backend breaks; every property of the
    puzzle itself comes back as a verdict.
    """
    started = time.perf_counter()

    def verdict(kind: Verdict, **found: Grid | str | None) -> SolveResult:
        seconds = time.perf_counter() - started
        return SolveResult(kind, seconds=seconds, backend=backend.name, **found)  # type: ignore[arg-type]

    try:
        encoding = encode_puzzle(puzzle, policy)
    except InvalidPuzzle as error:
        return verdict(Verdict.INVALID, message=error.message)
    if encoding.contradiction:
        return verdict(Verdict.UNSOLVABLE, message=encoding.contradiction)
    if not encoding.cells:  # every playable cell is given or forced by propagation
        return verdict(Verdict.SOLVED, solution=_checked(puzzle, encoding, frozenset(), backend))

    remaining = timeout - (time.perf_counter() - started)
    first, second = backend.solve_cnf_twice(encoding.cnf, len(encoding.cells), remaining)
    if first.status is SatStatus.UNKNOWN:
        return verdict(Verdict.TIMEOUT, message=f"no answer within {timeout:g} s")
    if first.status is SatStatus.UNSAT:
        return verdict(Verdict.UNSOLVABLE, message="the givens admit no solution")
    solution = _checked(puzzle, encoding, first.true_vars, backend)
    if second is None or second.status is SatStatus.UNKNOWN:
        return verdict(
            Verdict.TIMEOUT,
            solution=solution,
            message="found a solution but ran out of time proving it is the only one",
        )
    if second.status is SatStatus.UNSAT:
        return verdict(Verdict.SOLVED, solution=solution)
    return verdict(
        Verdict.MULTIPLE_SOLUTIONS,
        solution=solution,
        second_solution=_checked(puzzle, encoding, second.true_vars, backend),
        message="the givens admit more than one solution",
    )


def _checked(
    puzzle: Puzzle, encoding: Encoding, true_vars: frozenset[int], backend: SatBackend
) -> Grid:
    """The model as a full grid, after the independent check; ``SolverFailed`` if it fails."""
    digits = encoding.decode(true_vars)
    grid = tuple(
        tuple(digits.get((r, c), value) for c, value in enumerate(row))
        for r, row in enumerate(puzzle.givens)
    )
    problems = solution_problems(puzzle, grid)
    if problems:
        raise SolverFailed(
            f"{backend.name} gave a solution that fails the check: " + "; ".join(problems[:3])
        )
    return grid
