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

from sudoku_batch.pipeline.rating.budget import Budget
from sudoku_batch.pipeline.rating.candidates import (
    Board,
    Geometry,
    board_places,
    costly_part_memo,
    part_memo,
)
from sudoku_batch.pipeline.rating.step import Step

SKYSCRAPER = 4.0
TWO_STRING_KITE = 4.1
TURBOT_FISH = 4.2
EMPTY_RECTANGLE = 4.2


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def strong_links(geo: Geometry, places: int) -> list[tuple[int, int, int]]:
    """(a, b, unit) for each unit where a digit (its ``places``, a cell bitmask) has exactly two
    places, both orientations."""
    out = []
    for u, mask in enumerate(geo.unit_masks):
        here = places & mask
        if here and here.bit_count() == 2:
            a, b = _bits(here)
            out.append((a, b, u))
            out.append((b, a, u))
    return out


def _difficulty(geo: Geometry, u1: int, u2: int) -> tuple[float, str]:
    n = geo.size
    k1, k2 = u1 // n, u2 // n  # 0 row, 1 column, 2 box, 3 extra unit (a diagonal)
    if k1 >= 2 or k2 >= 2:
        return TURBOT_FISH, "Turbot fish"
    if k1 == k2:
        return SKYSCRAPER, "Skyscraper"
    return TWO_STRING_KITE, "Two-string kite"


def _two_link_findings(board: Board) -> dict[float, tuple[str, set[tuple[int, int]]]]:
    geo = board.geo
    found: dict[float, tuple[str, set[tuple[int, int]]]] = {}
    for i, places in enumerate(board_places(board)):
        by_digit = costly_part_memo(_digit_two_links, board.budget, geo, i, places)
        for difficulty, (name, gone) in by_digit.items():
            found.setdefault(difficulty, (name, set()))[1].update(gone)
    return found


def _digit_two_links(
    geo: Geometry, i: int, places: int, budget: Budget
) -> dict[float, tuple[str, set[tuple[int, int]]]]:
    """Skyscrapers, kites and turbot fish of one digit (index ``i``), from its places alone."""
    peer_masks = geo.peer_masks
    found: dict[float, tuple[str, set[tuple[int, int]]]] = {}
    links = strong_links(geo, places)
    budget.spend(len(geo.unit_masks) + len(links) * len(links))
    for a, b, u1 in links:
        near = peer_masks[b] & ~(1 << a)
        for c, e, u2 in links:
            if u1 == u2 or not near >> c & 1 or e == a or e == b:
                continue
            gone = peer_masks[a] & peer_masks[e] & places
            if not gone:
                continue
            difficulty, name = _difficulty(geo, u1, u2)
            found.setdefault(difficulty, (name, set()))[1].update((x, i + 1) for x in _bits(gone))
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
    geo = board.geo
    if geo.box != (3, 3):  # the pattern is of 3x3 boxes
        return None
    gone: set[tuple[int, int]] = set()
    for i, places in enumerate(board_places(board)):
        gone |= part_memo(_digit_er, geo, i, places)
    if not gone:
        return None
    return Step("Empty rectangle", EMPTY_RECTANGLE, eliminations=tuple(sorted(gone)))


def _digit_er(geo: Geometry, i: int, places: int) -> set[tuple[int, int]]:
    """The empty rectangles of one digit (index ``i``), from its places alone."""
    n = geo.size
    gone: set[tuple[int, int]] = set()
    for b in range(2 * n, 3 * n):
        inside = places & geo.unit_masks[b]
        cells = _bits(inside)
        if len(cells) < 2 or len({c // n for c in cells}) == 1:
            continue
        if len({c % n for c in cells}) == 1:
            continue
        box_rows = {c // n for c in geo.units[b]}
        box_cols = {c % n for c in geo.units[b]}
        for r in sorted(box_rows):
            for col in sorted(box_cols):
                if any(c // n != r and c % n != col for c in cells):
                    continue
                # A strong link in a column crossing the row arm, or in a row crossing the
                # column arm (the same, transposed).
                for across, arm, other_arm, lines in (
                    (True, r, col, box_cols),
                    (False, col, r, box_rows),
                ):
                    gone |= _er_hits(geo, places, i, across, arm, other_arm, lines)
    return gone


def _er_hits(geo, places, i, columns, arm, other_arm, box_lines) -> set[tuple[int, int]]:
    """For lines (columns when ``columns``, else rows) outside the box with a strong link one
    end of which lies on the ``arm`` (a row, resp. column): the far end's crossing with the
    ``other_arm`` loses the digit."""
    n = geo.size
    out = set()
    for line in range(n):
        if line in box_lines:
            continue
        here = places & geo.unit_masks[n + line if columns else line]
        if here.bit_count() != 2:
            continue
        near = arm * n + line if columns else line * n + arm
        if not here >> near & 1:
            continue
        far = (here ^ (1 << near)).bit_length() - 1
        far_line = far // n if columns else far % n
        target = far_line * n + other_arm if columns else other_arm * n + far_line
        if places >> target & 1 and far_line // 3 != arm // 3:  # far end outside the box
            out.add((target, i + 1))
    return out


THREE_SKYSCRAPERS = 5.4
THREE_TURBOT = 5.5
THREE_KITE = 5.6


def three_strong_links(board: Board) -> Step | None:
    """Sukaku Explainer's "3 strong-linked fishes": three strong links of one digit a=b, c=e,
    f=g with b seeing c and e seeing f force a or g, so the digit leaves every cell seeing both.
    Rated by the units of the links: all rows or all columns 5.4, rows and columns both 5.6,
    otherwise (boxes with lines of one kind) 5.5. (The variants through an empty rectangle, 5.7,
    are not searched.)"""
    geo = board.geo
    found: dict[float, set[tuple[int, int]]] = {}
    for i, places in enumerate(board_places(board)):
        by_digit = costly_part_memo(_digit_three_links, board.budget, geo, i, places)
        for difficulty, gone in by_digit.items():
            found.setdefault(difficulty, set()).update(gone)
    if not found:
        return None
    difficulty = min(found)
    name = {THREE_SKYSCRAPERS: "3 skyscrapers", THREE_TURBOT: "3-turbot fish"}.get(
        difficulty, "3-string kite"
    )
    return Step(name, difficulty, eliminations=tuple(sorted(found[difficulty])))


def _digit_three_links(
    geo: Geometry, i: int, places: int, budget: Budget
) -> dict[float, set[tuple[int, int]]]:
    """The three-strong-link patterns of one digit (index ``i``), from its places alone."""
    n = geo.size
    peer_masks = geo.peer_masks
    found: dict[float, set[tuple[int, int]]] = {}
    links = strong_links(geo, places)
    budget.spend(len(geo.unit_masks))
    by_start: dict[int, list[tuple[int, int, int]]] = {}
    for link in links:
        by_start.setdefault(link[0], []).append(link)
    for a, b, u1 in links:
        for c in _bits(peer_masks[b] & places & ~(1 << a)):
            for _, e, u2 in by_start.get(c, ()):
                if u2 == u1 or e in (a, b):
                    continue
                used = 1 << a | 1 << b | 1 << c | 1 << e
                fs = _bits(peer_masks[e] & places & ~used)
                budget.spend(1 + len(fs))
                for f in fs:
                    for _, g, u3 in by_start.get(f, ()):
                        if u3 in (u1, u2) or used >> g & 1:
                            continue
                        gone = peer_masks[a] & peer_masks[g] & places & ~used & ~(1 << f)
                        if gone:
                            difficulty = _three_difficulty(n, (u1, u2, u3))
                            found.setdefault(difficulty, set()).update(
                                (x, i + 1) for x in _bits(gone)
                            )
    return found


def _three_difficulty(n: int, units: tuple[int, int, int]) -> float:
    kinds = {min(u // n, 2) for u in units}  # 0 row, 1 column, 2 box or extra unit
    if kinds in ({0}, {1}):
        return THREE_SKYSCRAPERS
    if {0, 1} <= kinds:
        return THREE_KITE
    return THREE_TURBOT
