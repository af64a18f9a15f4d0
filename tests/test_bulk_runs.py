"""Bulk runs a user can trust (issue 10), through the embedded runner as a user starts it:
every bad input accounted for within bounded memory, a killed worker costing one page, and an
interrupted run resumed to the rows an uninterrupted one writes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from sudoku_batch.outcome import ExitCode
from tests.bad_inputs import make_corpus
from tests.conftest import REPO_ROOT
from tests.watch import run_watched

CLI = [sys.executable, "-m", "sudoku_batch.cli"]
ENV = {**os.environ, "OMP_NUM_THREADS": "1"}
RSS_LIMIT = 2 << 30
EXAMPLES = REPO_ROOT / "examples"


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_every_bad_input_gets_a_record_and_the_good_beside_them_are_solved(
    tmp_path: Path,
) -> None:
    corpus = make_corpus(tmp_path / "in")
    out = tmp_path / "out"
    argv = [*CLI, "run", *map(str, corpus.inputs), "--out", str(out), "--jobs", "2"]
    run = run_watched([*argv, "--no-progress"], timeout=300, env=ENV)
    assert run.returncode == ExitCode.SOME_INPUTS_FAILED, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    records = _records(out)
    assert not [r for r in records if r["error_code"] == "internal_error"]
    for kind in corpus.kinds:
        mine = [r for r in records if r["source"] == kind.label]
        assert mine, f"no record for {kind.name} ({kind.label})"
        for record in mine:
            assert (record["error_code"] or record["status"]) in kind.codes, (kind, record)
            if record["status"] == "failed":
                assert record["message"] and kind.label.split("/")[-1] in record["message"]
    for label in corpus.good:
        mine = [r for r in records if r["source"] == label]
        assert mine and all(r["status"] == "solved" for r in mine), (label, mine)
    assert run.peak_rss < RSS_LIMIT, f"peak RSS {run.peak_rss / 2**20:.0f} MiB"
    # On screen, under the summary: each failure with its code and message, a screenful.
    failed = [r for r in records if r["status"] == "failed"]
    listed = [line for line in run.stdout.splitlines() if line.startswith("  ")]
    assert listed[-1] == f"  ... and {len(failed) - len(listed) + 1} more failure(s) in " + str(
        out / "results.jsonl"
    )
    for line, record in zip(listed[:-1], failed, strict=False):
        assert line.startswith(f"  {record['error_code']}: ") and record["message"] in line


def _pool_workers(process: psutil.Process) -> list[psutil.Process]:
    return [
        child
        for child in process.children(recursive=True)
        if "resource_tracker" not in " ".join(child.cmdline())
    ]


PHOTOS = 10


def test_a_killed_pool_process_fails_only_the_page_it_held(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for number in range(PHOTOS):
        (inputs / f"photo{number}.jpg").write_bytes((EXAMPLES / "photo.jpg").read_bytes())
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_one_busy_worker(process: psutil.Popen) -> None:
        database = out / "sudoku-batch.sqlite"
        if killed or not database.exists():
            return
        try:
            with sqlite3.connect(database, timeout=1) as db:
                done = db.execute("select count(*) from pages where status = 'done'").fetchone()
        except sqlite3.Error:
            return
        # The workers have their engines and are mid-page; with at least 4 pages left both
        # hold one, so the busiest is not one idle after the last page.
        if 1 <= done[0] <= PHOTOS - 4:
            busy = max(_pool_workers(process), key=lambda p: p.cpu_percent(0.1), default=None)
            if busy is not None:
                busy.send_signal(signal.SIGKILL)
                killed.append(busy.pid)

    argv = [*CLI, "run", str(inputs), "--out", str(out), "--jobs", "2", "--no-progress"]
    run = run_watched(argv, timeout=300, env=ENV, while_running=kill_one_busy_worker)
    assert killed, "no worker was killed"
    records = _records(out)
    crashed = [r for r in records if r["error_code"] == "worker_crashed"]
    assert len(crashed) == 1, records
    assert "died (killed by SIGKILL" in crashed[0]["message"]
    assert sorted(r["status"] for r in records) == ["failed"] + ["solved"] * (PHOTOS - 1)
    assert run.returncode == ExitCode.SOME_INPUTS_FAILED


COMPARED = ("source", "page", "index", "status", "size", "box", "givens", "solution", "error_code")


def _rows(records: list[dict]) -> list[tuple]:
    return sorted(tuple(json.dumps(r[key]) for key in COMPARED) for r in records)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("book")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_batch.synth.book",
            str(folder),
            "--pages",
            "6",
            "--seed",
            "3",
            "--dpi",
            "150",
        ],
        check=True,
        cwd=REPO_ROOT,
    )
    return folder / "book.pdf"


def test_an_interrupted_run_resumes_to_the_rows_of_an_uninterrupted_one(
    book: Path, tmp_path: Path
) -> None:
    whole = tmp_path / "whole"
    first = subprocess.run(
        [*CLI, "run", str(book), "--out", str(whole), "--jobs", "2", "--no-progress"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert first.returncode in (ExitCode.OK, ExitCode.SOME_NOT_SOLVED), first.stderr

    out = tmp_path / "resumed"
    argv = [*CLI, "run", str(book), "--out", str(out), "--jobs", "2", "--no-progress"]
    process = subprocess.Popen(
        argv, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    database = out / "sudoku-batch.sqlite"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with sqlite3.connect(database, timeout=1) as db:
                done = db.execute("select count(*) from pages where status != 'pending'")
                if done.fetchone()[0] >= 2:
                    break
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == ExitCode.INTERRUPTED, stderr
    interrupted = _records(out)
    statuses = {r["status"] for r in interrupted}
    assert "interrupted" in statuses, interrupted
    done_before = {r["page"] for r in interrupted if r["status"] != "interrupted"}
    assert done_before

    again = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=600)
    assert again.returncode == first.returncode, again.stderr
    assert f"{len(done_before)} page(s) were already done" in again.stdout
    assert _rows(_records(out)) == _rows(_records(whole))
    with sqlite3.connect(database) as db:
        assert db.execute("select count(*) from batches").fetchone()[0] == 1
        # The finished pages were not redone: one rectify run each, as written the first time.
        pages = db.execute("select count(*) from pages").fetchone()[0]
    assert pages == len({r["page"] for r in _records(whole)})


def test_restart_starts_over_in_one_batch(tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = [
        *CLI,
        "run",
        str(EXAMPLES / "photo.jpg"),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--no-progress",
    ]
    for extra in ([], ["--restart"]):
        done = subprocess.run([*argv, *extra], env=ENV, capture_output=True, text=True)
        assert done.returncode == ExitCode.OK, done.stderr
    with sqlite3.connect(out / "sudoku-batch.sqlite") as db:
        assert db.execute("select count(*) from batches").fetchone()[0] == 1
    assert len(list((out / "renders").glob("*.jpg"))) == 1
