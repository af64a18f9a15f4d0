"""A jigsaw photo end to end through the embedded runner: the render draws its regions heavy
over the photo, the answer key carries them, and the review page and the book report draw a
heavy border exactly between cells of different regions (and mark a diagonal variant's
diagonals)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from sudoku_batch.api.app import create_app
from sudoku_batch.api.auth import KEY_COOKIE
from sudoku_batch.cli import main
from sudoku_batch.embedded import DATABASE_NAME
from sudoku_batch.pipeline.geometry import Regions
from sudoku_batch.pipeline.render import region_window
from sudoku_batch.reports.answer_key import answer_key_entries
from sudoku_batch.reports.grid_classes import cell_classes
from sudoku_batch.settings import Settings
from sudoku_batch.store import load
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.keys import create_key
from sudoku_batch.store.models import ApiKey, Batch, Puzzle
from sudoku_batch.synth.variant_images import (
    VariantImage,
    random_variant,
    regions_of,
    variant_photo,
)
from tests.pipeline.test_region_lines import HEAVY_IN_KEY, key_border_darkness

# Rendered ink is SOLUTION_INK blue: blue well above red, which paper and print never are.
BLUE_OVER_RED = 60
# Pixels either side of an edge's midpoint searched for ink.
REACH = 2


@dataclass(frozen=True)
class JigsawRun:
    out: Path
    photo: VariantImage
    regions: Regions
    record: dict


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> JigsawRun:
    rng = np.random.default_rng(21)
    puzzle = random_variant(rng, "jigsaw")
    photo = variant_photo(puzzle, rng, fills="none")
    inputs = tmp_path_factory.mktemp("photos")
    cv2.imwrite(str(inputs / "jigsaw.png"), photo.image)
    out = tmp_path_factory.mktemp("out")
    assert main(["run", str(inputs), "--out", str(out), "--jobs", "1", "--no-progress"]) == 0
    [record] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    regions = regions_of(puzzle)
    assert record["status"] == "solved", record["message"]
    assert (record["variant"], record["regions"]) == ("jigsaw", [list(row) for row in regions])
    return JigsawRun(out, photo, regions, record)


def _interior_edges(regions: Regions) -> tuple[list, list]:
    """The midpoints (x, y in cells) of the interior cell edges between two regions, and of
    those within one."""
    n = len(regions)
    borders, plain = [], []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                (borders if regions[r][c] != regions[r][c + 1] else plain).append((c + 1, r + 0.5))
            if r + 1 < n:
                (borders if regions[r][c] != regions[r + 1][c] else plain).append((c + 0.5, r + 1))
    return borders, plain


def test_the_render_draws_the_regions_heavy_over_the_photo(run: JigsawRun) -> None:
    render = cv2.imread(str(run.out / run.record["render_path"]))
    corners = np.array(run.record["corners"], np.float32)
    left, top, _, _ = region_window(run.photo.image.shape, corners)
    n = len(run.regions)
    lattice = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    to_render = cv2.getPerspectiveTransform(lattice, corners - np.float32([left, top]))
    blue = render[:, :, 0].astype(int) - render[:, :, 2].astype(int) > BLUE_OVER_RED

    def inked_share(midpoints: list) -> float:
        points = cv2.perspectiveTransform(np.array([midpoints], np.float32), to_render)[0]
        hits = [
            blue[
                round(y) - REACH : round(y) + REACH + 1, round(x) - REACH : round(x) + REACH + 1
            ].any()
            for x, y in points
        ]
        return sum(hits) / len(hits)

    borders, plain = _interior_edges(run.regions)
    assert inked_share(borders) >= 0.95, "the region borders are drawn"
    assert inked_share(plain) <= 0.05, "a cell edge within a region is not"


def _session(run: JigsawRun):
    engine = make_engine(f"sqlite:///{run.out / DATABASE_NAME}")
    return engine, make_session_factory(engine)


def test_the_answer_key_carries_the_regions(run: JigsawRun, tmp_path: Path) -> None:
    engine, sessions = _session(run)
    try:
        with transaction(sessions) as db:
            batch_id = db.scalars(select(Batch.id)).one()
            [entry] = answer_key_entries(db, batch_id)
    finally:
        engine.dispose()
    assert (entry.regions, entry.variant) == (run.regions, "jigsaw")
    key = tmp_path / "key.pdf"
    assert main(["answer-key", str(run.out), "--out", str(key)]) == 0
    assert min(key_border_darkness(key, run.regions)) >= HEAVY_IN_KEY, "drawn heavy"


def _cell_classes(table: str) -> list[list[set[str]]]:
    """The classes of every cell of an HTML table, row by row."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [[set(c.split()) for c in re.findall(r'<td class="([^"]*)"', row)] for row in rows]


def _assert_region_borders(classes: list[list[set[str]]], regions: Regions) -> None:
    n = len(regions)
    assert len(classes) == n and all(len(row) == n for row in classes)
    for r in range(n):
        for c in range(n):
            right = c + 1 < n and regions[r][c] != regions[r][c + 1]
            below = r + 1 < n and regions[r][c] != regions[r + 1][c]
            assert ("region-right" in classes[r][c]) == right, (r, c)
            assert ("region-bottom" in classes[r][c]) == below, (r, c)
            assert "diagonal" not in classes[r][c]


def test_the_book_report_draws_the_region_borders(run: JigsawRun, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    assert main(["report", str(run.out), "--out", str(report)]) == 0
    [table] = re.findall(r'<table class="sudoku">(.*?)</table>', report.read_text(), re.S)
    _assert_region_borders(_cell_classes(table), run.regions)


def test_the_review_page_draws_the_region_borders(run: JigsawRun, tmp_path: Path) -> None:
    engine, sessions = _session(run)
    try:
        with transaction(sessions) as db:
            key = create_key(db, "reviewer")
        with transaction(sessions) as db:
            batch = db.scalars(select(Batch)).one()
            batch.api_key_id = db.scalars(select(ApiKey.id)).one()
            public_id = db.scalars(select(Puzzle.public_id)).one()
    finally:
        engine.dispose()
    settings = Settings(database_url=f"sqlite:///{run.out / DATABASE_NAME}", data_dir=tmp_path)
    with TestClient(create_app(settings)) as browser:
        browser.cookies.set(KEY_COOKIE, key)
        page = browser.get(f"/ui/puzzles/{public_id}")
    assert page.status_code == 200, page.text
    [table] = re.findall(r'<table class="sudoku" id="solution">(.*?)</table>', page.text, re.S)
    _assert_region_borders(_cell_classes(table), run.regions)


def test_a_diagonal_variants_diagonal_cells_are_marked_and_its_boxes_bordered() -> None:
    classes = cell_classes({"regions": None, "box": [3, 3], "variant": "diagonal"})
    marked = {(r, c) for r in range(9) for c in range(9) if "diagonal" in classes[r][c]}
    assert marked == {(k, k) for k in range(9)} | {(k, 8 - k) for k in range(9)}
    assert "region-right" in classes[0][2] and "region-right" not in classes[0][1]
    assert cell_classes({"regions": None, "box": None, "variant": "classic"}) == []


def test_the_regions_certainty_is_kept_for_the_servers_solve(run: JigsawRun) -> None:
    """The server solves a reading loaded from its rows: it is certified as the embedded
    runner's reading was, doubtful regions included."""
    engine, sessions = _session(run)
    try:
        with transaction(sessions) as db:
            puzzle_id = db.scalars(select(Puzzle.id)).one()
            certainty = load.stored_reading(db, puzzle_id).regions_certainty
    finally:
        engine.dispose()
    assert certainty is not None and certainty >= 0.5
