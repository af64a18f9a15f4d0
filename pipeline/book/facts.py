"""What the book check needs to know of each grid, worked out in the solve step (both drivers
run it, so embedded and server rows agree): is it a puzzle or a printed answer, how hard is it,
and its canonical form, under which disguised copies meet.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sudoku_batch.pipeline.book.bounded_rating import BACKSTOP, DEFAULT_RATING_SECONDS, rate_within
from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.rating import Rating
from sudoku_batch.pipeline.rating.levels import UNRATED
from sudoku_batch.pipeline.solve.canonical import CanonicalForm, FormTooCostly, canonical_form
from sudoku_batch.pipeline.solve.result import SolveResult, Verdict


class Role(StrEnum):
    PUZZLE = "puzzle"
    ANSWER = "answer"  # every cell printed: a solution on an answer page
    OTHER = "other"  # no Sudoku: a hints grid, a table, a fragment (pipeline.recognise.grid_kind)


@dataclass(frozen=True)
class PuzzleFacts:
    role: Role
    rating: float | None  # SE scale; None: see rating_reason
    techniques: tuple[str, ...]  # hardest last
    level: str  # pipeline.rating.levels, "unrated" when rating is None
    rating_reason: str | None  # why unrated, or a caveat on the score (e.g. not 9x9)
    canonical: str | None  # None for answers and for grids with blocked cells
    canonical_complete: bool | None  # False: a weaker form (16x16 and up), copies may be missed
    canonical_reason: str | None = None  # why a puzzle has no form (it was past its bound)


# After the rater, one grid's canonical form (bounded in cells compared,
# pipeline.solve.canonical.MAX_FORM_CELLS), its render and its rows.
AFTER_RATING_SECONDS = 1.0


def facts_allowance(rating_seconds: float) -> float:
    """The most one grid takes after its solve, in seconds: the rater's wall-clock backstop and
    ``AFTER_RATING_SECONDS``. A grid holds its process for at most its solve timeout (doubted
    readings included) plus this."""
    return BACKSTOP * rating_seconds + AFTER_RATING_SECONDS


# Of a grid's cells: a grid captioned as a solution is taken for one with this share printed.
# A published puzzle leaves far more empty (a 9x9 one rarely gives over 40 of 81), while an
# answer whose reading lost a digit or two keeps nearly all; a caption wrongly read as
# "Solution" ("Solution on page 40" under a puzzle) thus cannot make a puzzle an answer.
MOSTLY_PRINTED = 0.75


def role_of(puzzle: Puzzle, printed_role: str | None = None) -> Role:
    """A grid with every cell printed is an answer whatever its caption says (there is nothing
    left to solve); one captioned as a solution ("Solution 7", under a "Solutions" heading) is
    an answer too when it is mostly printed, the reading having missed a digit or two. A
    caption saying "Puzzle" adds nothing: it cannot unmake a full grid's answer."""
    cells = [v for row in puzzle.givens for v in row if v is not None]
    printed = sum(1 for v in cells if v)
    if cells and printed == len(cells):
        return Role.ANSWER
    if printed_role == Role.ANSWER and cells and printed >= MOSTLY_PRINTED * len(cells):
        return Role.ANSWER
    return Role.PUZZLE


def other_grid_facts() -> PuzzleFacts:
    """Another grid's: neither rated nor a copy of anything."""
    return _unrated(Role.OTHER)


def _unrated(role: Role) -> PuzzleFacts:
    """The facts of a grid that is not rated and has no form to find copies by."""
    return PuzzleFacts(role, None, (), UNRATED, None, None, None)


def puzzle_facts(
    printed: Puzzle,
    solved: Puzzle,
    result: SolveResult,
    rating_seconds: float = DEFAULT_RATING_SECONDS,
    printed_role: str | None = None,
) -> PuzzleFacts:
    """``printed``: the grid as read; ``solved``: the one solved (readings that clashed set
    aside). The role is the printed grid's: a printed answer with one wrong digit clashes, and
    setting that digit aside must not make it a puzzle. ``printed_role``: what the caption or
    page heading near the grid calls it (``Caption.role``), None when none was read."""
    role = role_of(printed, printed_role)
    puzzle = solved
    if role is Role.ANSWER:
        # An answer is not a puzzle to rate or to find copies of: its puzzle is.
        return _unrated(role)
    rating = _rating(puzzle, result, rating_seconds)
    blocked = any(v is None for row in puzzle.givens for v in row)
    # A blocked cell would count as an empty one in the form: no form rather than a false match.
    form, why = (None, None) if blocked else _form(puzzle)
    return PuzzleFacts(
        role,
        rating.score,
        rating.techniques,
        rating.level,
        rating.reason,
        form.text if form else None,
        form.complete if form else None,
        why,
    )


def _form(puzzle: Puzzle) -> tuple[CanonicalForm | None, str | None]:
    try:
        return canonical_form(puzzle), None
    except FormTooCostly as error:
        return None, f"{error}; copies of it are not looked for"


def _rating(puzzle: Puzzle, result: SolveResult, seconds: float) -> Rating:
    if result.verdict is not Verdict.SOLVED or result.solution is None:
        # A rating says how hard the unique solution is to reach; without one there is none.
        return Rating(None, (), UNRATED, "not rated: the puzzle has no unique solution")
    return rate_within(puzzle, result.solution, seconds)
