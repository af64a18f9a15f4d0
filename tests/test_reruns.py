"""A run into a folder that already holds a batch: the same inputs, finished, do no work and
exit with the batch's code; other inputs become a batch of their own and the first one's
records stay (``results-N.jsonl``); ``export`` and ``report`` take the folder."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import psutil
from PIL import Image

from sudoku_batch.cli import main
from sudoku_batch.embedded import DATABASE_NAME, EmbeddedOptions, run_batch
from sudoku_batch.outcome import ExitCode
from tests.conftest import REPO_ROOT

CLI = [sys.executable, "-m", "sudoku_batch.cli"]
EXAMPLES = REPO_ROOT / "examples"


def _children_cpu() -> float:
    """CPU seconds of this process's finished children and theirs (each waited for)."""
    times = psutil.Process().cpu_times()
    return times.children_user + times.children_system


def _run_cli(argv: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    before = _children_cpu()
    done = subprocess.run(
        [*CLI, *argv], env={**os.environ}, capture_output=True, text=True, timeout=600
    )
    return done, _children_cpu() - before


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _pages(out: Path) -> list[tuple]:
    with sqlite3.connect(out / DATABASE_NAME) as db:
        return db.execute("select * from pages order by id").fetchall()


def test_a_finished_batch_run_again_does_no_work(tmp_path: Path) -> None:
    out = tmp_path / "out"
    bad = tmp_path / "notes.txt"  # a failed input, so the batch's exit code is not 0
    bad.write_text("no puzzle here\n")
    # Five more photos, so the pages' work stands well above the command's start-up (about a
    # third of the examples' alone), which a re-run pays too.
    photos = tmp_path / "photos"
    photos.mkdir()
    with Image.open(EXAMPLES / "photo.jpg") as photo:
        for quality in (70, 75, 80, 85, 90):  # other bytes: no cache of the first serves them
            photo.save(photos / f"again-{quality}.jpg", quality=quality)
    inputs = [str(EXAMPLES), str(photos), str(bad)]
    argv = ["run", *inputs, "--out", str(out), "--jobs", "2", "--no-progress"]
    first, first_cpu = _run_cli(argv)
    assert first.returncode == ExitCode.SOME_INPUTS_FAILED, first.stderr
    results, pages = (out / "results.jsonl").read_bytes(), _pages(out)

    again, again_cpu = _run_cli(argv)
    assert again.returncode == first.returncode, again.stderr
    assert "already done" in again.stdout and "nothing to do" in again.stdout
    assert "unsupported_input" in again.stdout  # the failure is told again, with its reason
    assert (out / "results.jsonl").read_bytes() == results
    assert _pages(out) == pages  # no page was touched
    # Eight pages read, rated and solved, against the listing and a look in the database:
    # a run that redid the pages would cost about as much as the first.
    assert again_cpu < first_cpu / 3, (first_cpu, again_cpu)


def _puzzle_lines(count: int) -> list[str]:
    """``count`` puzzles: a classic one with its digits relabelled, a different way each."""
    classic = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    rng = random.Random(30)
    lines = []
    for _ in range(count):
        digits = rng.sample("123456789", 9)
        lines.append("".join(c if c == "." else digits[int(c) - 1] for c in classic))
    return lines


def test_a_finished_text_batch_run_again_does_no_work(tmp_path: Path) -> None:
    out = tmp_path / "out"
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join([*_puzzle_lines(500), "12345"]) + "\n")  # one line fails
    argv = ["run", "--text", str(puzzles), "--out", str(out), "--jobs", "2", "--no-progress"]
    first, first_cpu = _run_cli(argv)
    assert first.returncode == ExitCode.SOME_INPUTS_FAILED, first.stderr
    assert "500 solved" in first.stdout
    results, pages = (out / "results.jsonl").read_bytes(), _pages(out)

    again, again_cpu = _run_cli(argv)
    assert again.returncode == first.returncode, again.stderr
    assert "batch 1 of these inputs is already done (501 line(s))" in again.stdout
    assert "nothing to do" in again.stdout and "malformed_text" in again.stdout
    assert (out / "results.jsonl").read_bytes() == results
    assert _pages(out) == pages
    with sqlite3.connect(out / DATABASE_NAME) as db:
        assert db.execute("select count(*) from batches").fetchone() == (1,)
    # 500 puzzles solved and rated, against reading the listing and the database: a run that
    # solved them again would cost about as much as the first.
    assert again_cpu < first_cpu / 3, (first_cpu, again_cpu)

    # A changed file is read and solved again, in the same batch.
    with puzzles.open("a") as more:
        more.write(_puzzle_lines(501)[-1] + "\n")
    assert main(argv) == ExitCode.SOME_INPUTS_FAILED
    records = _lines(out / "results.jsonl")
    assert len(records) == 502 and {r["batch_id"] for r in records} == {1}
    assert sum(r["status"] == "solved" for r in records) == 501


def test_two_batches_in_one_folder_keep_their_results(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    options = EmbeddedOptions(out, jobs=2, progress=False)
    photo = run_batch([EXAMPLES / "photo.jpg"], options)
    book = run_batch([EXAMPLES / "book.pdf"], options)
    assert (photo.batch_id, book.batch_id) == (1, 2)
    assert photo.results == out / "results.jsonl" and book.results == out / "results.jsonl"
    assert _lines(out / "results-1.jsonl") == photo.records
    assert _lines(out / "results-2.jsonl") == book.records == _lines(out / "results.jsonl")
    assert {r["source"] for r in photo.records} == {str(EXAMPLES / "photo.jpg")}
    assert {r["source"] for r in book.records} == {str(EXAMPLES / "book.pdf")}

    # The first inputs again: nothing to do, and results.jsonl stays the newest batch's.
    assert main(["run", str(EXAMPLES / "photo.jpg"), "--out", str(out), "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "batch 1 of these inputs is already done" in said
    assert f"results: {out / 'results-1.jsonl'}" in said
    assert _lines(out / "results.jsonl") == book.records

    # --restart redoes the first batch alone; the second's records stay.
    assert main(["run", str(EXAMPLES / "photo.jpg"), "--out", str(out), "--restart"]) == 0
    assert not (out / "results-1.jsonl").exists()
    assert _lines(out / "results-2.jsonl") == book.records


def test_export_takes_an_output_folder_and_writes_its_newest_batch(tmp_path: Path) -> None:
    out = tmp_path / "out"
    options = EmbeddedOptions(out, jobs=1, progress=False)
    run_batch([EXAMPLES / "photo.jpg"], options)
    (tmp_path / "elsewhere").mkdir()
    # A text input starts a second batch in the folder.
    puzzles = tmp_path / "elsewhere" / "one.txt"
    puzzles.write_text(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
    )
    assert main(["run", "--text", str(puzzles), "--out", str(out), "--no-progress"]) == 0
    exported = tmp_path / "exports" / "newest.jsonl"
    assert main(["export", str(out), "--out", str(exported)]) == 0
    assert exported.read_text() == (out / "results.jsonl").read_text()
    assert [r["source"] for r in _lines(exported)] == [str(puzzles)]
    table = tmp_path / "exports" / "newest.csv"
    assert main(["export", str(out), "--format", "csv", "--out", str(table)]) == 0
    assert len(table.read_text().splitlines()) == 2  # the header and the one puzzle
