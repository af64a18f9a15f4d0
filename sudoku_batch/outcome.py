"""What a batch came to, told two ways: a summary line for people and an exit code for
scripts, in the manner of OCRmyPDF. ``run``, ``submit`` and ``solve-text`` all end here.

Files, pages and grids are counted apart: a file that could not be read is a failure, not a
grid, and a page with no grid is a page, not a failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    """Exit codes of ``run``, ``submit`` and ``solve-text`` (documented in README.md and
    docs/errors.md; the higher-priority code wins when several apply: 130, 1, 3, 4, 5)."""

    OK = 0  # every grid found was solved, every input read
    INTERNAL_ERROR = 1  # a bug in sudoku-batch (a traceback says where)
    BAD_ARGS = 2  # bad arguments or settings; nothing was done
    UNAVAILABLE = 3  # the database, the API or an engine cannot be reached or started
    SOME_INPUTS_FAILED = 4  # some file, zip member or page could not be read or processed
    SOME_NOT_SOLVED = (
        5  # every input read, but some page had no grid or some grid no unique solution
    )
    INTERRUPTED = 130  # Ctrl-C or SIGTERM: run the same command again to resume


NOT_SOLVED = frozenset({"no_grid", "unsolvable", "multiple_solutions", "timeout"})


def exit_code(records: Iterable[dict[str, Any]], interrupted: bool = False) -> ExitCode:
    """The exit code of a batch's result records (the results.jsonl contract)."""
    statuses = {record["status"] for record in records}
    if interrupted or statuses & {"interrupted", "pending"}:
        return ExitCode.INTERRUPTED
    if "failed" in statuses:
        return ExitCode.SOME_INPUTS_FAILED
    if statuses & NOT_SOLVED:
        return ExitCode.SOME_NOT_SOLVED
    return ExitCode.OK


def summarise(records: list[dict[str, Any]]) -> str:
    """One line: files, pages and grids counted apart, grid verdicts, pages without a grid,
    and failures by error code."""
    files = {record["input_file_id"] for record in records}
    pages = {record["page_id"] for record in records if record["page_id"] is not None}
    grids = [record for record in records if record.get("puzzle_id") is not None]
    verdicts = Counter(record["status"] for record in grids)
    unfinished = [record for record in records if record.get("puzzle_id") is None]
    no_grid = sum(record["status"] == "no_grid" for record in unfinished)
    failures = Counter(
        record["error_code"] or record["status"]
        for record in records
        if record["status"] in ("failed", "interrupted", "pending")
    )
    parts = [
        f"{len(files)} file(s), {len(pages)} page(s), {len(grids)} grid(s)"
        + (
            ": " + ", ".join(f"{n} {status}" for status, n in verdicts.most_common())
            if grids
            else ""
        )
    ]
    if no_grid:
        parts.append(f"{no_grid} page(s) with no grid")
    if failures:
        detail = ", ".join(f"{n} {code}" for code, n in failures.most_common())
        parts.append(f"{sum(failures.values())} failure(s) ({detail})")
    return "; ".join(parts)
