"""bench.ink_kinds judges print on fills: every grid of a two-grid page, printed only."""

from __future__ import annotations

from bench.ink_kinds import FILL_MAKERS, _fills_image, _judge_page, _printed_truth
from sudoku_batch.pipeline.solve.backends import make_backend


def test_every_grid_of_a_page_on_fills_is_judged_as_printed(engine) -> None:
    maker = next(m for m in FILL_MAKERS if m[2] == "page")
    image = _fills_image(maker, 1)
    truths = [_printed_truth(grid) for grid in image.truth()]
    counts = list(_judge_page(image.image, truths, None, engine, make_backend()))
    assert len(truths) == 2
    assert [c["printed"] for c in counts] == [len(t.cells) for t in truths]
    assert all(c["pencil"] == c["written"] == 0 for c in counts)
