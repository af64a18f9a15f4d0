"""Plain backtracking over the candidates: counts solutions (up to a limit) and the nodes it
took. Used where human techniques stop: to prove uniqueness before rating a puzzle that only
trial can finish, and as the stated fallback measure of effort for sizes other than 9x9."""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_batch.pipeline.rating.candidates import Board, Contradiction


@dataclass(frozen=True)
class SearchResult:
    solutions: int  # 0, 1, or the limit when there are at least that many
    nodes: int  # boards visited, a size-independent measure of effort
    solution: tuple[int, ...] | None  # the first solution found, cell values row-major


def search(board: Board, limit: int = 2) -> SearchResult:
    """Spends the board's budget: a node's scan of the cells, per node."""
    nodes = 0
    found: list[tuple[int, ...]] = []
    budget, cells = board.budget, board.geo.cells

    def walk(b: Board) -> None:
        nonlocal nodes
        nodes += 1
        if len(found) >= limit:
            return
        budget.spend(cells)
        # Naked singles first: cheap, and they keep the tree small.
        try:
            while True:
                singles = [
                    (c, m.bit_length()) for c, m in enumerate(b.cands) if m and m & (m - 1) == 0
                ]
                if not singles:
                    break
                for cell, digit in singles:
                    b.place(cell, digit)
        except Contradiction:
            return
        open_cells = [c for c, v in enumerate(b.values) if not v]
        if not open_cells:
            found.append(tuple(b.values))
            return
        cell = min(open_cells, key=lambda c: b.cands[c].bit_count())
        m = b.cands[cell]
        while m:
            bit = m & -m
            m ^= bit
            child = b.copy()
            try:
                child.place(cell, bit.bit_length())
            except Contradiction:
                continue
            walk(child)
            if len(found) >= limit:
                return

    walk(board.copy())
    return SearchResult(len(found), nodes, found[0] if found else None)
