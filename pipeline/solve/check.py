"""Independent check of a solution against its puzzle.

Deliberately shares nothing with the encoder: if the CNF were wrong, or a backend returned a
bad model, this is what stops a wrong answer from being reported. It reads the rows and
columns off the grid itself, the regions from the geometry's N x N region numbers and the
diagonals from the shape, not from the unit lists the encoder writes its clauses from.
"""

from __future__ import annotations

from sudoku_batch.pipeline.grid import Grid, Puzzle


def solution_problems(puzzle: Puzzle, solution: Grid) -> list[str]:
    """Everything wrong with ``solution`` for ``puzzle`` (empty when it is a valid solution)."""
    n = puzzle.size
    regions = puzzle.shape.geometry.regions
    region = "region" if puzzle.shape.regions is not None else "box"
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
            keys = [("row", r + 1), ("column", c + 1), (region, regions[r][c] + 1)]
            if puzzle.shape.diagonals and r == c:
                keys.append(("diagonal", "main"))
            if puzzle.shape.diagonals and r + c == n - 1:
                keys.append(("diagonal", "anti"))
            for key in keys:
                groups.setdefault(key, []).append(solution[r][c])
    for (kind, where), values in groups.items():
        digits = [v for v in values if v is not None]
        if len(set(digits)) != len(digits):
            problems.append(f"{kind} {where} repeats a digit")
    return problems
