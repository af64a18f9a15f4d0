"""Choose a board's own lines among the lines found near the teeth of a comb.

A photo of a page whose back shows through holds a second grid, mirrored, fainter and a
little off the board's own. Near a line of the board a line of the back page's grid may be
found too, and near the comb's outer tooth, where the outline took in the back page's grid
beyond the board's border, only the back page's border. The board's own lines are spaced
evenly with each other: where a tooth finds one line, that line is the board's (the back
page's grid shows its heavy box lines, a few of them, and not by every tooth); the lines where
a tooth finds several, and the outer lines, are those nearest the even spacing of the others.
"""

from __future__ import annotations

import numpy as np

# A line this far (share of a cell) or further from the even spacing of the others is off it;
# neighbouring lines of a comb that fits are as close to a cell apart (lattice's
# MAX_GAP_DEVIATION).
OFF_LATTICE_CELLS = 0.25

Run = tuple[int, int]  # rows start to end - 1 of a printed line


def line_runs(coverage: np.ndarray, lo: int, hi: int) -> list[Run]:
    """The runs of rows of ``coverage[lo:hi]`` reaching half its peak: each the printed
    line (or the lines side by side) there, in rows of ``coverage``."""
    window = coverage[lo:hi]
    strong = (window >= 0.5 * window.max()).view(np.int8)
    edges = np.diff(np.concatenate(([0], strong, [0])))
    starts, ends = np.flatnonzero(edges > 0), np.flatnonzero(edges < 0)
    return [(lo + int(s), lo + int(e)) for s, e in zip(starts, ends, strict=True)]


def even_lines(
    found: list[list[Run]], coverage: np.ndarray, cell: float, reach: float, weakest: float
) -> list[float | None]:
    """Each tooth's line: the middle of its rows, or, where they make several lines or an
        outer tooth's line is off the even spacing of the interior lines found alone, the line
        nearest that spacing (an outer tooth's looked for again around it, ``reach`` either side,
    among rows covering ``weakest`` at least).
        None where a tooth found no line. Lines as found when fewer than two interior teeth found
        one line alone: nothing says which lines are even then."""
    middles = [line_middle(runs) for runs in found]
    alone = [(i, middles[i]) for i in range(1, len(found) - 1) if len(found[i]) == 1]
    if len(alone) < 2:
        return middles
    slope, offset = np.polyfit(*zip(*alone, strict=True), 1)
    lines = []
    for i, runs in enumerate(found):
        even = slope * i + offset
        if 0 < i < len(found) - 1:
            lines.append(middles[i])
            continue
        line = middles[i] if len(runs) == 1 else _nearest(runs, even)
        if line is not None and abs(line - even) >= OFF_LATTICE_CELLS * cell:
            lo = max(0, int(round(even - reach)))
            hi = min(coverage.size, int(round(even + reach)) + 1)
            near = None
            if hi > lo and coverage[lo:hi].max() >= weakest:
                near = _nearest(line_runs(coverage, lo, hi), even)
            if near is not None and abs(near - even) < OFF_LATTICE_CELLS * cell:
                line = near
        lines.append(line)
    return lines


def line_middle(runs: list[Run]) -> float | None:
    """The middle of all the rows of a tooth's runs (one line, or a line and what is beside
    it): where the comb is judged to have put the tooth."""
    if not runs:
        return None
    rows = np.concatenate([np.arange(start, end) for start, end in runs])
    return float(rows.mean())


def _nearest(runs: list[Run], even: float) -> float | None:
    """The middle of the run nearest ``even``."""
    middles = [(start + end - 1) / 2 for start, end in runs]
    return min(middles, key=lambda m: abs(m - even), default=None)
