"""Following a candidate assumption through its consequences: the engine of the chain techniques.

A literal is "cell c takes digit d" (on) or "cell c does not take d" (off), coded as one int:
``c * n + d - 1`` for on and that plus ``OFF`` (cells * n) for off.

Two ways of following an assumption, as in Sudoku Explainer:

* static: only links that hold on the board as it stands. An on literal strikes its digit from
  the cell's peers and the cell's other digits (weak links); an off literal turns on the other
  digit of a two-digit cell (a Y link) or the other place of a digit with two places in a unit (an
  X link). Used for X-/Y-/XY-chains and for the static multiple forcing chains.
* dynamic: the assumption is played out on a copy of the candidates, so a cell or unit that loses
  all but one possibility on the way yields a new on literal (its parents are every off literal
  that emptied it). Used for Nishio (one digit only) and the dynamic forcing chains.

Every derived literal records its parents, so the size of a deduction (the number of literals it
rests on, SE's "complexity") can be counted afterwards.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from pipeline.rating.candidates import Board, board_places, digit_places

X_LINK = 1  # strong link between the two places of a digit in a unit
Y_LINK = 2  # strong link between the two digits of a cell


@dataclass
class Consequences:
    """What one assumption implies: literal -> its parent literals; ``contradiction`` holds the
    literals that together clash (None when none was found); ``kinds`` ORs the strong links used
    (static only)."""

    parents: dict[int, tuple[int, ...]]
    contradiction: tuple[int, ...] | None = None
    kinds: dict[int, int] | None = None


def off_base(board: Board) -> int:
    return board.geo.cells * board.geo.size


def ancestors(parents: dict[int, tuple[int, ...]], literals: tuple[int, ...]) -> set[int]:
    seen: set[int] = set()
    stack = list(literals)
    while stack:
        lit = stack.pop()
        if lit in seen:
            continue
        seen.add(lit)
        stack.extend(parents.get(lit, ()))
    return seen


class StaticLinks:
    """The weak and strong links of one board state, built once per chaining step."""

    def __init__(self, board: Board) -> None:
        geo, cands = board.geo, board.cands
        n = geo.size
        off = off_base(board)
        self.off = off
        self._reach: tuple[dict[int, int], int] | None = None
        self.weak: dict[int, list[int]] = {}
        self.strong: dict[int, list[tuple[int, int]]] = {}
        where = board_places(board)
        peer_masks, unit_masks, cell_units = geo.peer_masks, geo.unit_masks, geo.cell_units
        for c, m in enumerate(cands):
            bits = m
            while bits:
                bit = bits & -bits
                bits ^= bit
                i = bit.bit_length() - 1
                lit = c * n + i
                weak = [c * n + j + off for j in range(n) if m >> j & 1 and j != i]
                hits = where[i] & peer_masks[c]
                while hits:
                    low = hits & -hits
                    hits ^= low
                    weak.append((low.bit_length() - 1) * n + i + off)
                self.weak[lit] = weak
                strong = []
                if m.bit_count() == 2:
                    other = (m & ~bit).bit_length() - 1
                    strong.append((c * n + other, Y_LINK))
                for u in cell_units[c]:
                    here = where[i] & unit_masks[u]
                    if here.bit_count() == 2:
                        p = (here & ~(1 << c)).bit_length() - 1
                        strong.append((p * n + i, X_LINK))
                self.strong[lit + off] = strong

    def reach(self) -> tuple[dict[int, int], int]:
        """Everything each literal implies, at once: literal -> bitmask over dense ids of the
        literals it reaches (itself included), and the number ``m`` of candidates. The on
        literal of the candidate with id ``i`` has id ``i``, its off literal ``i + m``.

        A transitive closure over the strongly connected components (Tarjan, iterative), so a
        whole board costs about one pass over the links instead of one search per literal; the
        chain tiers use it to find which assumptions lead anywhere before tracing those.
        Computed once per board state and kept."""
        if self._reach is not None:
            return self._reach
        ons = sorted(self.weak)
        m = len(ons)
        ids = {lit: i for i, lit in enumerate(ons)}
        ids.update({lit + self.off: i + m for i, lit in enumerate(ons)})
        succ: list[list[int]] = [[] for _ in range(2 * m)]
        kinds: list[list[int]] = [[] for _ in range(2 * m)]
        for lit, nexts in self.weak.items():
            succ[ids[lit]] = [ids[x] for x in nexts]
            kinds[ids[lit]] = [0] * len(nexts)
        for lit, strong in self.strong.items():
            succ[ids[lit]] = [ids[x] for x, _ in strong]
            kinds[ids[lit]] = [kind for _, kind in strong]
        self.dense = (succ, kinds, m)
        closure = _closure(succ)
        codes = ons + [lit + self.off for lit in ons]
        self._reach = {code: closure[i] for i, code in enumerate(codes)}, m
        return self._reach

    def contradiction_of(self, start: int, ids: dict[int, int]) -> tuple[int, int]:
        """What ``follow(start, stop_at_contradiction=True)`` finds, on the dense ids that
        ``reach`` built (call it first), in the same breadth-first order: (the strong-link kinds
        the two clashing literals were reached by, the number of literals they rest on); (0, 0)
        when there is no contradiction."""
        succ, kinds, m = self.dense
        s = ids[start]
        parent = {s: -1}
        kind = {s: 0}
        queue = deque([s])
        while queue:
            v = queue.popleft()
            for w, k in zip(succ[v], kinds[v], strict=True):
                if w in parent:
                    continue
                parent[w] = v
                kind[w] = kind[v] | k
                neg = w - m if w >= m else w + m
                if neg in parent:
                    rests = set()
                    for x in (w, neg):
                        while x != -1 and x not in rests:
                            rests.add(x)
                            x = parent[x]
                    return kind[w] | kind[neg], len(rests)
                queue.append(w)
        return 0, 0

    def follow(self, start: int, stop_at_contradiction: bool) -> Consequences:
        """Breadth first from ``start``, so the first contradiction met is a short one."""
        off = self.off
        parents: dict[int, tuple[int, ...]] = {start: ()}
        kinds = {start: 0}
        queue = deque([start])
        while queue:
            lit = queue.popleft()
            if lit < off:
                nexts = [(x, 0) for x in self.weak.get(lit, ())]
            else:
                nexts = self.strong.get(lit, ())
            for nxt, kind in nexts:
                if nxt in parents:
                    continue
                parents[nxt] = (lit,)
                kinds[nxt] = kinds[lit] | kind
                negation = nxt - off if nxt >= off else nxt + off
                if negation in parents and stop_at_contradiction:
                    return Consequences(parents, (nxt, negation), kinds)
                queue.append(nxt)
        return Consequences(parents, None, kinds)


def _closure(succ: list[list[int]]) -> list[int]:
    """Per node, the bitmask of the nodes it reaches (itself included)."""
    count = len(succ)
    index = [-1] * count
    low = [0] * count
    on_stack = [False] * count
    stack: list[int] = []
    comp = [-1] * count
    comp_reach: list[int] = []
    counter = 0
    for root in range(count):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, i = work[-1]
            edges = succ[v]
            if i < len(edges):
                work[-1] = (v, i + 1)
                w = edges[i]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                # A component closes: every component it reaches has closed before it.
                members = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    members.append(w)
                    if w == v:
                        break
                c = len(comp_reach)
                mask = 0
                for w in members:
                    comp[w] = c
                    mask |= 1 << w
                for w in members:
                    for x in succ[w]:
                        if comp[x] != c:
                            mask |= comp_reach[comp[x]]
                comp_reach.append(mask)
    return [comp_reach[comp[v]] for v in range(count)]


def follow_dynamic(
    board: Board, start: int, digit_only: int = 0, where0: list[int] | None = None
) -> Consequences:
    """Play ``start`` out on a copy of the candidates (see the module notes); with
    ``digit_only`` (a digit bit) only that digit's links are followed, as Nishio does.
    ``where0`` is ``digit_places`` of the board, when the caller has it already.

    The places of each digit are kept as cell bitmasks beside the candidates, so the places
    left in a unit are one ``&`` (the order in which literals are found is that of scanning
    cells in ascending order, as before)."""
    geo = board.geo
    n = geo.size
    off = off_base(board)
    orig = board.cands
    cands = orig[:]
    where = list(where0) if where0 is not None else digit_places(orig, n)
    owhere = where[:]
    unit_masks, peer_masks, cell_units = geo.unit_masks, geo.peer_masks, geo.cell_units
    parents: dict[int, tuple[int, ...]] = {start: ()}
    queue = deque([start])
    clash: list[tuple[int, ...]] = []

    if start >= off:
        c, i = divmod(start - off, n)
        cands[c] &= ~(1 << i)
        where[i] &= ~(1 << c)
    while queue and not clash:
        lit = queue.popleft()
        if lit < off:
            c, i = divmod(lit, n)
            bit = 1 << i
            if not cands[c] & bit:
                clash.append((lit, lit + off))
                break
            struck = []
            if not digit_only:
                others = cands[c] & ~bit
                while others:
                    e = others & -others
                    others ^= e
                    struck.append((c, e.bit_length() - 1))
            hits = where[i] & peer_masks[c]
            while hits:
                low = hits & -hits
                hits ^= low
                struck.append((low.bit_length() - 1, i))
            for cell, j in struck:
                cands[cell] &= ~(1 << j)
                where[j] &= ~(1 << cell)
                x = cell * n + j + off
                if x not in parents:
                    parents[x] = (lit,)
                    queue.append(x)
                if not cands[cell] and not digit_only:
                    clash.append(_offs(orig[cell], cell, n, off))
        else:
            c, i = divmod(lit - off, n)
            m = cands[c]
            if not digit_only and m and m & (m - 1) == 0:
                on = c * n + m.bit_length() - 1
                if on not in parents:
                    parents[on] = tuple(x for x in _offs(orig[c], c, n, off) if x != on + off)
                    queue.append(on)
            wi = where[i]
            for u in cell_units[c]:
                places = wi & unit_masks[u]
                if places & (places - 1):
                    continue
                if places:
                    on = (places.bit_length() - 1) * n + i
                    if on in parents:
                        continue
                emptied = _cells_lits(owhere[i] & unit_masks[u], n, i + off)
                if not places:
                    clash.append(emptied)
                    break
                parents[on] = tuple(x for x in emptied if x != on + off)
                queue.append(on)
    return Consequences(parents, clash[0] if clash else None)


def _cells_lits(mask: int, n: int, add: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append((low.bit_length() - 1) * n + add)
    return tuple(out)


def _offs(mask: int, cell: int, n: int, off: int) -> tuple[int, ...]:
    return tuple(cell * n + j + off for j in range(n) if mask >> j & 1)
