"""A board whose readings contradict its measured size or box shape is measured again.

The lattice's size and box shape come from the printed lines alone; what the cells hold is a
second witness. Givens never repeat in a row, column or box, so readings that repeat digits in
many places, and not because of one misread cell (the solve step doubts such a cell), say the
lattice is wrong: a 6x6 without box lines whose boxes are 3 rows by 2 columns (not the usual 2
by 3), or a grid measured as one of the other sizes its lines also fit. The alternatives are
the other box shapes of the measured lines, then every other size whose comb fits the board's
lines, each with its box shapes; the first whose readings repeat nothing is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from sudoku_batch.pipeline.board import BoardImage, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading
from sudoku_batch.pipeline.solve.encode import clashing_pairs
from sudoku_batch.pipeline.vision.lattice import fitting_lattices


def contradicts(reading: BoardReading) -> bool:
    """Whether a board's readings repeat a digit in a row, column or box in a way that no one
    cell's misreading explains."""
    pairs = [set(cells) for _, *cells, _ in clashing_pairs(reading.puzzle())]
    return bool(pairs) and not set.intersection(*pairs)


def alternative_boards(board: BoardImage) -> Iterator[BoardImage]:
    """The board with each lattice it may be re-measured as, the likeliest first."""
    measured = board.lattice
    for shape in _other_box_shapes(measured.shape):
        yield replace(board, lattice=replace(measured, shape=shape))
    for lattice in fitting_lattices(board.pixels):
        if lattice.shape.size == measured.shape.size:
            continue
        yield replace(board, lattice=lattice)
        for shape in _other_box_shapes(lattice.shape):
            yield replace(board, lattice=Lattice(shape, lattice.row_lines, lattice.col_lines))


def _other_box_shapes(shape: GridShape) -> list[GridShape]:
    n = shape.size
    return [
        GridShape(rows, n // rows)
        for rows in range(2, n // 2 + 1)
        if n % rows == 0 and GridShape(rows, n // rows) != shape
    ]
