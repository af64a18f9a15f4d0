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

from dataclasses import dataclass

from sudoku_batch.pipeline.rating.candidates import Board, Geometry, board_places, part_memo

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
    """The weak and strong links of one board state, shared by the static chaining tiers.

    A literal's code is also its bit in the reach masks (on literals below ``off``, off
    literals from ``off`` up). The links of a literal are listed when a walk first needs
    them; ``reach`` works on masks instead."""

    def __init__(self, board: Board) -> None:
        self.geo = board.geo
        self.budget = board.budget
        self.off = off_base(board)
        # Copies: the board is changed in place by the next step, these links are not.
        self.cands = board.cands[:]
        self.where = list(board_places(board))
        self._weak: dict[int, list[int]] = {}
        self._strong: dict[int, list[tuple[int, int]]] = {}
        self._reach: dict[int, int] | None = None

    def weak(self, lit: int) -> list[int]:
        """The off literals an on literal implies: its cell's other digits, then its digit in
        the cell's peers, ascending."""
        found = self._weak.get(lit)
        if found is None:
            n, off = self.geo.size, self.off
            c, i = lit // n, lit % n
            m = self.cands[c]
            found = [c * n + j + off for j in range(n) if m >> j & 1 and j != i]
            hits = self.where[i] & self.geo.peer_masks[c]
            while hits:
                low = hits & -hits
                hits ^= low
                found.append((low.bit_length() - 1) * n + i + off)
            self._weak[lit] = found
        return found

    def strong(self, lit: int) -> list[tuple[int, int]]:
        """The on literals an off literal implies, with the kind of link: the cell's other
        digit when it has two (Y), then the digit's other place in each of the cell's units
        that has two (X)."""
        found = self._strong.get(lit)
        if found is None:
            geo = self.geo
            n = geo.size
            c, i = (lit - self.off) // n, (lit - self.off) % n
            m = self.cands[c]
            found = []
            if m.bit_count() == 2:
                found.append((c * n + (m & ~(1 << i)).bit_length() - 1, Y_LINK))
            wi = self.where[i]
            for u in geo.cell_units[c]:
                here = wi & geo.unit_masks[u]
                if here.bit_count() == 2:
                    found.append((((here & ~(1 << c)).bit_length() - 1) * n + i, X_LINK))
            self._strong[lit] = found
        return found

    def reach(self) -> dict[int, int]:
        """Everything each literal implies, at once: literal code -> bitmask over literal codes
        of the literals it reaches (itself included); an off literal without a strong link
        implies nothing and is left out.

        An on literal reaches its weak partners as one mask (``weak_masks``, cut to the
        candidates); only the off literals with a strong link lead further. So the graph
        walked is the on literals and those few off literals, and a transitive closure over
        its strongly connected components (Tarjan, iterative) costs about one pass over it. The
        chain tiers use it to find which assumptions lead anywhere before tracing those.
        Computed once per board state and kept."""
        if self._reach is None:
            self._reach = self._closure()
        return self._reach

    def _closure(self) -> dict[int, int]:
        geo, cands, off = self.geo, self.cands, self.off
        n = geo.size
        self.budget.spend(off)
        present = 0
        for c, m in enumerate(cands):
            if m:
                present |= m << (c * n)
        to_ons: dict[int, list[int]] = {}  # off literal with strong links -> its on literals
        for c, m in enumerate(cands):
            if m.bit_count() == 2:
                a = m & -m
                lo, hi = c * n + a.bit_length() - 1, c * n + (m ^ a).bit_length() - 1
                to_ons.setdefault(lo + off, []).append(hi)
                to_ons.setdefault(hi + off, []).append(lo)
        for i, wi in enumerate(self.where):
            for lo, hi in part_memo(_two_places, geo, wi):
                lo, hi = lo * n + i, hi * n + i
                to_ons.setdefault(lo + off, []).append(hi)
                to_ons.setdefault(hi + off, []).append(lo)
        active = 0
        for lit in to_ons:
            active |= 1 << (lit - off)
        weak_masks = part_memo(_weak_masks, geo)
        own: dict[int, int] = {}  # node -> the bits it reaches directly, itself included
        succ: dict[int, list[int]] = {}  # node -> the nodes that lead further
        for lit, ons in to_ons.items():
            own[lit] = 1 << lit
            succ[lit] = ons
        sources = []  # on literals that no link reaches: their off literal has no strong link
        bits = present
        while bits:
            low = bits & -bits
            bits ^= low
            lit = low.bit_length() - 1
            partners = weak_masks[lit] & present
            nexts = []
            hits = partners & active
            while hits:
                b = hits & -hits
                hits ^= b
                nexts.append(b.bit_length() - 1 + off)
            if low & active:
                own[lit] = low | partners << off
                succ[lit] = nexts
            else:
                sources.append((lit, low | partners << off, nexts))
        reach = _closure(succ, own)
        for lit, mask, nexts in sources:
            for x in nexts:
                mask |= reach[x]
            reach[lit] = mask
        return reach

    def contradiction_of(self, start: int) -> tuple[int, int]:
        """What ``follow(start, stop_at_contradiction=True)`` finds, without building its
        record: (the strong-link kinds the two clashing literals were reached by, the number of
        literals they rest on); (0, 0) when there is no contradiction."""
        parents, clash, kind = self._walk(start, stop_at_contradiction=True)
        self.budget.spend(len(parents))
        if clash is None:
            return 0, 0
        return kind[clash[0]] | kind[clash[1]], len(ancestors(parents, clash))

    def follow(self, start: int, stop_at_contradiction: bool) -> Consequences:
        found = Consequences(*self._walk(start, stop_at_contradiction))
        self.budget.spend(len(found.parents))
        return found

    def _walk(
        self, start: int, stop_at_contradiction: bool
    ) -> tuple[dict[int, tuple[int, ...]], tuple[int, int] | None, dict[int, int]]:
        """Breadth first from ``start``, so the first contradiction met is a short one: each
        literal reached -> the literal it was reached from (as a 1-tuple, none for the start),
        the two clashing literals (None when none was met), and each literal reached -> the
        kinds of strong link on its way."""
        off, weak, strong = self.off, self._weak, self._strong
        parent: dict[int, tuple[int, ...]] = {start: ()}
        kind = {start: 0}
        queue = [start]  # breadth first: read from ``head`` on (a list is native to mypyc)
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            if v < off:  # weak links: the kind is passed on unchanged
                nexts = weak.get(v)
                if nexts is None:
                    nexts = self.weak(v)
                kv = kind[v]
                by = (v,)
                for w in nexts:
                    if w in parent:
                        continue
                    parent[w] = by
                    kind[w] = kv
                    if stop_at_contradiction and w - off in parent:
                        return parent, (w, w - off), kind
                    queue.append(w)
                continue
            pairs = strong.get(v)
            if pairs is None:
                pairs = self.strong(v)
            for w, k in pairs:
                if w in parent:
                    continue
                parent[w] = (v,)
                kind[w] = kind[v] | k
                if stop_at_contradiction and w + off in parent:
                    return parent, (w, w + off), kind
                queue.append(w)
        return parent, None, kind


def _two_places(geo: Geometry, places: int) -> list[tuple[int, int]]:
    """The units where a digit with these ``places`` has exactly two, as (cell, cell)."""
    pairs = []
    for mask in geo.unit_masks:
        here = places & mask
        if here and here.bit_count() == 2:
            a = here & -here
            pairs.append((a.bit_length() - 1, (here ^ a).bit_length() - 1))
    return pairs


def _weak_masks(geo: Geometry) -> list[int]:
    """Per on literal code of the shape, the codes (as on literals) of its possible weak
    partners: the cell's other digits and the digit in the cell's peers."""
    n = geo.size
    masks = []
    for c in range(geo.cells):
        peers = 0
        for p in geo.peers[c]:
            peers |= 1 << (p * n)
        for i in range(n):
            cell = ((1 << n) - 1) << (c * n)
            masks.append((cell & ~(1 << (c * n + i))) | peers << i)
    return masks


def _closure(succ: dict[int, list[int]], own: dict[int, int]) -> dict[int, int]:
    """Per node, the bitmask of what it reaches: its ``own`` bits and those of every node it
    leads to through ``succ``."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    comp: dict[int, int] = {}
    comp_reach: list[int] = []
    counter = 0
    for root in succ:
        if root in index:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, i = work[-1]
            edges = succ[v]
            if i < len(edges):
                work[-1] = (v, i + 1)
                w = edges[i]
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, 0))
                elif w in on_stack and index[w] < low[v]:
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
                    on_stack.discard(w)
                    members.append(w)
                    if w == v:
                        break
                c = len(comp_reach)
                mask = 0
                for w in members:
                    comp[w] = c
                    mask |= own[w]
                for w in members:
                    for x in succ[w]:
                        if comp[x] != c:
                            mask |= comp_reach[comp[x]]
                comp_reach.append(mask)
    return {v: comp_reach[c] for v, c in comp.items()}


def follow_dynamic(board: Board, start: int, digit_only: int = 0) -> Consequences:
    """Play ``start`` out on a copy of the candidates (see the module notes); with
    ``digit_only`` (a digit bit) only that digit's links are followed, as Nishio does.

    The places of each digit are kept as cell bitmasks beside the candidates, so the places
    left in a unit are one ``&`` (the order in which literals are found is that of scanning
    cells in ascending order, as before)."""
    geo = board.geo
    n = geo.size
    off = off_base(board)
    orig = board.cands
    cands = orig[:]
    owhere = board_places(board)
    where = owhere[:]
    unit_masks, peer_masks, cell_units = geo.unit_masks, geo.peer_masks, geo.cell_units
    parents: dict[int, tuple[int, ...]] = {start: ()}
    queue = [start]  # breadth first, read from ``head`` on, as in ``_walk``
    head = 0
    clash: list[tuple[int, ...]] = []

    if start >= off:
        c, i = (start - off) // n, (start - off) % n
        cands[c] &= ~(1 << i)
        where[i] &= ~(1 << c)
    while head < len(queue) and not clash:
        lit = queue[head]
        head += 1
        if lit < off:
            c, i = lit // n, lit % n
            bit = 1 << i
            if not cands[c] & bit:
                clash.append((lit, lit + off))
                break
            if not digit_only:  # the cell's other digits go; the cell keeps this one
                others = cands[c] & ~bit
                cands[c] = bit
                cell_bit = 1 << c
                while others:
                    e = others & -others
                    others ^= e
                    j = e.bit_length() - 1
                    where[j] &= ~cell_bit
                    x = lit - i + j + off
                    if x not in parents:
                        parents[x] = (lit,)
                        queue.append(x)
            hits = where[i] & peer_masks[c]
            where[i] &= ~hits
            while hits:
                low = hits & -hits
                hits ^= low
                cell = low.bit_length() - 1
                cands[cell] &= ~bit
                x = cell * n + i + off
                if x not in parents:
                    parents[x] = (lit,)
                    queue.append(x)
                if not cands[cell] and not digit_only:
                    clash.append(_offs(orig[cell], cell, n, off))
        else:
            c, i = (lit - off) // n, (lit - off) % n
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
    board.budget.spend(len(parents))
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
