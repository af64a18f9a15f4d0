"""The review pages in a real browser: the API and a Celery worker run as processes on the test
database and a Redis prefix of their own, headless Chromium (Debian's, driven by Selenium
through Debian's chromedriver) logs in with a key, finds a puzzle that is unsolvable because
one digit was misread, corrects it by keyboard alone and sees it solved; and opens pages
holding markup in a file name, a batch label and a crafted login link, none of which runs.

The stack, the browser and where screenshots go: ``browser_stack``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading, CellReading, RecognisedBoard
from sudoku_batch.store import load
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.db import transaction
from sudoku_batch.store.models import Batch, CellCorrection, Puzzle
from sudoku_batch.store.record import record_reading
from sudoku_batch.synth.unique import unique_puzzle
from sudoku_batch.workers.app import make_celery
from sudoku_batch.workers.publish import hand_over
from tests.integration.browser_stack import BATCH_LIMIT, PAGE_LIMIT, Stack
from tests.integration.conftest import (
    wait_until,
)
from tests.integration.test_end_to_end import page_of

pytestmark = pytest.mark.services

# The solver doubts only the least confident givens (pipeline.solve.reconcile); this many
# are read unsure, so the misread digit, read surer than they, is never doubted.
UNSURE_GIVENS = 12


@dataclass(frozen=True)
class Misread:
    batch_id: str
    puzzle_id: str
    row: int
    col: int
    true_digit: int


def run_page(stack: Stack, name: str, page: bytes, label: str) -> tuple[str, list[dict]]:
    """``page`` uploaded as ``name`` in a batch labelled ``label``, run through the worker: the
    batch's id and its results records."""
    headers = {"Authorization": f"Bearer {stack.key}"}
    with httpx.Client(base_url=stack.url, headers=headers, timeout=30) as api:
        submitted = api.post("/batches", files=[("files", (name, page))], data={"label": label})
        assert submitted.status_code == 201, submitted.text
        batch_id = submitted.json()["batch_id"]
        wait_until(
            lambda: api.get(f"/batches/{batch_id}").json()["finished"],
            BATCH_LIMIT,
            f"batch {batch_id} to finish:\n{stack.logs()}",
            1.0,
        )
        return batch_id, api.get(f"/batches/{batch_id}/results").json()["items"]


def seed_misread(stack: Stack, sessions: sessionmaker[Session]) -> Misread:
    """A grid page run through the worker, then its reading recorded again as a reader that
    misread one digit of the last row (as the digit of another given of that row, so the two
    clash) would give it, and solved again by the worker: unsolvable."""
    generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(15), givens=32)
    page = page_of(generated.puzzle)
    batch_id, _ = run_page(stack, "book-page.png", page, "Puzzle book, page 12")
    truth = generated.puzzle.givens
    row = len(truth) - 1
    first, second = [c for c, v in enumerate(truth[row]) if v][:2]
    read = [list(r) for r in truth]
    read[row][first] = truth[row][second]
    unsure = [(r, c) for r in range(row) for c in range(9) if truth[r][c]][:UNSURE_GIVENS]
    cells = []
    for r, values in enumerate(read):
        for c, value in enumerate(values):
            if not value:
                cells.append(CellReading(r, c, CellKind.EMPTY, None, 0.99))
            elif (r, c) == (row, first):
                cells.append(CellReading(r, c, CellKind.GIVEN, value, 0.85, ((truth[r][c], 0.1),)))
            else:
                cells.append(
                    CellReading(r, c, CellKind.GIVEN, value, 0.7 if (r, c) in unsure else 0.99)
                )
    artifacts = Artifacts(stack.settings.data_dir)
    with transaction(sessions) as db:
        puzzle = db.scalars(select(Puzzle).join(Batch).where(Batch.public_id == batch_id)).one()
        board, board_path = load.stored_board(db, puzzle.id, artifacts)
        reading = BoardReading(GridShape(3, 3), tuple(cells))
        record_reading(db, puzzle.id, RecognisedBoard(board, reading), board_path, 0.0)
        internal_id, public_id = puzzle.id, str(puzzle.public_id)
    hand_over(make_celery(stack.settings), sessions, Step.SOLVE, [internal_id])

    def verdict() -> str | None:
        with sessions() as db:
            status = db.get_one(Puzzle, internal_id).status
        return status if status != "read" else None

    assert wait_until(verdict, BATCH_LIMIT, "the misread grid's verdict") == "unsolvable"
    return Misread(batch_id, public_id, row, first, truth[row][first])


def test_a_misread_digit_is_corrected_by_keyboard_and_the_puzzle_is_solved(
    stack: Stack, sessions: sessionmaker[Session], browser, screenshots: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    misread = seed_misread(stack, sessions)

    def shown(selector: str):
        def find():
            found = browser.find_elements(By.CSS_SELECTOR, selector)
            return found[0] if found else None

        return wait_until(find, PAGE_LIMIT, f"{selector} on {browser.current_url}", 0.2)

    browser.get(f"{stack.url}/ui/")
    assert browser.current_url.startswith(f"{stack.url}/ui/login")
    shown("#key").send_keys(stack.key + Keys.ENTER)
    shown(".batch-card")
    assert misread.batch_id in browser.page_source
    browser.save_screenshot(str(screenshots / "batches.png"))

    browser.get(f"{stack.url}/ui/batches/{misread.batch_id}?review=true")
    row = shown("table.puzzles tr.review")
    assert "unsolvable" in row.text
    browser.save_screenshot(str(screenshots / "batch.png"))

    browser.get(f"{stack.url}/ui/puzzles/{misread.puzzle_id}")
    assert shown("#verdict").text == "unsolvable"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".cell.doubtful")) == UNSURE_GIVENS + 1
    browser.save_screenshot(str(screenshots / "puzzle-unsolvable.png"))
    board = shown("#board")
    keys = [Keys.ARROW_DOWN] * misread.row + [Keys.ARROW_RIGHT] * misread.col
    board.send_keys(*keys, str(misread.true_digit))
    assert shown("#cell-pending").text.startswith(str(misread.true_digit))
    browser.save_screenshot(str(screenshots / "puzzle-correcting.png"))
    board.send_keys(Keys.ENTER)

    wait_until(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#verdict.solved"),
        PAGE_LIMIT,
        f"the corrected grid to be solved:\n{stack.logs()}",
        0.2,
    )
    assert shown("#solution")
    assert f"row {misread.row + 1}, column {misread.col + 1}" in shown("#history").text
    browser.save_screenshot(str(screenshots / "puzzle-solved.png"))

    with sessions() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == misread.puzzle_id)).one()
        (correction,) = db.scalars(
            select(CellCorrection).where(CellCorrection.puzzle_id == puzzle.id)
        )
        assert (correction.row, correction.col) == (misread.row, misread.col)
        assert (correction.old_digit, correction.new_digit) == (
            puzzle.givens[misread.row][misread.col],
            misread.true_digit,
        )
        assert puzzle.status == "solved"
    headers = {"Authorization": f"Bearer {stack.key}"}
    results = httpx.get(
        f"{stack.url}/batches/{misread.batch_id}/results", headers=headers, timeout=30
    ).json()["items"]
    assert [(r["status"], r["corrected"]) for r in results] == [("solved", True)]


IMG_NAME = "<img src=x onerror=alert(1)>.jpg"
SCRIPT_LABEL = "<script>alert('label')</script>"


def test_markup_in_names_labels_and_the_login_link_runs_no_script(
    stack: Stack, sessions: sessionmaker[Session], browser, screenshots: Path
) -> None:
    """A file named as an image with a handler, a batch labelled with a script, and a login
    link whose ``next`` closes the attribute and adds a script that corrects a cell (with the
    pages' header, as the pages' own script does): shown as text, nothing runs."""
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(25), givens=30)
    batch_id, (record,) = run_page(stack, IMG_NAME, page_of(generated.puzzle), SCRIPT_LABEL)
    puzzle_id = record["puzzle_id"]
    # Synchronous, so that had it run, the correction is stored before the page has loaded.
    attack = (
        "<script>var x = new XMLHttpRequest();"
        f"x.open('PATCH', '/puzzles/{puzzle_id}/cells/0/0', false);"
        "x.setRequestHeader('Content-Type', 'application/json');"
        "x.setRequestHeader('X-Sudoku-Batch-UI', '1');"
        "x.send(JSON.stringify({kind: 'blocked'})); alert('login')</script>"
    )

    def nothing_ran(where: str) -> None:
        # The driver's get() returns once the page has loaded, images (and their errors) too.
        try:
            text = browser.switch_to.alert.text
        except NoAlertPresentException:
            text = None
        assert text is None, f"a script ran on {where}: alert({text!r})"
        inline = browser.execute_script(
            "return [...document.scripts].filter((s) => !s.src).length"
            " + document.querySelectorAll('[onerror], [onload], [onclick]').length"
        )
        assert inline == 0, f"inline script or handler on {where}"

    browser.get(f"{stack.url}/ui/login")
    browser.find_element(By.ID, "key").send_keys(stack.key + Keys.ENTER)
    wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".batch-card"), PAGE_LIMIT, "/ui/")
    nothing_ran("/ui/")
    card = browser.find_element(By.CSS_SELECTOR, f'a[href="/ui/batches/{batch_id}"]')
    assert card.text == SCRIPT_LABEL
    browser.save_screenshot(str(screenshots / "markup-batches.png"))

    browser.get(f"{stack.url}/ui/batches/{batch_id}")
    nothing_ran("the batch page")
    assert browser.find_element(By.TAG_NAME, "h1").text == SCRIPT_LABEL
    assert browser.find_element(By.CSS_SELECTOR, "table.puzzles td a").text == IMG_NAME
    browser.save_screenshot(str(screenshots / "markup-batch.png"))

    browser.get(f"{stack.url}/ui/puzzles/{puzzle_id}")
    nothing_ran("the puzzle page")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith(f"{IMG_NAME}, page 1")
    assert browser.find_element(By.LINK_TEXT, SCRIPT_LABEL)
    browser.save_screenshot(str(screenshots / "markup-puzzle.png"))

    browser.get(f'{stack.url}/ui/login?next=/ui/">{quote(attack)}')
    nothing_ran("the crafted login link")
    assert browser.find_element(By.NAME, "next").get_attribute("value") == "/ui/"
    browser.save_screenshot(str(screenshots / "markup-login.png"))

    with sessions() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == puzzle_id)).one()
        assert not db.scalars(
            select(CellCorrection).where(CellCorrection.puzzle_id == puzzle.id)
        ).all()
