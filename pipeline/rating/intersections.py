"""Locked candidates: a digit confined to the overlap of a box and a line.

Pointing (SE 2.6): in a box the digit's places all lie in one row or column, so the rest of that
line cannot hold it. Claiming (2.8): in a row or column they all lie in one box, so the rest of
the box cannot. The "direct" variants (1.7, 1.9) are the same patterns rated lower when their
eliminations immediately leave a hidden single.
"""

from __future__ import annotations

from collections.abc import Iterable

from sudoku_batch.pipeline.rating.candidates import Board, Geometry, board_places, memo, part_memo
from sudoku_batch.pipeline.rating.step import Step

DIRECT_POINTING = 1.7
DIRECT_CLAIMING = 1.9
POINTING = 2.6
CLAIMING = 2.8

Finding = list[tuple[int, int]]  # the (cell, digit) eliminations of one pattern


def _locked(board: Board, from_boxes: bool) -> list[Finding]:
    """Every locked-candidate finding, in the order of a scan by source unit, then digit."""
    geo = board.geo
    by_source = [
        (u, digit, gone)
        for digit, places in enumerate(board_places(board), start=1)
        for u, gone in part_memo(_digit_locked, geo, from_boxes, digit, places)
    ]
    by_source.sort(key=lambda found: found[:2])  # stable: a unit's targets keep their order
    return [gone for _, _, gone in by_source]


def _digit_locked(
    geo: Geometry, from_boxes: bool, digit: int, places: int
) -> list[tuple[int, Finding]]:
    """(source unit, eliminations) of one digit's locked candidates, from its places alone."""
    n = geo.size
    # Pointing from the regions and the extra units (diagonals), claiming from the lines.
    sources = range(2 * n, len(geo.units)) if from_boxes else range(2 * n)
    out = []
    unit_masks = geo.unit_masks
    for u in sources:
        here = places & unit_masks[u]
        if not here:
            continue
        # The units every place shares, other than the source unit itself: two places or more
        # share at most one; a single place shares its other two (in a set's order, as ever).
        first = geo.cell_units[(here & -here).bit_length() - 1]
        shared: list[int] | set[int]
        if here & (here - 1):
            shared = [t for t in first if t != u and not here & ~unit_masks[t]]
        else:
            shared = set(first)
            shared.discard(u)
        for target in shared:
            gone = places & unit_masks[target] & ~unit_masks[u]
            if gone:
                out.append((u, [(c, digit) for c in geo.units[target] if gone >> c & 1]))
    return out


def pointing_findings(board: Board) -> list[Finding]:
    return memo(("pointing",), board, lambda: _locked(board, from_boxes=True))


def claiming_findings(board: Board) -> list[Finding]:
    return memo(("claiming",), board, lambda: _locked(board, from_boxes=False))


def _direct(board: Board, from_boxes: bool, name: str, difficulty: float) -> Step | None:
    """The first finding, in the order of ``_locked``, whose eliminations leave a hidden single,
    as a placement. Both depend on one digit's places only, so each digit's answer is kept."""
    geo = board.geo
    first = None
    for digit, places in enumerate(board_places(board), start=1):
        found = part_memo(_digit_direct, geo, from_boxes, digit, places)
        if found and (first is None or found[0] < first[0]):  # ties: the lower digit, met first
            first = found
    return Step(name, difficulty, (first[1],)) if first else None


def _digit_direct(
    geo: Geometry, from_boxes: bool, digit: int, places: int
) -> tuple[int, tuple[int, int]] | None:
    """(source unit, hidden single) of this digit's first locked candidates that leave one."""
    for u, gone in part_memo(_digit_locked, geo, from_boxes, digit, places):
        single = _single_after(geo, digit, places, gone)
        if single:
            return u, single
    return None


def _single_after(geo: Geometry, digit: int, places: int, gone: Finding) -> tuple[int, int] | None:
    """The first hidden single of ``digit`` that striking ``gone`` leaves in a unit of a struck
    cell (SE's "direct" rating). A unit where the digit is placed has no places left, so only
    the places need looking at."""
    left = places
    for cell, _ in gone:
        left &= ~(1 << cell)
    for cell, _ in gone:
        for u in geo.cell_units[cell]:
            here = left & geo.unit_masks[u]
            if here and not here & (here - 1):
                return here.bit_length() - 1, digit
    return None


def eliminations_step(name: str, difficulty: float, findings: Iterable[Finding]) -> Step | None:
    """All findings of one technique at once (they are all valid on the same board)."""
    gone = {pair for finding in findings for pair in finding}
    return Step(name, difficulty, eliminations=tuple(sorted(gone))) if gone else None


def direct_pointing(board: Board) -> Step | None:
    return _direct(board, True, "Direct pointing", DIRECT_POINTING)


def direct_claiming(board: Board) -> Step | None:
    return _direct(board, False, "Direct claiming", DIRECT_CLAIMING)


def pointing(board: Board) -> Step | None:
    return eliminations_step("Pointing", POINTING, pointing_findings(board))


def claiming(board: Board) -> Step | None:
    return eliminations_step("Claiming", CLAIMING, claiming_findings(board))
