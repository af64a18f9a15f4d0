"""What the rater may spend on one puzzle: work units, counted, and a wall-clock backstop.

The technique and chain loops and the search spend units as they go (about one per elementary
step of their inner loops: a combination tried, a cell scanned, a literal followed), so a
budget holds inside compiled code too, where no signal would be seen, and for every size. A
budget in units stops a rating at the same point on every machine and in both cores, so ratings
do not depend on the machine. Work answered from a memo is charged as if it were done again
(``candidates.memo``, ``candidates.costly_part_memo``): what a rating is charged does not
depend on what was rated before it in the same process.

The deadline is only a backstop for a machine far slower than the one the units were measured
on; it is read when the units spent cross a checkpoint, so checking it costs nothing per step.
"""

from __future__ import annotations

import time

CLOCK_EVERY = 20_000  # units between two readings of the clock (well under a millisecond)


class BudgetExhausted(Exception):
    """Raised inside the rater when its budget runs out. ``by_clock``: the deadline passed
    before the units ran out."""

    def __init__(self, by_clock: bool) -> None:
        super().__init__("the rater's deadline passed" if by_clock else "the rater's units ran out")
        self.by_clock = by_clock


class Budget:
    """``units`` None: no limit on work; ``deadline`` (``time.perf_counter()`` seconds) None:
    no backstop. ``spent`` counts the units spent so far."""

    def __init__(self, units: int | None = None, deadline: float | None = None) -> None:
        self.units = units
        self.deadline = deadline
        self.spent = 0
        self.next_clock = CLOCK_EVERY

    def spend(self, units: int) -> None:
        """Raises ``BudgetExhausted`` when the units, or the time, have run out."""
        self.spent += units
        if self.units is not None and self.spent > self.units:
            raise BudgetExhausted(False)
        if self.spent >= self.next_clock:
            self.next_clock = self.spent + CLOCK_EVERY
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise BudgetExhausted(True)
