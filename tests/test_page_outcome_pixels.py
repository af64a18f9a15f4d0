"""A pool process sends the coordinator a page's results without the boards' pixels (stored
already; recording needs only their geometry), and nothing recorded differs for it."""

from __future__ import annotations

import pickle
from pathlib import Path

import cv2
import numpy as np

from sudoku_batch.page_job import PageJobSettings, PageOutcome
from sudoku_batch.page_pool import run_pages
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.sources import expand_inputs
from sudoku_batch.store.artifacts import PageRef
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.unique import unique_puzzle


def _outcome(work, jobs: int, settings: PageJobSettings) -> PageOutcome:
    ((_page, outcome),) = run_pages(work, jobs, "ppocr-onnx", "auto", settings, lambda: False)
    return outcome


def test_pool_results_leave_the_pixels_behind_and_keep_the_rest(tmp_path: Path) -> None:
    generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(5), givens=30)
    page = np.full((700, 640, 3), 255, np.uint8)
    grid = render_grid(generated.puzzle, cell_px=56, rng=np.random.default_rng(5)).image
    page[60 : 60 + grid.shape[0], 40 : 40 + grid.shape[1]] = grid
    cv2.imwrite(str(tmp_path / "page.png"), page)
    work = [(source, PageRef(1, 1, source.source, 1)) for source in expand_inputs([tmp_path])]
    settings = PageJobSettings(dpi=72, solve_timeout=5.0, out_dir=tmp_path / "out")

    in_process = _outcome(work, 1, settings)
    pooled = _outcome(work, 2, settings)

    assert in_process.found is not None and pooled.found is not None
    (found,), (sent,) = in_process.found.boards, pooled.found.boards
    (read,), (sent_read,) = in_process.boards, pooled.boards
    assert found.board.pixels.size > 0 and read.read is not None
    assert sent.board.pixels.size == 0
    assert sent_read.read is not None and sent_read.read.recognised.board.pixels.size == 0
    assert len(pickle.dumps(pooled)) < 50_000 < len(pickle.dumps(in_process))
    # What recording reads is all there, and the same.
    assert np.array_equal(sent.board.location.corners, found.board.location.corners)
    assert np.array_equal(sent.board.homography, found.board.homography)
    assert sent.board.lattice == found.board.lattice and sent.cells == found.cells
    assert sent_read.read.recognised.reading == read.read.recognised.reading
    assert sent_read.solved is not None and read.solved is not None
    sent_result, result = sent_read.solved.solution.result, read.solved.solution.result
    assert (sent_result.verdict, sent_result.solution) == (result.verdict, result.solution)
