"""One grid geometry (pipeline.geometry): the units of classic, p x q, jigsaw and diagonal
grids, and region partitions refused."""

from __future__ import annotations

import pytest

from sudoku_batch.pipeline.errors import InvalidPuzzle, InvalidRegions
from sudoku_batch.pipeline.geometry import box_regions
from sudoku_batch.pipeline.grid import GridShape
from tests.solve.variants import JIGSAW_REGIONS


def cells_of(geometry, index):
    n = geometry.size
    return {divmod(cell, n) for cell in geometry.units[index].cells}


def test_classic_nine_has_rows_columns_and_three_by_three_boxes():
    geometry = GridShape(3, 3).geometry
    assert geometry.variant == "classic" and geometry.box == (3, 3)
    assert len(geometry.units) == 27 and all(len(u.cells) == 9 for u in geometry.units)
    assert cells_of(geometry, 0) == {(0, c) for c in range(9)}
    assert cells_of(geometry, 9 + 4) == {(r, 4) for r in range(9)}
    assert cells_of(geometry, 18 + 4) == {(r, c) for r in range(3, 6) for c in range(3, 6)}
    assert geometry.units[18 + 4].name == "box 5"
    assert geometry.cell_units[4 * 9 + 7] == (4, 9 + 7, 18 + 5)
    assert len({p for u in geometry.cell_units[0] for p in geometry.units[u].cells}) == 21


def test_p_by_q_boxes_are_numbered_in_reading_order():
    geometry = GridShape(2, 3).geometry
    assert geometry.size == 6 and len(geometry.units) == 18
    assert cells_of(geometry, 12 + 1) == {(r, c) for r in range(2) for c in range(3, 6)}
    assert cells_of(geometry, 12 + 2) == {(r, c) for r in range(2, 4) for c in range(3)}
    tall = GridShape(3, 2).geometry
    assert cells_of(tall, 12 + 1) == {(r, c) for r in range(3) for c in range(2, 4)}
    assert box_regions(2, 3)[3] == (2, 2, 2, 3, 3, 3)


def test_jigsaw_regions_are_its_units_renumbered_in_reading_order():
    letters = [
        [chr(ord("a") + 8 - int(s)) for s in JIGSAW_REGIONS[r * 9 : r * 9 + 9]] for r in range(9)
    ]
    shape = GridShape.jigsaw(letters)
    geometry = shape.geometry
    assert shape.variant == "jigsaw" and geometry.box is None
    assert geometry.regions == tuple(
        tuple(int(s) for s in JIGSAW_REGIONS[r * 9 : r * 9 + 9]) for r in range(9)
    )
    assert geometry.units[18].name == "region 1" and geometry.units[18].kind == "region"
    assert cells_of(geometry, 18) == {
        (r, c) for r in range(9) for c in range(9) if JIGSAW_REGIONS[r * 9 + c] == "0"
    }
    # Equal partitions, whatever their labels, are equal shapes.
    assert shape == GridShape.jigsaw(
        [[int(s) for s in JIGSAW_REGIONS[r * 9 : r * 9 + 9]] for r in range(9)]
    )


def test_a_jigsaw_drawn_as_the_boxes_is_classic():
    shape = GridShape.jigsaw([list(row) for row in box_regions(3, 3)])
    assert shape == GridShape(3, 3) and shape.variant == "classic"


def test_diagonal_adds_two_units():
    shape = GridShape(3, 3, diagonals=True)
    geometry = shape.geometry
    assert shape.variant == "diagonal" and len(geometry.units) == 29
    assert [u.name for u in geometry.units[27:]] == ["main diagonal", "anti-diagonal"]
    assert cells_of(geometry, 28) == {(i, 8 - i) for i in range(9)}
    assert len(geometry.cell_units[4 * 9 + 4]) == 5  # the centre is on both
    assert len(geometry.cell_units[0]) == 4 and len(geometry.cell_units[1]) == 3
    assert GridShape.jigsaw(
        [list(JIGSAW_REGIONS[r * 9 : r * 9 + 9]) for r in range(9)], True
    ).variant == ("jigsaw+diagonal")


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        (["aab", "abb", "ccc", "ddd"], "need 3 rows of 3"),  # not square
        (["aab", "abb", "abb"], "needs 3 regions, not 2"),
        (["aab", "abb", "ccb"], "has 4 cells, not 3"),
        (["aba", "bab", "ccc"], "is not connected"),
        (["aaa", "bcb", "bcc"], "is not connected"),
    ],
)
def test_a_partition_that_is_not_n_connected_regions_of_n_cells_is_refused(rows, why):
    with pytest.raises(InvalidRegions, match=why) as raised:
        GridShape(1, 3, tuple(tuple(row) for row in rows))
    assert isinstance(raised.value, InvalidPuzzle) and raised.value.code == "invalid_regions"
