"""The book check through a real embedded run of a synthetic book: three puzzle pages (one
holding a disguised copy of a puzzle on the first) and an answer page with one misprint.
Exactly that puzzle and cell are flagged, the copy is found, and the report and answer key are
written from the run's folder; the report opens in headless Chromium without console errors.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from sudoku_batch.cli import main
from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.rating import LEVELS
from sudoku_batch.reports.pdf import find_chromium
from sudoku_batch.synth.answer_pages import answer_grid, disguise
from sudoku_batch.synth.book import ScanStyle, draw_page, scan, write_book
from sudoku_batch.synth.unique import unique_puzzle
from tests.book.headless import open_page
from tests.conftest import REPO_ROOT

NINE = GridShape(3, 3)
GENTLE_SCAN = ScanStyle(0.5, 0.3, 1.0, 0.05, 20, (85, 92))
ARTIFACTS = REPO_ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def book_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, tuple[int, int]]:
    rng = np.random.default_rng(14)
    first, second, third = (unique_puzzle(NINE, rng, givens=28) for _ in range(3))
    copy = disguise(first, rng)
    assert copy.puzzle.givens != first.puzzle.givens
    # The misprint falls on a cell the puzzle leaves empty (a misprinted given is another kind
    # of error: the answer would then fit no puzzle).
    wrong = next((4, c) for c in range(9) if second.puzzle.givens[4][c] == 0)
    answers = [answer_grid(first), answer_grid(second, wrong), answer_grid(third)]
    pages = [[first, second], [copy, third], answers]
    scanned, number = [], 1
    for page_number, puzzles in enumerate(pages, start=1):
        page = draw_page(puzzles, rng, number=page_number, dpi=150, first_puzzle=number)
        scanned.append(scan(page, rng, GENTLE_SCAN))
        number += len(puzzles)
    book = tmp_path_factory.mktemp("book")
    write_book(book, scanned, dpi=150)
    out = tmp_path_factory.mktemp("run")
    run = run_batch([book / "book.pdf"], EmbeddedOptions(out, jobs=2, progress=False))
    records = {(r["page"], r["index"]): r for r in run.records}
    return out, records, wrong


def test_every_grid_is_read_and_given_its_role(book_run) -> None:
    _, records, _ = book_run
    assert set(records) == {(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)}
    roles = {key: r["role"] for key, r in records.items()}
    assert [key for key, role in roles.items() if role == "answer"] == [(3, 0), (3, 1), (3, 2)]
    for key in ((1, 0), (1, 1), (2, 0), (2, 1)):
        record = records[key]
        assert record["status"] == "solved", (key, record["message"])
        assert record["rating"] is not None and 1.0 <= record["rating"] <= 12
        assert record["level"] in {name for name, _ in LEVELS}
        assert record["techniques"], key


def test_exactly_the_misprinted_puzzle_and_cell_are_flagged(book_run) -> None:
    _, records, wrong = book_run
    keys = {key: r["answer_key"] for key, r in records.items() if r["answer_key"]}
    source = records[(1, 0)]["source"]
    assert keys == {
        (1, 0): {"source": source, "page": 3, "index": 0, "matches": True, "wrong_cells": []},
        (1, 1): {
            "source": source,
            "page": 3,
            "index": 1,
            "matches": False,
            "wrong_cells": [list(wrong)],
        },
        (2, 1): {"source": source, "page": 3, "index": 2, "matches": True, "wrong_cells": []},
    }


def test_the_disguised_copy_is_found_and_nothing_else(book_run) -> None:
    _, records, _ = book_run
    copies = {key: r["duplicate_of"] for key, r in records.items() if r["duplicate_of"]}
    assert copies == {(2, 0): {"source": records[(1, 0)]["source"], "page": 1, "index": 0}}


def test_results_jsonl_carries_the_contract_fields(book_run) -> None:
    out, _, _ = book_run
    fields = {"rating", "techniques", "level", "role", "answer_key", "duplicate_of"}
    for line in (out / "results.jsonl").read_text().splitlines():
        assert fields | {"printed_label", "printed_number"} <= json.loads(line).keys()


def test_the_printed_puzzle_numbers_reach_the_results(book_run) -> None:
    # synth.book prints "Puzzle N  Level" over every grid, numbered through the book.
    _, records, _ = book_run
    numbers = {key: r["printed_number"] for key, r in records.items()}
    assert numbers == {(1, 0): 1, (1, 1): 2, (2, 0): 3, (2, 1): 4, (3, 0): 5, (3, 1): 6, (3, 2): 7}


def test_answer_key_pdf_holds_every_solved_puzzle(book_run, tmp_path: Path) -> None:
    out, records, _ = book_run
    pdf = tmp_path / "key.pdf"
    assert main(["answer-key", str(out), "--out", str(pdf)]) == 0
    pages = pdfium.PdfDocument(pdf)
    assert len(pages) == 1  # four 9x9 solutions, six a page
    tokens = pages[0].get_textpage().get_text_range().split()
    for key in ((1, 0), (1, 1), (2, 0), (2, 1)):
        digits = [str(v) for row in records[key]["solution"] for v in row]
        assert any(tokens[i : i + 81] == digits for i in range(len(tokens))), key


@pytest.mark.skipif(find_chromium() is None, reason="no chromium (Debian package) installed")
def test_the_report_opens_in_headless_chromium_without_console_errors(book_run) -> None:
    out, _, wrong = book_run
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    html, pdf, png = (ARTIFACTS / f"book_report.{ext}" for ext in ("html", "pdf", "png"))
    png.unlink(missing_ok=True)
    assert main(["report", str(out), "--out", str(html), "--pdf", str(pdf)]) == 0
    opened = open_page(html, png)
    assert opened.console == []
    assert "Answer-key mismatches (1)" in opened.dom
    assert "Duplicates (1)" in opened.dom
    assert f"is wrong at r5c{wrong[1] + 1}" in opened.dom
    assert f"misprinted: r5c{wrong[1] + 1} should be" in opened.dom
    assert "printed No. 2" in opened.dom
    assert png.stat().st_size > 10_000 and pdf.read_bytes().startswith(b"%PDF")


def test_the_report_command_says_so_when_chromium_is_absent(
    book_run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    out, _, _ = book_run
    monkeypatch.setattr(shutil, "which", lambda name: None)
    html, pdf = tmp_path / "r.html", tmp_path / "r.pdf"
    assert main(["report", str(out), "--out", str(html), "--pdf", str(pdf)]) == 0
    assert html.is_file() and not pdf.exists()
    assert "no PDF written" in capsys.readouterr().err


def test_the_report_counts_grids_certified_and_needing_review(book_run, tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    out, records, _ = book_run
    assert all(r["certified"] is not None for r in records.values())
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    # One grid made to need review, so both counts are told apart.
    engine = create_engine(f"sqlite:///{copy / 'sudoku-batch.sqlite'}")
    reasons = json.dumps([{"code": "doubted_reading", "message": "r5c5 read 8 set aside"}])
    with engine.begin() as db:
        db.execute(
            text(
                "UPDATE puzzles SET certified = 0, review_reasons = :reasons"
                " WHERE id = (SELECT MIN(id) FROM puzzles)"
            ),
            {"reasons": reasons},
        )
    engine.dispose()
    html = tmp_path / "report.html"
    assert main(["report", str(copy), "--out", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    certified = sum(r["certified"] is True for r in records.values()) - 1
    needing = sum(r["certified"] is False and r["status"] != "not_sudoku" for r in records.values())
    assert f'<td id="certified">{certified}</td>' in page
    assert f'id="needs-review" class="bad">{needing + 1}</td>' in page
    assert "r5c5 read 8 set aside" in page
