"""Locked candidates: a digit confined to the overlap of a box and a line.

Pointing (SE 2.6): in a box the digit's places all lie in one row or column, so the rest of that
line cannot hold it. Claiming (2.8): in a row or column they all lie in one box, so the rest of
the box cannot. The "direct" variants (1.7, 1.9) are the same patterns rated lower when their
eliminations immediately leave a hidden single.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.rating.candidates import Board, Geometry, board_places, memo, part_memo
from pipeline.rating.singles import hidden_single_after
from pipeline.rating.step import Step

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
    sources = range(2 * n, 3 * n) if from_boxes else range(2 * n)
    out = []
    for u in sources:
        unit = geo.units[u]
        here = places & geo.unit_masks[u]
        if not here:
            continue
        cells = [c for c in unit if here >> c & 1]
        # The units every place shares, other than the source unit itself.
        shared = set(geo.cell_units[cells[0]])
        for c in cells[1:]:
            shared &= set(geo.cell_units[c])
        shared.discard(u)
        for target in shared:
            gone = [(c, digit) for c in geo.units[target] if places >> c & 1 and c not in unit]
            if gone:
                out.append((u, gone))
    return out


def pointing_findings(board: Board) -> list[Finding]:
    return memo(("pointing",), board, lambda: _locked(board, from_boxes=True))


def claiming_findings(board: Board) -> list[Finding]:
    return memo(("claiming",), board, lambda: _locked(board, from_boxes=False))


def direct_step(name: str, difficulty: float, findings: Iterator[Finding], board: Board):
    """The first finding whose eliminations leave a hidden single, as a placement."""
    for gone in findings:
        single = hidden_single_after(board, gone)
        if single:
            return Step(name, difficulty, (single,))
    return None


def eliminations_step(name: str, difficulty: float, findings: Iterator[Finding]) -> Step | None:
    """All findings of one technique at once (they are all valid on the same board)."""
    gone = {pair for finding in findings for pair in finding}
    return Step(name, difficulty, eliminations=tuple(sorted(gone))) if gone else None


def direct_pointing(board: Board) -> Step | None:
    return direct_step("Direct pointing", DIRECT_POINTING, pointing_findings(board), board)


def direct_claiming(board: Board) -> Step | None:
    return direct_step("Direct claiming", DIRECT_CLAIMING, claiming_findings(board), board)


def pointing(board: Board) -> Step | None:
    return eliminations_step("Pointing", POINTING, pointing_findings(board))


def claiming(board: Board) -> Step | None:
    return eliminations_step("Claiming", CLAIMING, claiming_findings(board))
