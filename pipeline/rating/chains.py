"""Chain techniques, SE 6.5 and up, in Sudoku Explainer's tiers.

Each tier finds every deduction of its kind on the current board and keeps the easiest (SE rates
a step by the easiest hint of the first technique that has one):

* ``forcing_chains`` (6.6-7.x): one assumption followed statically until it contradicts itself:
  X-chains (digit links only) 6.6, Y-chains (cell links only) 6.6, mixed chains 7.0, each plus
  SE's length bonus. An elimination seen by both ends of an alternating chain is exactly such a
  contradiction, assumed from the eliminated candidate.
* ``nishio`` (7.5+): one digit's assumption played out dynamically until that digit has no place
  in some unit.
* ``multiple_forcing_chains`` (region 8.2+, cell 8.3+): every digit of a cell, or every place of a
  digit in a unit, followed statically; what all branches agree on is true.
* ``dynamic_forcing_chains`` (8.5+): assumptions (on and off) played out dynamically; a
  contradiction refutes the assumption, and what both branches of a candidate, all digits of a
  cell or all places of a digit in a unit agree on is true.

The length bonus is SE's: the number of literals a deduction rests on, less two, earns 0.1 for
each of the thresholds 4, 6, 8, 12, 16, 24, 32, 48, ... it exceeds.
"""

from __future__ import annotations

from sudoku_batch.pipeline.rating.candidates import Board, Geometry, board_places, memo, part_memo
from sudoku_batch.pipeline.rating.implication import (
    X_LINK,
    Y_LINK,
    Consequences,
    StaticLinks,
    ancestors,
    follow_dynamic,
    off_base,
)
from sudoku_batch.pipeline.rating.step import Step

X_CHAIN = 6.6
Y_CHAIN = 6.6
XY_CHAIN = 7.0
NISHIO = 7.5
REGION_FORCING = 8.2
CELL_FORCING = 8.3
DYNAMIC_FORCING = 8.5

Hint = tuple[float, int, bool]  # (difficulty, literal, is it true) - a literal's truth found


def length_bonus(complexity: int) -> float:
    result, ceiling, odd = 0.0, 4, False
    length = complexity - 2
    while length > ceiling:
        result += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return result


def _step(name: str, hints: list[Hint], board: Board) -> Step | None:
    """The easiest hints of a tier as one step (all of them, when several tie)."""
    if not hints:
        return None
    easiest = min(h[0] for h in hints)
    n, off = board.geo.size, off_base(board)
    placements, eliminations = set(), set()
    for difficulty, lit, true in hints:
        if difficulty > easiest + 1e-9:
            continue
        base = lit - off if lit >= off else lit
        cell, digit = divmod(base, n)
        # A literal found true: an on literal places, an off literal eliminates; found false,
        # the reverse.
        if (lit < off) == true:
            placements.add((cell, digit + 1))
        else:
            eliminations.add((cell, digit + 1))
    return Step(name, round(easiest, 1), tuple(sorted(placements)), tuple(sorted(eliminations)))


def _candidates(board: Board) -> list[int]:
    n = board.geo.size
    return [c * n + i for c, m in enumerate(board.cands) for i in range(n) if m >> i & 1]


def _static_links(board: Board) -> StaticLinks:
    """The links of this board state, shared by the static tiers (forcing chains, then
    multiple forcing chains on the same state when Nishio finds nothing in between)."""

    def linked() -> StaticLinks:
        links = StaticLinks(board)
        links.reach()  # here, so that the memo charges its work on every use
        return links

    links = memo(("static links",), board, linked)
    links.budget = board.budget  # the memo may hold it from an earlier rating's board
    return links


def forcing_chains(board: Board) -> Step | None:
    links = _static_links(board)
    off = links.off
    reach = links.reach()
    ons = (1 << off) - 1
    hints: list[Hint] = []
    for on in _candidates(board):
        for start in (on, on + off):
            implied = reach.get(start, 0)
            if not implied & (implied >> off) & ons:
                continue  # leads to no contradiction: nothing to trace
            used, size = links.contradiction_of(start)
            base = XY_CHAIN if used == X_LINK | Y_LINK else X_CHAIN if used == X_LINK else Y_CHAIN
            hints.append((base + length_bonus(size), start, False))
    return _step("Forcing chain", hints, board)


def nishio(board: Board) -> Step | None:
    hints: list[Hint] = []
    n = board.geo.size
    where = board_places(board)
    for on in _candidates(board):
        if not part_memo(_contradicting_cells, board.geo, where[on % n]) >> (on // n) & 1:
            continue  # nothing to trace
        found = follow_dynamic(board, on, digit_only=1 << (on % n))
        if found.contradiction is not None:
            size = len(ancestors(found.parents, found.contradiction))
            hints.append((NISHIO + length_bonus(size), on, False))
    return _step("Nishio forcing chain", hints, board)


def _contradicting_cells(geo: Geometry, places: int) -> int:
    """The cells among a digit's ``places`` where ``_digit_contradicts`` holds, as a mask: a
    function of the digit's places only, so kept per shape (``part_memo``) across states."""
    found = 0
    bits = places
    while bits:
        low = bits & -bits
        bits ^= low
        if _digit_contradicts(geo, places, low.bit_length() - 1):
            found |= low
    return found


def _digit_contradicts(geo: Geometry, places: int, cell: int) -> bool:
    """Whether placing a digit in ``cell`` and following only that digit (a unit left with one
    place takes it there) empties a unit of it or puts it twice in one: what Nishio looks for,
    decided on cell bitmasks before the traced version is run for the size of the chain. It
    deduces at least what the traced version does, so it never hides a contradiction."""
    peer_masks = geo.peer_masks
    live = [mask for mask in geo.unit_masks if places & mask]
    placed = 1 << cell
    places &= ~peer_masks[cell]
    changed = True
    while changed:
        changed = False
        for mask in live:
            left = places & mask
            if not left:
                return True
            if left & (left - 1) == 0 and not left & placed:
                placed |= left
                places &= ~peer_masks[left.bit_length() - 1]
                changed = True
        if placed & ~places:
            return True
    return False


def _groups(board: Board) -> list[tuple[float, list[int]]]:
    """Cells with several digits and digits with several places in a unit, as the on literals
    of their branches, with the tier base of each kind."""
    geo, cands = board.geo, board.cands
    n = geo.size
    groups = []
    for c, m in enumerate(cands):
        if m.bit_count() >= 2:
            groups.append((CELL_FORCING, [c * n + i for i in range(n) if m >> i & 1]))
    for unit in geo.units:
        for i in range(n):
            places = [c for c in unit if cands[c] >> i & 1]
            if len(places) >= 2:
                groups.append((REGION_FORCING, [c * n + i for c in places]))
    return groups


def _common_hints(
    base: float, branches: list[Consequences], starts: list[int], board: Board
) -> list[Hint]:
    """What every branch implies, each weighed by the literals all branches needed for it."""
    common = set(branches[0].parents)
    for branch in branches[1:]:
        common &= branch.parents.keys()
    common.difference_update(starts)
    hints = []
    off, n = off_base(board), board.geo.size
    for lit in common:
        cell = (lit - off if lit >= off else lit) // n
        if board.values[cell]:
            continue
        size = sum(len(ancestors(b.parents, (lit,))) for b in branches)
        board.budget.spend(size)
        hints.append((base + length_bonus(size), lit, True))
    return hints


def multiple_forcing_chains(board: Board) -> Step | None:
    links = _static_links(board)
    reach = links.reach()
    follow = {}
    hints: list[Hint] = []
    for base, starts in _groups(board):
        common = -1
        for s in starts:
            common &= reach[s]
        if not common:
            continue  # the branches agree on nothing: nothing to trace
        branches = []
        for s in starts:
            if s not in follow:
                follow[s] = links.follow(s, stop_at_contradiction=False)
            branches.append(follow[s])
        hints += _common_hints(base, branches, starts, board)
    return _step("Multiple forcing chains", hints, board)


def dynamic_forcing_chains(board: Board) -> Step | None:
    off = off_base(board)
    hints: list[Hint] = []
    played: dict[int, Consequences] = {}
    for on in _candidates(board):
        for start in (on, on + off):
            played[start] = found = follow_dynamic(board, start)
            if found.contradiction is not None:
                size = len(ancestors(found.parents, found.contradiction))
                hints.append((DYNAMIC_FORCING + length_bonus(size), start, False))
    if hints:  # contradictions are the simplest dynamic deductions: take them first
        return _step("Dynamic forcing chain", hints, board)
    for on in _candidates(board):
        hints += _common_hints(
            DYNAMIC_FORCING, [played[on], played[on + off]], [on, on + off], board
        )
    for _, starts in _groups(board):
        hints += _common_hints(DYNAMIC_FORCING, [played[s] for s in starts], starts, board)
    return _step("Dynamic forcing chain", hints, board)
