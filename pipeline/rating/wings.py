"""XY-wing and XYZ-wing (SE 4.2, 4.4).

XY-wing: a pivot {x,y} sees pincers {x,z} and {y,z}; whichever the pivot takes, one pincer is
z, so z leaves every cell seeing both pincers. XYZ-wing: the pivot is {x,y,z} itself, so the
cells losing z must see the pivot too.
"""

from __future__ import annotations

from pipeline.rating.candidates import Board, digits_of
from pipeline.rating.step import Step

XY_WING = 4.2
XYZ_WING = 4.4


def _wings(board: Board, pivot_size: int) -> list[tuple[int, int]]:
    geo, cands = board.geo, board.cands
    gone: set[tuple[int, int]] = set()
    for pivot, pm in enumerate(cands):
        if pm.bit_count() != pivot_size:
            continue
        pincers = [p for p in geo.peers[pivot] if cands[p].bit_count() == 2 and cands[p] & pm]
        for i, a in enumerate(pincers):
            for b in pincers[i + 1 :]:
                am, bm = cands[a], cands[b]
                if am == bm:
                    continue
                if pivot_size == 2:
                    z = am & bm & ~pm
                    ok = z and (am | bm) & pm == pm and (am ^ bm) == pm
                else:
                    z = am & bm
                    ok = z.bit_count() == 1 and (am | bm) == pm
                if not ok:
                    continue
                digit = digits_of(z)[0]
                seen = geo.peer_sets[a] & geo.peer_sets[b]
                if pivot_size == 3:
                    seen &= geo.peer_sets[pivot]
                gone.update((c, digit) for c in seen if cands[c] & z)
    return sorted(gone)


def xy_wing(board: Board) -> Step | None:
    gone = _wings(board, 2)
    return Step("XY-wing", XY_WING, eliminations=tuple(gone)) if gone else None


def xyz_wing(board: Board) -> Step | None:
    gone = _wings(board, 3)
    return Step("XYZ-wing", XYZ_WING, eliminations=tuple(gone)) if gone else None
