"""What a batch came to, told two ways: a summary line for people and an exit code for
scripts, in the manner of OCRmyPDF. ``run``, ``submit`` and ``solve-text`` all end here.

Files, pages and grids are counted apart: a file that could not be read is a failure, not a
grid, and a page with no grid is a page, not a failure.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.reports.review import certificate_counts, needs_review


class ExitCode(IntEnum):
    """Exit codes of ``run``, ``submit`` and ``solve-text`` (documented in README.md and
    docs/errors.md; the higher-priority code wins when several apply: 130, 1, 3, 4, 5, 6)."""

    OK = 0  # every input read, every grid found solved and certified
    INTERNAL_ERROR = 1  # a bug in sudoku-batch (a traceback says where)
    BAD_ARGS = 2  # bad arguments or settings; nothing was done
    # the database, the API or an engine cannot be reached or started, or the output folder
    # cannot be written (no space left, read-only)
    UNAVAILABLE = 3
    SOME_INPUTS_FAILED = 4  # some file, zip member or page could not be read or processed
    SOME_NOT_SOLVED = (
        5  # every input read, but some page had no grid or some grid no unique solution
    )
    # every grid solved, but some solution is not certified (pipeline.certify): the output is
    # all there, as OCRmyPDF's 10 says of a PDF/A conversion that fell short
    SOME_NEED_REVIEW = 6
    INTERRUPTED = 130  # Ctrl-C or SIGTERM: run the same command again to resume


# Codes of input units refused at listing (pipeline.ingest), before any page is read.
REFUSALS = frozenset(
    {"unreadable_input", "unsupported_input", "too_large", "encrypted", "unsafe_path"}
)
NOT_SOLVED = frozenset({"no_grid", "unsolvable", "multiple_solutions", "timeout"})


def exit_code(records: Iterable[dict[str, Any]], interrupted: bool = False) -> ExitCode:
    """The exit code of a batch's result records (the results.jsonl contract)."""
    records = list(records)
    statuses = {record["status"] for record in records}
    if interrupted or statuses & {"interrupted", "pending"}:
        return ExitCode.INTERRUPTED
    if "failed" in statuses:
        return ExitCode.SOME_INPUTS_FAILED
    if statuses & NOT_SOLVED:
        return ExitCode.SOME_NOT_SOLVED
    if any(needs_review(record) for record in records):
        return ExitCode.SOME_NEED_REVIEW
    return ExitCode.OK


def summarise(records: list[dict[str, Any]]) -> str:
    """One line: files, pages and grids counted apart, grid verdicts, grids certified and
    needing review, pages without a grid, and failures by error code."""
    # Counted from the contract's own fields, so the API's records (which carry no row ids)
    # count as results.jsonl's do.
    files = {_file_of(record["source"]) for record in records}
    # A file or member refused before it was opened as pages is a failure, not a page.
    pages = {
        (record["source"], record["page"])
        for record in records
        if record["page"] is not None and record.get("error_code") not in REFUSALS
    }
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
    certified, review = certificate_counts(grids)
    if certified or review:
        parts.append(f"{certified} certified, {review} need(s) review")
    if no_grid:
        parts.append(f"{no_grid} page(s) with no grid")
    if failures:
        detail = ", ".join(f"{n} {code}" for code, n in failures.most_common())
        parts.append(f"{sum(failures.values())} failure(s) ({detail})")
    return "; ".join(parts)


def summary_lines(records: list[dict[str, Any]], results: str) -> list[str]:
    """The summary, then each failed input (``failure_lines``)."""
    return [summarise(records), *failure_lines(records, results)]


def failure_lines(
    records: list[dict[str, Any]], results: str, limit: int | None = None
) -> list[str]:
    """Each failed input with its code and message, as many as fit a screen (``limit``
    lines), then how many more ``results`` holds."""
    failed = [record for record in records if record["status"] == "failed"]
    if limit is None:
        limit = max(5, shutil.get_terminal_size().lines - 6)  # room for the summary lines
    shown = failed if len(failed) <= limit else failed[: limit - 1]
    lines = [f"  {record['error_code']}: {_with_where(record)}" for record in shown]
    if len(shown) < len(failed):
        lines.append(f"  ... and {len(failed) - len(shown)} more failure(s) in {results}")
    return lines


def _with_where(record: dict[str, Any]) -> str:
    """The record's message, led by its input (and page, grid) unless it names them."""
    message = record["message"] or ""
    if message.startswith(record["source"]):  # refusals name their input
        return message
    where = record["source"]
    if record.get("page") is not None:
        where += f" page {record['page']}"
    if record.get("index") is not None:
        where += f" grid {record['index'] + 1}"
    return f"{where}: {message}"


# Errors that stop a command before or outside any one input (see cli.main).
_EXIT_OF_CODE = {
    "bad_arguments": ExitCode.BAD_ARGS,
    "invalid_setting": ExitCode.BAD_ARGS,
    "unknown_queue": ExitCode.BAD_ARGS,
    "flower_auth_missing": ExitCode.BAD_ARGS,
    "api_key": ExitCode.BAD_ARGS,
    "database_unavailable": ExitCode.UNAVAILABLE,
    "api_error": ExitCode.UNAVAILABLE,
    "engine_unavailable": ExitCode.UNAVAILABLE,
    "storage_full": ExitCode.UNAVAILABLE,
    "storage_unavailable": ExitCode.UNAVAILABLE,
    "internal_error": ExitCode.INTERNAL_ERROR,
}


def exit_code_of_error(error: SudokuBatchError) -> ExitCode:
    """The exit code of an error that ended a command: an input's error (e.g. solve-text's
    one file unreadable) is an input that failed."""
    return _EXIT_OF_CODE.get(error.code, ExitCode.SOME_INPUTS_FAILED)


def _file_of(source: str) -> str:
    """The input file a record's source is in: ``book.zip`` for ``book.zip/p1.png``."""
    archive = source.find(".zip/")
    return source if archive < 0 else source[: archive + len(".zip")]
