"""Rating a puzzle in the manner of Sudoku Explainer: solve it with human techniques, always
taking the easiest that applies, and rate it by the hardest step the solution needed.

Deterministic: techniques are tried in a fixed order and each scans cells and units in a fixed
order. A rating is only given for a puzzle whose solution is unique: apart from the uniqueness
patterns (unique rectangles/loops, BUG), the techniques are sound deductions, so a grid they
fill completely is the only solution (it is still checked independently, and against the
caller's solution when one is given). The uniqueness patterns presume a single solution, so
when one was used a search counts the solutions of the givens first; where the techniques stop,
the same search counts them before anything is said.

9x9 classic is what the SE scale is defined on. The techniques are defined on units, so they
apply to a jigsaw's regions and the diagonals too (a region is rated as a box, a diagonal as one
more box); the rating says so in its reason, as SE never rated these variants. Other sizes get
the same techniques up to XYZ-wing, then a stated fallback: the effort of a plain backtracking
search, mapped onto the upper SE range.

The work is bounded by a ``Budget`` (``pipeline.rating.budget``) that the techniques, chains and
search spend from as they go; when it runs out ``BudgetExhausted`` leaves ``rate_puzzle``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_batch.pipeline.geometry import CLASSIC
from sudoku_batch.pipeline.grid import Grid, Puzzle
from sudoku_batch.pipeline.rating import (
    chains,
    fish,
    intersections,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from sudoku_batch.pipeline.rating.budget import Budget
from sudoku_batch.pipeline.rating.candidates import Board, Contradiction
from sudoku_batch.pipeline.rating.levels import level_of
from sudoku_batch.pipeline.rating.search import search
from sudoku_batch.pipeline.rating.step import Step, apply_step
from sudoku_batch.pipeline.solve.check import solution_problems

Technique = Callable[[Board], Step | None]

# In SE's order of difficulty; the first that finds something is applied, then back to the top.
BASIC_TECHNIQUES: tuple[Technique, ...] = (
    singles.full_house,
    singles.hidden_single_box,
    singles.hidden_single_line,
    intersections.direct_pointing,
    intersections.direct_claiming,
    subsets.direct_hidden_subset(2),
    singles.naked_single,
    subsets.direct_hidden_subset(3),
    intersections.pointing,
    intersections.claiming,
    subsets.naked_subset(2),
    fish.fish(2),
    subsets.hidden_subset(2),
    subsets.naked_subset(3),
    fish.fish(3),
    subsets.hidden_subset(3),
    single_digit.two_strong_links,
    single_digit.empty_rectangle,
    wings.xy_wing,
    wings.xyz_wing,
    uniqueness.unique_loops,
    subsets.naked_subset(4),
    fish.fish(4),
    subsets.hidden_subset(4),
    single_digit.three_strong_links,
    wings.wxyz_wing,
    uniqueness.bug,
)
CHAIN_TECHNIQUES: tuple[Technique, ...] = (
    chains.forcing_chains,
    chains.nishio,
    chains.multiple_forcing_chains,
    chains.dynamic_forcing_chains,
)
# Steps that presume a unique solution (sound only then; checked by a search when used).
UNIQUENESS_PREFIXES = ("Unique rectangle", "Unique loop", "BUG")
# Where the techniques stop, search effort stands in; these anchor it on the SE scale.
BEYOND_CHAINS = 9.6  # a 9x9 that dynamic forcing chains cannot finish
BEYOND_BASIC = 6.0  # another size that XYZ-wing and quads cannot finish


@dataclass(frozen=True)
class Rating:
    score: float | None  # SE scale; None when the puzzle cannot be rated (see reason)
    techniques: tuple[str, ...]  # each technique used once, hardest last
    level: str
    reason: str | None = None


def unrated(reason: str) -> Rating:
    return Rating(None, (), level_of(None), reason)


def rate_puzzle(
    puzzle: Puzzle, solution: Grid | None = None, budget: Budget | None = None
) -> Rating:
    """The rating of ``puzzle``; ``solution`` (e.g. the SAT solver's) is checked against the
    grid the techniques reach, and a difference refuses the rating. ``budget`` None: no limit;
    else ``BudgetExhausted`` is raised when it runs out."""
    if any(v is None for row in puzzle.givens for v in row):
        return unrated("puzzles with blocked cells are not rated")
    try:
        board = Board.from_puzzle(puzzle, budget)
    except Contradiction:
        return unrated("the givens clash")
    nine = puzzle.size == 9
    ladder = BASIC_TECHNIQUES + (CHAIN_TECHNIQUES if nine else ())
    used: dict[str, float] = {}
    start = board.copy()
    assumed_unique = False
    try:
        while not board.is_solved():
            step = _first_step(board, ladder)
            if step is None:
                break
            assumed_unique |= step.technique.startswith(UNIQUENESS_PREFIXES)
            if not apply_step(board, step):
                break
            used[step.technique] = max(used.get(step.technique, 0.0), step.difficulty)
    except Contradiction:
        if assumed_unique:
            return unrated(_count_reason(search(start).solutions))
        return unrated("the givens admit no solution (the deductions run into a contradiction)")
    if assumed_unique:
        # The uniqueness patterns presume one solution: count them before trusting the path.
        count = search(start).solutions
        if count != 1:
            return unrated(_count_reason(count))
    reason = None
    if not board.is_solved():
        found = search(board)
        if found.solutions != 1:
            return unrated(_count_reason(found.solutions))
        _fill(board, found.solution)
        score, reason = _beyond(nine, used, found.nodes)
        used["Backtracking"] = score
    grid = board.grid()
    if solution_problems(puzzle, grid):
        return unrated("the techniques reached a grid that is not a valid solution")
    if solution is not None and tuple(map(tuple, solution)) != grid:
        return unrated("the techniques reached a different solution than the one given")
    techniques = tuple(sorted(used, key=lambda t: (used[t], t)))
    score = round(max(used.values()), 1) if used else 1.0
    if not nine and reason is None:
        reason = (
            f"{puzzle.size}x{puzzle.size}: the SE scale is defined for 9x9; "
            "this is the same techniques' difficulty applied unchanged"
        )
    variant = puzzle.shape.variant
    if variant != CLASSIC:
        scale = (
            f"{variant} Sudoku: the SE scale is not established for this variant; the techniques "
            "are applied on its units (regions, diagonals) and rated as SE rates them on boxes"
        )
        reason = f"{scale}; {reason}" if reason else scale
    return Rating(score, techniques, level_of(score), reason)


def _first_step(board: Board, ladder: tuple[Technique, ...]) -> Step | None:
    """The step of the first technique that finds one; each try is charged a scan of the
    cells, the least any technique does (their loops charge the rest)."""
    for technique in ladder:
        board.budget.spend(board.geo.cells)
        step = technique(board)
        if step:
            return step
    return None


def _count_reason(solutions: int) -> str:
    if solutions == 0:
        return "the givens admit no solution"
    return "the givens admit more than one solution, so no logical path exists"


def _fill(board: Board, values: tuple[int, ...] | None) -> None:
    assert values is not None
    board.values = list(values)
    board.cands = [0] * len(values)
    board.places = [0] * board.geo.size


def _beyond(nine: bool, used: dict[str, float], nodes: int) -> tuple[float, str]:
    """The stated fallback score where the techniques stop, from the search's node count."""
    anchor = BEYOND_CHAINS if nine else BEYOND_BASIC
    score = round(min(12.0, max(anchor, *used.values(), anchor) + 0.5 * math.log2(nodes)), 1)
    what = "dynamic forcing chains" if nine else "the basic techniques (up to quads)"
    return score, (
        f"not an SE rating: {what} could not finish; the rest took a backtracking search of "
        f"{nodes} nodes, scored as {anchor} + 0.5 * log2(nodes)"
    )
