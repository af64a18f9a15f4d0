"""Single-digit patterns of two strong links (Sukaku Explainer's "Scraper, Kite, Turbot").

For one digit, a strong link is a unit with exactly two places for it (one of them holds it).
Two strong links a=b and c=e whose inner ends b and c see each other (a weak link) force a or e:
if a is false, b is true, so c is false and e is true. The digit then leaves every cell that sees
both a and e. Sukaku Explainer names and rates the pattern by the units of the two strong links:
both rows or both columns is a skyscraper (4.0), a row and a column a two-string kite (4.1),
anything with a box a turbot fish (4.2).

Empty rectangle (4.2): in a box whose places for the digit all lie on one row and one column of
the box (and not on one line alone, which is pointing), the box holds the digit on that row or
on that column. With a strong link in a line crossing one arm of the cross, the far end of the
link or the other arm holds the digit, so the digit leaves the cell where the far end's line
meets the other arm.
"""

from __future__ import annotations

from pipeline.rating.candidates import Board, Geometry
from pipeline.rating.step import Step

SKYSCRAPER = 4.0
TWO_STRING_KITE = 4.1
TURBOT_FISH = 4.2
EMPTY_RECTANGLE = 4.2


def strong_links(board: Board, bit: int) -> list[tuple[int, int, int]]:
    """(a, b, unit) for each unit where the digit ``bit`` has exactly two places, both
    orientations."""
    cands = board.cands
    out = []
    for u, unit in enumerate(board.geo.units):
        places = [c for c in unit if cands[c] & bit]
        if len(places) == 2:
            a, b = places
            out.append((a, b, u))
            out.append((b, a, u))
    return out


def _difficulty(geo: Geometry, u1: int, u2: int) -> tuple[float, str]:
    n = geo.size
    k1, k2 = u1 // n, u2 // n  # 0 row, 1 column, 2 box
    if k1 == 2 or k2 == 2:
        return TURBOT_FISH, "Turbot fish"
    if k1 == k2:
        return SKYSCRAPER, "Skyscraper"
    return TWO_STRING_KITE, "Two-string kite"


def _two_link_findings(board: Board) -> dict[float, tuple[str, set[tuple[int, int]]]]:
    geo, cands = board.geo, board.cands
    n = geo.size
    found: dict[float, tuple[str, set[tuple[int, int]]]] = {}
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        links = strong_links(board, bit)
        for a, b, u1 in links:
            for c, e, u2 in links:
                if u1 == u2 or c in (a, b) or e in (a, b) or c not in geo.peer_sets[b]:
                    continue
                seen = geo.peer_sets[a] & geo.peer_sets[e]
                gone = {(x, digit) for x in seen if cands[x] & bit}
                if not gone:
                    continue
                difficulty, name = _difficulty(geo, u1, u2)
                found.setdefault(difficulty, (name, set()))[1].update(gone)
    return found


def two_strong_links(board: Board) -> Step | None:
    """The easiest of skyscraper, two-string kite and turbot fish that applies (one search for
    the three, which stand next to each other in SE's order)."""
    found = _two_link_findings(board)
    if not found:
        return None
    difficulty = min(found)
    name, gone = found[difficulty]
    return Step(name, difficulty, eliminations=tuple(sorted(gone)))


def empty_rectangle(board: Board) -> Step | None:
    geo, cands = board.geo, board.cands
    n = geo.size
    if n != 9:
        return None
    gone: set[tuple[int, int]] = set()
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for b in range(2 * n, 3 * n):
            places = [c for c in geo.units[b] if cands[c] & bit]
            if len(places) < 2:
                continue
            rows = {c // n for c in places}
            cols = {c % n for c in places}
            if len(rows) == 1 or len(cols) == 1:
                continue
            box_rows = sorted({c // n for c in geo.units[b]})
            box_cols = sorted({c % n for c in geo.units[b]})
            for r in box_rows:
                for col in box_cols:
                    if not all(c // n == r or c % n == col for c in places):
                        continue
                    # A strong link in a column crossing the row arm at row r ...
                    for c2 in range(n):
                        if c2 in box_cols:
                            continue
                        column = [r2 * n + c2 for r2 in range(n) if cands[r2 * n + c2] & bit]
                        if len(column) == 2 and r * n + c2 in column:
                            far = column[0] if column[1] == r * n + c2 else column[1]
                            target = (far // n) * n + col
                            if far // n not in box_rows and cands[target] & bit:
                                gone.add((target, digit))
                    # ... or in a row crossing the column arm at column col.
                    for r2 in range(n):
                        if r2 in box_rows:
                            continue
                        row = [r2 * n + c2 for c2 in range(n) if cands[r2 * n + c2] & bit]
                        if len(row) == 2 and r2 * n + col in row:
                            far = row[0] if row[1] == r2 * n + col else row[1]
                            target = r * n + far % n
                            if far % n not in box_cols and cands[target] & bit:
                                gone.add((target, digit))
    if not gone:
        return None
    return Step("Empty rectangle", EMPTY_RECTANGLE, eliminations=tuple(sorted(gone)))
