"""A long run's coordinator holds only the page results still queued, never the finished ones
(issue 13: keeping every finished future grew the coordinator by 2.6-2.9 MB a page)."""

from __future__ import annotations

import gc
from pathlib import Path

import cv2
import numpy as np

from pipeline.ingest.sources import expand_inputs
from store.artifacts import PageRef
from sudoku_batch.page_job import PageJobSettings, PageOutcome
from sudoku_batch.page_pool import QUEUED_PER_WORKER, run_pages

PAGES = 24
JOBS = 2


def _live_outcomes() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, PageOutcome))


def test_finished_page_results_are_not_kept(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for number in range(PAGES):
        cv2.imwrite(str(inputs / f"{number:02d}.png"), np.full((60, 80, 3), 255, np.uint8))
    work = [
        (source, PageRef(1, number, source.source, 1))
        for number, source in enumerate(expand_inputs([inputs]), start=1)
    ]
    settings = PageJobSettings(dpi=72, solve_timeout=1.0, out_dir=tmp_path / "out")
    live = []
    done = 0
    for _page, outcome in run_pages(work, JOBS, "ppocr-onnx", "auto", settings, lambda: False):
        assert outcome.error is not None  # a blank page has no grid
        del outcome
        done += 1
        live.append(_live_outcomes())
    assert done == PAGES
    # The results in hand are at most those of the futures still queued (done, not yet
    # handed on): a bound by the pool's queue depth, not by the pages done.
    assert max(live) <= JOBS * QUEUED_PER_WORKER
