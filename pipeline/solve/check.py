"""Independent check of a solution against its puzzle.

Deliberately shares nothing with the encoder: if the CNF were wrong, or a backend returned a
bad model, this is what stops a wrong answer from being reported.
"""

from __future__ import annotations

from sudoku_batch.pipeline.grid import Grid, Puzzle


def solution_problems(puzzle: Puzzle, solution: Grid) -> list[str]:
    """Everything wrong with ``solution`` for ``puzzle`` (empty when it is a valid solution)."""
    n = puzzle.size
    br, bc = puzzle.shape.box_rows, puzzle.shape.box_cols
    if len(solution) != n or any(len(row) != n for row in solution):
        return [f"the solution is not {n}x{n}"]
    problems = []
    for r in range(n):
        for c in range(n):
            given, value = puzzle.givens[r][c], solution[r][c]
            if given is None:
                if value is not None:
                    problems.append(f"blocked cell r{r + 1}c{c + 1} holds {value}")
            elif not isinstance(value, int) or not 1 <= value <= n:
                problems.append(f"cell r{r + 1}c{c + 1} holds {value!r}, not a digit 1..{n}")
            elif given and value != given:
                problems.append(f"given r{r + 1}c{c + 1}={given} was changed to {value}")
    groups = {}
    for r in range(n):
        for c in range(n):
            for key in (("row", r), ("column", c), ("box", (r // br, c // bc))):
                groups.setdefault(key, []).append(solution[r][c])
    for (kind, where), values in groups.items():
        digits = [v for v in values if v is not None]
        if len(set(digits)) != len(digits):
            problems.append(f"{kind} {where} repeats a digit")
    return problems
