"""A long run's coordinator holds only the page results still queued, never the finished ones
(issue 13: keeping every finished future grew the coordinator by 2.6-2.9 MB a page)."""

from __future__ import annotations

import weakref
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudoku_batch import page_pool
from sudoku_batch.page_job import PageJobSettings, PageOutcome
from sudoku_batch.page_pool import QUEUED_PER_WORKER, run_pages
from sudoku_batch.pipeline.ingest.sources import expand_inputs
from sudoku_batch.store.artifacts import PageRef

PAGES = 24
JOBS = 2


def test_finished_page_results_are_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every result handed on is watched through a weak reference: it stays alive only
    # while something (a kept future, say) still holds it. (Not gc.get_objects(): scanning
    # the heap while pebble's threads build tuples breaks them.)
    handed_on: list[weakref.ref[PageOutcome]] = []
    real_outcome = page_pool._outcome

    def watched(future, page):
        outcome = real_outcome(future, page)
        handed_on.append(weakref.ref(outcome))
        return outcome

    monkeypatch.setattr(page_pool, "_outcome", watched)
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
        live.append(sum(1 for ref in handed_on if ref() is not None))
    assert done == PAGES
    # The results in hand are at most those of the futures still queued (done, not yet
    # handed on): a bound by the pool's queue depth, not by the pages done.
    assert max(live) <= JOBS * QUEUED_PER_WORKER
