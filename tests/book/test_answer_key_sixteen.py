"""A 16x16 printed with 10-16, run end to end: its answer key prints 10-16 too, every cell of the
solution in order, under its place in the batch."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from sudoku_batch.cli import main
from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.reading import LETTERS, NUMBERS
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.puzzles import random_solution


@pytest.mark.parametrize("labels", [NUMBERS, LETTERS])
def test_a_sixteen_is_keyed_with_the_symbols_the_book_printed(tmp_path: Path, labels) -> None:
    shape = GridShape(4, 4)
    rng = np.random.default_rng(61)
    solution = random_solution(shape, rng)
    givens = np.where(rng.random(solution.shape) < 0.8, solution, 0)
    grid = render_grid(
        Puzzle(shape, tuple(map(tuple, givens.tolist()))), cell_px=48, rng=rng, labels=labels
    )
    page = cv2.copyMakeBorder(grid.image, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=(255,) * 3)
    photo = tmp_path / "sixteen.png"
    cv2.imwrite(str(photo), page)
    out = tmp_path / "out"
    (record,) = run_batch([photo], EmbeddedOptions(out, jobs=1, progress=False)).records
    assert record["givens"] == givens.tolist()
    assert record["status"] == "solved", record["message"]
    assert record["solution"] == solution.tolist()

    key = tmp_path / "key.pdf"
    assert main(["answer-key", str(out), "--out", str(key)]) == 0
    tokens = pdfium.PdfDocument(key)[0].get_textpage().get_text_range().split()
    printed = [
        chr(ord("A") + v - 10) if labels == LETTERS and v > 9 else str(v)
        for row in solution.tolist()
        for v in row
    ]
    assert any(tokens[i : i + 256] == printed for i in range(len(tokens)))
    assert tokens[tokens.index("sixteen.png") - 1] == "1"  # numbered by its place
