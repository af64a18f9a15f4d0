"""The book report's content: a summary of the batch and, per page, each grid with its verdict,
rating, answer-key and duplicate findings, and what to fix. Built from the results contract
(``store.results``), so the report says exactly what results.jsonl and the API say.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from sudoku_batch.pipeline.rating import LEVELS
from sudoku_batch.reports.grid_classes import cell_classes
from sudoku_batch.reports.review import certificate_counts, needs_review, review_reasons
from sudoku_batch.store.book_check import batch_findings
from sudoku_batch.store.models import Batch
from sudoku_batch.store.results import result_records

LOW_CONFIDENCE = 0.9  # a grid read less surely than this is listed for a look by eye
BROKEN_ANSWER = "this printed answer breaks the rules"


@dataclass
class GridSection:
    record: dict[str, Any]
    cells: list[list[dict[str, Any]]]  # rows of {text, kind, edges}: kind given, solved, ...
    fixes: list[str]
    answer_to: GridSection | None = None  # for a printed answer: its puzzle
    reasons: list[str] = field(default_factory=list)  # why it needs review; empty: it does not

    @property
    def title(self) -> str:
        r = self.record
        return f"{r['source']} page {r['page']} grid {r['index'] + 1}"

    @property
    def anchor(self) -> str:
        return f"p{self.record['page_id']}-{self.record['index']}"


@dataclass
class PageSection:
    source: str
    page: int | None
    status: str | None  # for a page with no grid: no_grid, failed, ...
    message: str | None
    grids: list[GridSection] = field(default_factory=list)


@dataclass
class BookReport:
    batch_label: str
    pages: int
    grids: int
    verdicts: dict[str, int]
    roles: dict[str, int]
    levels: list[tuple[str, int]]  # in the scale's order, unrated last
    ratings: list[tuple[str, int]]  # SE score bands 1.x, 2.x, ...
    mismatches: list[GridSection]
    duplicates: list[GridSection]
    low_confidence: list[GridSection]
    certified: int  # grids certified (pipeline.certify)
    needs_review: list[GridSection]  # grids not certified, with why
    unmatched_answers: list[GridSection]
    others: list[dict[str, Any]]  # records of grids that are no Sudoku, listed apart
    sections: list[PageSection]
    to_fix: int


def build_report(session: Session, batch_id: int) -> BookReport:
    records = result_records(session, batch_id)
    findings = batch_findings(session, batch_id)
    batch = session.get_one(Batch, batch_id)
    sections: list[PageSection] = []
    by_page: dict[tuple[str, int | None], PageSection] = {}
    grids: list[GridSection] = []
    others = [record for record in records if record.get("role") == "other"]
    for record in records:
        key = (record["source"], record["page"])
        if key not in by_page:
            grid_less = record["index"] is None
            by_page[key] = PageSection(
                record["source"],
                record["page"],
                record["status"] if grid_less else None,
                record["message"] if grid_less else None,
            )
            sections.append(by_page[key])
        if record["index"] is not None and record.get("role") == "other":
            continue  # no verdict to check: listed apart, never drawn
        if record["index"] is not None:
            grid = GridSection(
                record, grid_cells(record), fixes_of(record), reasons=review_reasons(record)
            )
            by_page[key].grids.append(grid)
            grids.append(grid)
    unmatched = set(findings.unmatched_answers) | set(findings.ambiguous_answers)
    by_id = {g.record["puzzle_id"]: g for g in grids}
    for grid in grids:
        if grid.record["puzzle_id"] in unmatched:
            grid.fixes.append("this printed answer fits no puzzle of the batch (or several)")
        puzzle = by_id.get(findings.answer_for.get(grid.record["puzzle_id"]))
        if puzzle is not None:
            _mark_answer(grid, puzzle)
    puzzles = [g for g in grids if g.record["role"] != "answer"]  # others are not in grids
    return BookReport(
        batch_label=batch.label or f"batch {batch.id}",
        pages=len(sections),
        grids=len(grids),
        verdicts=dict(Counter(g.record["status"] for g in grids)),
        roles=dict(Counter(g.record["role"] or "unknown" for g in grids)),
        levels=_level_histogram(puzzles),
        ratings=_rating_histogram(puzzles),
        mismatches=[
            g for g in grids if g.record["answer_key"] and not g.record["answer_key"]["matches"]
        ],
        duplicates=[g for g in grids if g.record["duplicate_of"]],
        low_confidence=[g for g in grids if _low_confidence(g.record)],
        certified=certificate_counts(records)[0],
        needs_review=[g for g in grids if needs_review(g.record)],
        unmatched_answers=[g for g in grids if g.record["puzzle_id"] in unmatched],
        others=others,
        sections=sections,
        to_fix=sum(1 for g in grids if g.fixes),
    )


def _mark_answer(answer: GridSection, puzzle: GridSection) -> None:
    """An answer paired with its puzzle: say whose it is, and mark and name its misprints."""
    key = puzzle.record["answer_key"]
    solution = puzzle.record["solution"] or []
    misprints = []
    for r, c in key["wrong_cells"]:
        answer.cells[r][c]["kind"] = "wrong"
        if solution:
            misprints.append(f"r{r + 1}c{c + 1} should be {_symbol(solution[r][c])}")
    if misprints:
        # The clash the solver reported is this misprint: say it in an editor's terms.
        answer.fixes[:] = ["misprinted: " + ", ".join(misprints)] + [
            fix for fix in answer.fixes if not fix.startswith(BROKEN_ANSWER)
        ]
    answer.answer_to = puzzle


def _level_histogram(puzzles: list[GridSection]) -> list[tuple[str, int]]:
    counts = Counter(g.record["level"] or "unrated" for g in puzzles)
    names = [name for name, _ in LEVELS] + ["unrated"]
    return [(name, counts.get(name, 0)) for name in names]


def _rating_histogram(puzzles: list[GridSection]) -> list[tuple[str, int]]:
    bands = Counter(int(g.record["rating"]) for g in puzzles if g.record["rating"] is not None)
    if not bands:
        return []
    return [(f"{band}.x", bands.get(band, 0)) for band in range(min(bands), max(bands) + 1)]


def _low_confidence(record: dict[str, Any]) -> bool:
    return record["confidence"] is not None and record["confidence"] < LOW_CONFIDENCE


def grid_cells(record: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The grid as printed, with the solution filled in faintly; a wrong printed answer's
    cells and the readings the solver set aside are marked, and each cell's region borders
    and diagonal (``edges``: ``reports.grid_classes``)."""
    givens, solution = record["givens"] or [], record["solution"]
    wrong = {tuple(c) for c in (record["answer_key"] or {}).get("wrong_cells", [])}
    doubted = {(d.get("row"), d.get("col")) for d in record["doubts"] or []}
    rows = []
    for r, row in enumerate(givens):
        cells = []
        for c, value in enumerate(row):
            if value is None:
                cells.append({"text": "", "kind": "blocked"})
            elif (r, c) in wrong:  # the printed answer differs here
                shown = value or (solution[r][c] if solution else 0)
                cells.append({"text": _symbol(shown), "kind": "wrong"})
            elif (r, c) in doubted:
                cells.append({"text": _symbol(value), "kind": "doubted"})
            elif value:
                cells.append({"text": _symbol(value), "kind": "given"})
            elif solution:
                cells.append({"text": _symbol(solution[r][c]), "kind": "solved"})
            else:
                cells.append({"text": "", "kind": "empty"})
        rows.append(cells)
    edges = cell_classes(record)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            cell["edges"] = edges[r][c] if edges else ""
    return rows


def suggested_fix(suggestion: dict[str, Any]) -> str:
    """The repaired reading of a printed puzzle with no solution, in an editor's terms."""
    changes = ", ".join(
        f"r{d['row'] + 1}c{d['col'] + 1} printed {_symbol(d['read'])}, "
        + (f"as {_symbol(d['replaced_by'])}" if d["replaced_by"] else "left empty")
        for d in suggestion["doubts"]
    )
    return f"suggested: with {changes}, it has one solution (a misprint, or a misread digit)"


def _symbol(value: int | None) -> str:
    return "" if not value else str(value)


def fixes_of(record: dict[str, Any]) -> list[str]:
    """What an editor should do about this grid, most serious first; empty: nothing."""
    fixes = []
    status, role, message = record["status"], record["role"], record["message"]
    if status == "unsolvable":
        what = BROKEN_ANSWER if role == "answer" else "no solution"
        fixes.append(f"{what}: {message}")
        if record.get("suggestion"):
            fixes.append(suggested_fix(record["suggestion"]))
    elif status == "multiple_solutions":
        fixes.append("more than one solution: add a given where the solutions differ")
    elif status == "timeout":
        fixes.append("the solver ran out of time: check the givens, or run with a longer timeout")
    elif status in ("failed", "pending"):
        fixes.append(f"{status}: {message or 'not finished'}")
    key = record["answer_key"]
    if key and not key["matches"]:
        cells = ", ".join(f"r{r + 1}c{c + 1}" for r, c in key["wrong_cells"])
        fixes.append(
            f"the printed answer ({key['source']} page {key['page']} grid {key['index'] + 1})"
            f" is wrong at {cells}"
        )
    copy = record["duplicate_of"]
    if copy:
        fixes.append(
            f"a copy (exact or disguised) of {copy['source']} page {copy['page']}"
            f" grid {copy['index'] + 1}: replace one of them"
        )
    if _low_confidence(record):
        fixes.append(f"read with low confidence ({record['confidence']:.2f}): check the givens")
    if record["doubts"]:
        fixes.append(f"{len(record['doubts'])} reading(s) set aside as contradictory: check them")
    return fixes
