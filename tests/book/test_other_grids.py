"""A book that prints other grids beside its puzzles, through a real embedded run: a 9x9 and a
16x16 puzzle, a page of their hints grids (solving-order numbers), a page with a number table
and a calendar, and a page of their answers. Only the two puzzles are counted as puzzles, both
answers pair with them and match, the other grids are listed apart, and the run exits 0."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.outcome import ExitCode, exit_code, summarise
from sudoku_batch.synth.other_grids import mixed_book
from sudoku_batch.synth.pdf import write_jpeg_pdf


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    book = mixed_book(np.random.default_rng(27))
    folder = tmp_path_factory.mktemp("mixed")
    write_jpeg_pdf(folder / "book.pdf", iter(book.pages), 150)
    run = run_batch([folder / "book.pdf"], EmbeddedOptions(folder / "run", jobs=2, progress=False))
    return {(r["page"], r["index"]): r for r in run.records}


def test_exactly_the_puzzles_are_counted_and_every_answer_pairs_and_matches(mixed_run) -> None:
    puzzles = {key for key, r in mixed_run.items() if r["role"] == "puzzle"}
    answers = {key for key, r in mixed_run.items() if r["role"] == "answer"}
    assert puzzles == {(1, 0), (1, 1)}
    assert answers == {(4, 0), (4, 1)}
    for key in puzzles:
        record = mixed_run[key]
        assert record["status"] == "solved", (key, record["message"])
        assert record["answer_key"]["matches"] is True
        assert record["answer_key"]["page"] == 4
    assert {mixed_run[key]["answer_key"]["index"] for key in puzzles} == {0, 1}


def test_other_grids_get_no_verdict_and_leave_the_exit_code_alone(mixed_run) -> None:
    others = {key: r for key, r in mixed_run.items() if r["role"] == "other"}
    # The hints page's two grids and the number table; and the calendar wherever the finder
    # takes its 7-column lattice for a grid. Whether it does, and as what lattice, depends on
    # the fonts installed (synth.fonts draws with what the machine has; with DejaVu alone it
    # is a 4x4 whose cells cut across the dates, tests/pipeline/test_grid_kind.py): found, it
    # is another grid like the rest of pages 2-3.
    assert {(2, 0), (2, 1), (3, 0)} <= set(others) <= {(2, 0), (2, 1), (3, 0), (3, 1)}
    assert set(others) == {key for key in mixed_run if key[0] in (2, 3)}
    for key, record in others.items():
        assert record["status"] == "not_sudoku"
        assert record["error_code"] == "not_sudoku"
        assert record["message"].startswith("not a Sudoku"), record["message"]
        # The calendar's reason depends on the lattice measured: lines crossing its cells,
        # cells holding no one symbol, or numbers beyond its size.
        if key != (3, 1):
            assert "numbers beyond" in record["message"], record["message"]
        assert record["rating"] is None and record["render_path"] is None
        assert record["answer_key"] is None and record["duplicate_of"] is None
    records = list(mixed_run.values())
    assert exit_code(records) is ExitCode.OK
    assert f"{len(others)} not_sudoku" in summarise(records)


def test_the_book_report_lists_other_grids_apart(mixed_run, tmp_path: Path) -> None:
    from sudoku_batch.cli import main

    out = Path(next(iter(mixed_run.values()))["source"]).parent / "run"
    html = tmp_path / "report.html"
    assert main(["report", str(out), "--out", str(html)]) == 0
    text = html.read_text()
    others = sum(r["role"] == "other" for r in mixed_run.values())
    assert others >= 3 and f"Other grids ({others})" in text
