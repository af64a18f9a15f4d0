"""Variant puzzles with their unique solutions, made by ``synth.variant_puzzles`` (seeds 1 and 2,
checked unique there by its own SAT encoding), written as text lines (docs/solving.md)."""

from __future__ import annotations

from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line

JIGSAW_REGIONS = "001112222000112122000011123444555523454566333455567773466666873468888873488877773"
JIGSAW = (
    ".1...5.......7.........6.48.....2...9........1...........5...9.2..7.4........8..9/"
    + JIGSAW_REGIONS
)
JIGSAW_SOLVED = "418925673586379421793216548674132985965487132157893264842561397239754816321648759"
DIAGONAL = "..6.............35.4...8..2.2......6.........7....9....8.27.....7....1.......6.../X"
DIAGONAL_SOLVED = (
    "896352741217694835345718692128435976469127583753869214684271359572943168931586427"
)
JIGSAW_DIAGONAL = (
    ".9........................8.........6........4.....9.........4.2..653.7........../"
    + JIGSAW_REGIONS
    + "/X"
)
JIGSAW_DIAGONAL_SOLVED = (
    "598314627186475239743269518371926485635148792457832961862597143219653874924781356"
)
JIGSAW_SIX = "31.4.......1..........5......26.2.../000001202211222111333333455555444445"
JIGSAW_SIX_SOLVED = "316425253641541263124356465132632514"

# (line, its solution), one per variant
VARIANTS = [
    (JIGSAW, JIGSAW_SOLVED),
    (DIAGONAL, DIAGONAL_SOLVED),
    (JIGSAW_DIAGONAL, JIGSAW_DIAGONAL_SOLVED),
    (JIGSAW_SIX, JIGSAW_SIX_SOLVED),
]


def puzzle_of(line: str) -> Puzzle:
    return parse_puzzle_line(line).puzzle


def grid_of(text: str) -> tuple[tuple[int, ...], ...]:
    n = int(len(text) ** 0.5)
    return tuple(tuple(int(text[r * n + c]) for c in range(n)) for r in range(n))
