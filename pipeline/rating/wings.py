"""XY-wing and XYZ-wing (SE 4.2, 4.4).

XY-wing: a pivot {x,y} sees pincers {x,z} and {y,z}; whichever the pivot takes, one pincer is
z, so z leaves every cell seeing both pincers. XYZ-wing: the pivot is {x,y,z} itself, so the
cells losing z must see the pivot too.
"""

from __future__ import annotations

from sudoku_batch.pipeline.rating.candidates import Board, board_places, digits_of
from sudoku_batch.pipeline.rating.step import Step

XY_WING = 4.2
XYZ_WING = 4.4


def _wings(board: Board, pivot_size: int) -> list[tuple[int, int]]:
    geo, cands = board.geo, board.cands
    gone: set[tuple[int, int]] = set()
    for pivot, pm in enumerate(cands):
        if pm.bit_count() != pivot_size:
            continue
        pincers = [p for p in geo.peers[pivot] if cands[p].bit_count() == 2 and cands[p] & pm]
        board.budget.spend(len(geo.peers[pivot]) + len(pincers) * len(pincers))
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


WXYZ_WING = 5.5


def wxyz_wing(board: Board) -> Step | None:
    """WXYZ-wing as Sukaku Explainer rates it (5.5, 5.6 when the largest cell of the pattern
    has three candidates): a pivot and three cells it sees, four cells holding four digits in
    all, where every digit but one (z) is restricted (its cells in the pattern all see each
    other, so it fills at most one of them). Were z nowhere in the pattern, four cells would
    take three digits: so z is in one of its pattern cells, and leaves every cell seeing all of
    those. The three-cell versions are the XY- and XYZ-wing."""
    geo, cands = board.geo, board.cands
    peer_masks = geo.peer_masks
    where = board_places(board)
    best: dict[float, set[tuple[int, int]]] = {}
    budget = board.budget
    for pivot, pm in enumerate(cands):
        if not 2 <= pm.bit_count() <= 4:
            continue
        budget.spend(len(geo.peers[pivot]))
        wings = [
            p
            for p in geo.peers[pivot]
            if cands[p] and cands[p].bit_count() <= 4 and (cands[p] | pm).bit_count() <= 4
        ]
        # The pivot sees every wing, so a digit is unrestricted exactly when two wings that do
        # not see each other both hold it: z is the union of those shared digits, if single.
        for i, a in enumerate(wings):
            budget.spend(len(wings) - i)
            ua = pm | cands[a]
            for j in range(i + 1, len(wings)):
                b = wings[j]
                ub = ua | cands[b]
                if ub.bit_count() > 4:
                    continue
                budget.spend(len(wings) - j)
                zab = 0 if peer_masks[a] >> b & 1 else cands[a] & cands[b]
                for c in wings[j + 1 :]:
                    union = ub | cands[c]
                    if union.bit_count() != 4:
                        continue
                    z = zab
                    if not peer_masks[a] >> c & 1:
                        z |= cands[a] & cands[c]
                    if not peer_masks[b] >> c & 1:
                        z |= cands[b] & cands[c]
                    if not z or z & (z - 1):
                        continue
                    seen = -1
                    for x in (pivot, a, b, c):
                        if cands[x] & z:
                            seen &= peer_masks[x]
                    cells = 1 << pivot | 1 << a | 1 << b | 1 << c
                    d = z.bit_length()
                    gone = seen & where[d - 1] & ~cells
                    if gone:
                        biggest = max(cands[x].bit_count() for x in (pivot, a, b, c))
                        difficulty = round(WXYZ_WING + (0.1 if biggest == 3 else 0.0), 1)
                        best.setdefault(difficulty, set()).update(
                            (x, d) for x in range(len(cands)) if gone >> x & 1
                        )
    if not best:
        return None
    difficulty = min(best)
    return Step("WXYZ-wing", difficulty, eliminations=tuple(sorted(best[difficulty])))
