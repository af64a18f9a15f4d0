"""Uniqueness techniques (SE 4.5-6.0): sound here because the rater only rates puzzles with
exactly one solution (a search counts them before anything is said where techniques stop, and
the final grid is checked).

Unique rectangle / loop: cells on a closed path alternating row and column (two per row, column
and box touched), all holding the two digits {x, y}. If every cell were {x, y} the two digits
could be swapped round the loop: two solutions. So the extra candidates cannot all be false.
SE rates a loop of 4 (rectangle) 4.5, 6 cells 4.6, 8 cells 4.7, 10 and more 5.0, plus 0.1 for
types 2 and 4:

* type 1: one cell has extra digits: x and y leave it;
* type 2: the extra digit z is the same single digit in every cell that has extras: z leaves
  every cell that sees all of them;
* type 3: the two cells with extras share a unit, and their extras with j other cells of it make
  a naked subset of j + 1 digits: those leave the unit's other cells (+ 0.1 per cell j);
* type 4: the cells with extras are two in one unit where x has no other place: y leaves them.

Bivalue universal grave (BUG, 5.6-5.7): if every open cell had two candidates and every digit
two places in each unit it holds, the grid would have two solutions. Type 1: one cell has a third
candidate, the one seen three times in each of its units: it must be placed (5.6). Type 2: the
cells with more hold the same extra digit each: it leaves every cell that sees all of them (5.7).
"""

from __future__ import annotations

from itertools import combinations

from sudoku_batch.pipeline.rating.candidates import Board, Geometry, part_memo
from sudoku_batch.pipeline.rating.step import Step

UNIQUE_LOOP = 4.5
BUG_1 = 5.6
BUG_2 = 5.7


def _loop_base(length: int) -> float:
    result = UNIQUE_LOOP
    if length >= 10:
        result += 0.3
    if length >= 8:
        result += 0.2
    elif length >= 6:
        result += 0.1
    return result


def _loops(board: Board, max_length: int) -> list[tuple[int, list[int]]]:
    """(pair mask, cells) for each closed path alternating row and column moves over cells
    that all hold both digits of the pair, touching each row, column and box it visits in
    exactly two cells; found in a fixed order, each path once."""
    cands, places = board.cands, board.places
    found: list[tuple[int, list[int]]] = []
    for pair in sorted({m for m in cands if m.bit_count() == 2}):
        low = pair & -pair
        holders = places[low.bit_length() - 1] & places[(pair ^ low).bit_length() - 1]
        if holders.bit_count() < 4:
            continue
        # The paths of a pair depend only on its holders' candidates, which most steps leave.
        holder_cands = tuple((c, cands[c]) for c in range(len(cands)) if holders >> c & 1)
        found += part_memo(_pair_loops, board.geo, pair, max_length, holder_cands)
    return found


def _pair_loops(
    geo: Geometry, pair: int, max_length: int, holder_cands: tuple[tuple[int, int], ...]
) -> list[tuple[int, list[int]]]:
    holders = dict(holder_cands)
    found: list[tuple[int, list[int]]] = []
    seen_keys: set[frozenset[int]] = set()
    for start, m in holder_cands:
        if m == pair:
            _extend(geo, holders, [start], True, max_length, seen_keys, found, (pair, 0, 0))
    return found


def _extend(geo, holders, path, by_row, max_length, seen_keys, found, state) -> None:
    """Depth first along alternating row and column moves. ``holders`` maps each cell holding
    the pair to its candidates. ``state`` is (pair, number of cells with extra digits so far,
    union of their extras): a path with three or more such cells is only worth extending while
    they all share one single extra digit (type 2), as types 1 and 4 take one and two."""
    pair, extra_cells, extra_union = state
    n = geo.size
    last = path[-1]
    r, c = divmod(last, n)
    line = [r * n + j for j in range(n)] if by_row else [i * n + c for i in range(n)]
    for nxt in line:
        if nxt == last or nxt not in holders:
            continue
        if nxt == path[0]:
            if len(path) >= 4 and len(path) % 2 == 0:
                key = frozenset(path)
                if key not in seen_keys and _is_loop(geo, path):
                    seen_keys.add(key)
                    found.append((pair, path[:]))
            continue
        if nxt in path or len(path) >= max_length or not _fits(geo, path, nxt):
            continue
        extra = holders[nxt] & ~pair
        count, union = extra_cells + (extra != 0), extra_union | extra
        if count > 2 and union & (union - 1):
            continue
        path.append(nxt)
        state = (pair, count, union)
        _extend(geo, holders, path, not by_row, max_length, seen_keys, found, state)
        path.pop()


def _fits(geo, path: list[int], nxt: int) -> bool:
    """No unit would hold more than two cells of the path."""
    for u in geo.cell_units[nxt]:
        if sum(1 for c in path if u in geo.cell_units[c]) >= 2:
            return False
    return True


def _is_loop(geo, path: list[int]) -> bool:
    """Every unit the path touches holds exactly two of its cells, an odd number of steps
    apart along the path, so x and y alternate in it and could be swapped: a deadly pattern."""
    where: dict[int, list[int]] = {}
    for i, c in enumerate(path):
        for u in geo.cell_units[c]:
            where.setdefault(u, []).append(i)
    return all(len(ix) == 2 and (ix[1] - ix[0]) % 2 == 1 for ix in where.values())


def unique_loops(board: Board) -> Step | None:
    if board.geo.size != 9:
        return None
    geo, cands = board.geo, board.cands
    best: tuple[float, str, set[tuple[int, int]]] | None = None
    for pair, loop in _loops(board, 10):
        extra = [c for c in loop if cands[c] != pair]
        base = _loop_base(len(loop))
        kind = "Unique rectangle" if len(loop) == 4 else "Unique loop"
        gone: set[tuple[int, int]] = set()
        difficulty = base
        name = kind
        if len(extra) == 1:  # type 1
            c = extra[0]
            gone = {(c, d) for d in _digits(pair)}
            name = f"{kind} type 1"
        elif extra:
            extras = 0
            for c in extra:
                extras |= cands[c] & ~pair
            if extras.bit_count() == 1:  # type 2
                seen = set.intersection(*(set(geo.peer_sets[c]) for c in extra))
                d = extras.bit_length()
                gone = {(c, d) for c in seen if cands[c] & extras and c not in loop}
                difficulty, name = base + 0.1, f"{kind} type 2"
            if not gone and len(extra) == 2:  # type 4
                a, b = extra
                low = pair & -pair
                for u in set(geo.cell_units[a]) & set(geo.cell_units[b]):
                    for keep, drop in ((low, pair ^ low), (pair ^ low, low)):
                        if not any(cands[c] & keep for c in geo.units[u] if c not in (a, b)):
                            gone |= {(a, drop.bit_length()), (b, drop.bit_length())}
                if gone:
                    difficulty, name = base + 0.1, f"{kind} type 4"
        options = [(difficulty, name, gone)] if gone else []
        if len(extra) == 2:
            options += _type3(board, loop, pair, extra, base, kind)
        for option in options:
            if best is None or option[0] < best[0] - 1e-9:
                best = option
    if best is None:
        return None
    difficulty, name, gone = best
    return Step(name, round(difficulty, 1), eliminations=tuple(sorted(gone)))


def _type3(board: Board, loop, pair: int, extra, base: float, kind: str) -> list:
    """Type 3: the two cells with extras share a unit; one of their extra digits is true, so
    they act as one cell holding those extras, which with j other cells of the unit can make a
    naked subset of j + 1 digits: those leave the rest of the unit (SE: + 0.1 per cell j)."""
    geo, cands = board.geo, board.cands
    a, b = extra
    extras = (cands[a] | cands[b]) & ~pair
    out = []
    for u in sorted(set(geo.cell_units[a]) & set(geo.cell_units[b])):
        others = [c for c in geo.units[u] if cands[c] and c not in loop]
        small = [c for c in others if (cands[c] | extras).bit_count() <= 4]
        for j in (1, 2, 3):
            for group in combinations(small, j):
                union = extras
                for c in group:
                    union |= cands[c]
                if union.bit_count() != j + 1:
                    continue
                gone = {(c, d) for c in others if c not in group for d in _digits(cands[c] & union)}
                if gone:
                    out.append((base + 0.1 * j, f"{kind} type 3", gone))
    return out


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


def bug(board: Board) -> Step | None:
    geo, cands = board.geo, board.cands
    if geo.size != 9:
        return None
    more = [c for c, m in enumerate(cands) if m.bit_count() > 2]
    if not more or len(more) > 6 or any(m.bit_count() == 1 for m in cands):
        return None
    # The extra digits of each cell: those seen three or more times in each of its units.
    extras: dict[int, int] = {}
    for c in more:
        extra = 0
        for d in _digits(cands[c]):
            bit = 1 << (d - 1)
            if all(sum(1 for x in geo.units[u] if cands[x] & bit) > 2 for u in geo.cell_units[c]):
                extra |= bit
        if (cands[c] & ~extra).bit_count() != 2:
            return None
        extras[c] = extra
    # Without the extras, every digit must have 0 or 2 places in every unit.
    for unit in geo.units:
        for d in range(9):
            bit = 1 << d
            k = sum(1 for x in unit if cands[x] & bit and not extras.get(x, 0) & bit)
            if k not in (0, 2):
                return None
    if len(more) == 1:
        c = more[0]
        if extras[c].bit_count() == 1:
            return Step("BUG type 1", BUG_1, placements=((c, extras[c].bit_length()),))
        return None
    common = 0
    for c in more:
        if extras[c].bit_count() != 1:
            return None
        common |= extras[c]
    if common.bit_count() != 1:
        return None
    seen = set(geo.peer_sets[more[0]])
    for c in more[1:]:
        seen &= geo.peer_sets[c]
    d = common.bit_length()
    gone = tuple(sorted((c, d) for c in seen if cands[c] & common))
    return Step("BUG type 2", BUG_2, eliminations=gone) if gone else None
