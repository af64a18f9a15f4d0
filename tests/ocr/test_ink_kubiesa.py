"""Ink kinds on a few phone photos of hand-filled puzzles (shared/data/kubiesa-train): the
cells labelled as pencil marks are never read as givens, and the printed puzzle is solved."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.vision.page_boards import rectify_page

pytestmark = pytest.mark.shared_data

# Every twentieth photo, from each phone and each way of holding it.
PHOTOS = (
    "02_17_honor_view_10_0",
    "02_23_iphone_14_1",
    "03_01_honor_view_10_1",
    "03_07_iphone_14_0",
    # A lone candidate against a cell's left side, read surely as a 9.
    "03_05_iphone_14_0",
)
PENCIL = 10


@pytest.fixture(scope="module")
def kubiesa(shared_data: Path) -> Path:
    folder = shared_data / "kubiesa-train"
    if not folder.is_dir():
        pytest.skip(f"{folder} not found")
    return folder


@pytest.mark.parametrize("name", PHOTOS)
def test_pencil_marks_are_no_givens_and_the_print_is_solved(kubiesa: Path, engine, name) -> None:
    labels = np.loadtxt(kubiesa / "labels" / f"{name}.txt", dtype=int)
    assert (labels == PENCIL).any()
    boards = rectify_page(cv2.imread(str(kubiesa / "images" / f"{name}.jpg")))
    board = max(boards, key=lambda b: cv2.contourArea(b.board.location.corners))
    reading = recognise_board(board.board, board.cells, engine).reading
    for cell in reading.cells:
        label = labels[cell.row, cell.col]
        if label == PENCIL:
            assert cell.kind is not CellKind.GIVEN, cell
        elif label == 0:
            assert cell.ink is InkKind.EMPTY, cell
        else:
            # A printed given or a handwritten entry (the labels do not tell): its digit.
            assert cell.ink in (InkKind.GIVEN, InkKind.HANDWRITTEN), cell
            assert cell.digit == label, cell
    solution = solve_reading(reading, make_backend(), 10.0)
    assert solution.result.verdict is Verdict.SOLVED
    assert not solution.doubts


def test_a_hand_filled_board_measured_smaller_is_measured_again_once_its_marks_are_sorted(
    kubiesa: Path, engine
) -> None:
    # Two of its middle row lines are fainter than the line floor: it measures as a 6x6, whose
    # readings repeat digits. Read as a 9x9, its pencil marks repeat digits too until they are
    # sorted out of the givens.
    name = "02_28_iphone_14_0"
    labels = np.loadtxt(kubiesa / "labels" / f"{name}.txt", dtype=int)
    (board,) = rectify_page(cv2.imread(str(kubiesa / "images" / f"{name}.jpg")))
    assert board.board.shape.size == 6

    reading = recognise_board(board.board, board.cells, engine).reading

    assert reading.shape.size == 9
    for cell in reading.cells:
        label = labels[cell.row, cell.col]
        if label == 0:
            assert cell.ink is InkKind.EMPTY, cell
        elif label != PENCIL:
            assert cell.digit == label, cell
