"""Locked candidates: a digit confined to the overlap of a box and a line.

Pointing (SE 2.6): in a box the digit's places all lie in one row or column, so the rest of that
line cannot hold it. Claiming (2.8): in a row or column they all lie in one box, so the rest of
the box cannot. The "direct" variants (1.7, 1.9) are the same patterns rated lower when their
eliminations immediately leave a hidden single.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.rating.candidates import Board, memo
from pipeline.rating.singles import hidden_single_after
from pipeline.rating.step import Step

DIRECT_POINTING = 1.7
DIRECT_CLAIMING = 1.9
POINTING = 2.6
CLAIMING = 2.8

Finding = list[tuple[int, int]]  # the (cell, digit) eliminations of one pattern


def _locked(board: Board, from_boxes: bool) -> Iterator[Finding]:
    geo, cands = board.geo, board.cands
    n = geo.size
    sources = range(2 * n, 3 * n) if from_boxes else range(2 * n)
    for u in sources:
        unit = geo.units[u]
        present = 0
        for c in unit:
            present |= cands[c]
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not present & bit:
                continue
            places = [c for c in unit if cands[c] & bit]
            # The units every place shares, other than the source unit itself.
            shared = set(geo.cell_units[places[0]])
            for c in places[1:]:
                shared &= set(geo.cell_units[c])
            shared.discard(u)
            for target in shared:
                gone = [(c, digit) for c in geo.units[target] if cands[c] & bit and c not in unit]
                if gone:
                    yield gone


def pointing_findings(board: Board) -> list[Finding]:
    return memo(("pointing",), board, lambda: list(_locked(board, from_boxes=True)))


def claiming_findings(board: Board) -> list[Finding]:
    return memo(("claiming",), board, lambda: list(_locked(board, from_boxes=False)))


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
