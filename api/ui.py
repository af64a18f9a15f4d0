"""The review pages under ``/ui/``: batches with their progress, a batch's puzzles (filtered by
verdict or by what needs a person's look), and a puzzle's board with its readings, where a
cell can be corrected.

The send forms of ``/ui/`` are in ``api.ui_send``. Pages are rendered on the server (Jinja2,
``api/templates/``); one small script (``api/static/review.js``) moves round the grid by
keyboard and sends corrections to the API's own ``PATCH /puzzles/{id}/cells/{row}/{col}``,
then follows ``GET /puzzles/{id}`` until the new verdict is in. The login keeps the API key
in an HttpOnly cookie (``api.auth``), so the pages and the script's calls are the key's, as
any API client's.

Everything a page shows is escaped (autoescape on every template); the pages hold no inline
script, style or handler, so the policy of ``api.headers`` runs nothing else. The login and
logout forms carry a token that must equal the ``sudoku_batch_form`` cookie (a double-submit
token: another site can neither read the cookie nor, SameSite=Strict, send it).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote
from uuid import UUID

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader
from sqlalchemy.orm import Session

from sudoku_batch.api.auth import KEY_COOKIE, UI_HEADER, key_id_of
from sudoku_batch.api.deps import (
    AppSettings,
    Db,
    StoredFiles,
    owned_batch,
    owned_puzzle,
    public_puzzle_ids,
)
from sudoku_batch.api.submission import BOX_SHAPE
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.certify import CertifyPolicy, unsure_reading
from sudoku_batch.reports.board_lines import board_lines
from sudoku_batch.reports.grid_classes import cell_classes
from sudoku_batch.reports.review import certificate_counts, ink_counts, review_reasons
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.corrections import correction_history, latest_corrections
from sudoku_batch.store.models import Batch, Puzzle
from sudoku_batch.store.progress import batches_of_key, stage_progress
from sudoku_batch.store.progress_token import batch_progress
from sudoku_batch.store.results import puzzle_result, result_records

HERE = Path(__file__).parent
# Every template is HTML (``*.html.j2``, a suffix Jinja's default never escapes): escape all.
TEMPLATES = Jinja2Templates(
    env=Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
)
FORM_COOKIE = "sudoku_batch_form"
# Where a login may send the browser: a path of these pages, in URL path and query
# characters only (no scheme, host, backslash, quote, space or control character).
LOCAL_PATH = re.compile(r"/ui/[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*")
BATCHES_SHOWN = 100
PLAIN_CELL_PX = 60  # a cell of the grid drawn when no board image is stored
VERDICTS = (
    "solved",
    "unsolvable",
    "multiple_solutions",
    "timeout",
    "not_sudoku",
    "failed",
    "pending",
    "read",
)


class LoginNeeded(Exception):
    """A page asked for without a live key in the cookie: the answer is the login form."""


def _ui_key(request: Request) -> int:
    key = request.cookies.get(KEY_COOKIE)
    key_id = key_id_of(request, key) if key else None
    if key_id is None:
        raise LoginNeeded
    return key_id


KeyId = Annotated[int, Depends(_ui_key)]


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    """A page, with the form token its login or logout form sends (a new one if the browser
    has none yet)."""
    token = request.cookies.get(FORM_COOKIE)
    fresh = not token
    token = token or secrets.token_urlsafe(32)
    response = TEMPLATES.TemplateResponse(
        request, template, {"ui_header": UI_HEADER, "form_token": token, **context}
    )
    if fresh:
        _set_cookie(request, response, FORM_COOKIE, token)
    return response


def _set_cookie(request: Request, response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )


def check_form_token(request: Request, token: str) -> None:
    """403 unless the form's token is the browser's own: a form posted from another site
    (login or logout forced on the user) has none."""
    expected = request.cookies.get(FORM_COOKIE) or ""
    if not (expected and secrets.compare_digest(token.encode(), expected.encode())):
        raise HTTPException(403, "the form is stale or not from these pages: load it again")


FormToken = Annotated[str, Form(max_length=100)]


router = APIRouter(prefix="/ui", include_in_schema=False)
# The pages' script and style, mounted at ``/ui/static``.
STATIC = StaticFiles(directory=HERE / "static")


async def to_login(request: Request, _: LoginNeeded) -> RedirectResponse:
    """The answer to ``LoginNeeded``: the login form, then back to the page asked for."""
    return RedirectResponse(f"/ui/login?next={quote(request.url.path)}", status_code=303)


@router.get("/login")
def login_form(
    request: Request,
    next: Annotated[str, Query(max_length=2000)] = "/ui/",
    failed: bool = False,
) -> HTMLResponse:
    return page(request, "login.html.j2", next=_local(next), failed=failed)


@router.post("/login")
def login(
    request: Request,
    key: Annotated[str, Form(max_length=200)],
    form_token: FormToken = "",
    next: Annotated[str, Form(max_length=2000)] = "/ui/",
) -> RedirectResponse:
    check_form_token(request, form_token)
    if key_id_of(request, key.strip()) is None:
        return RedirectResponse(
            f"/ui/login?failed=true&next={quote(_local(next))}", status_code=303
        )
    response = RedirectResponse(_local(next), status_code=303)
    _set_cookie(request, response, KEY_COOKIE, key.strip())
    return response


@router.post("/logout")
def logout(request: Request, form_token: FormToken = "") -> RedirectResponse:
    check_form_token(request, form_token)
    response = RedirectResponse("/ui/login", status_code=303)
    response.delete_cookie(KEY_COOKIE, path="/")
    return response


@router.get("/")
def batches(request: Request, key_id: KeyId, db: Db) -> HTMLResponse:
    total, rows = batches_of_key(db, key_id, None, BATCHES_SHOWN, 0)
    listed = [
        {"batch": batch, "finished": done, "stages": stage_progress(db, batch.id)}
        for batch, done in rows
    ]
    return page(request, "batches.html.j2", batches=listed, total=total, box_pattern=BOX_SHAPE)


@router.get("/batches/{batch_id}")
def batch_page(
    request: Request,
    batch_id: UUID,
    key_id: KeyId,
    db: Db,
    verdict: Annotated[str | None, Query()] = None,
    review: bool = False,
) -> HTMLResponse:
    batch = owned_batch(db, batch_id, key_id)
    grids, not_read = _outcomes(db, batch)
    shown = [
        r
        for r in grids
        if (verdict is None or r["status"] == verdict) and (not review or r["reasons"])
    ]
    certified, needing_review = certificate_counts(grids)
    return page(
        request,
        "batch.html.j2",
        batch=batch,
        puzzles=shown,
        not_read=not_read,
        total=len(grids),
        certified=certified,
        needing_review=needing_review,
        verdict=verdict,
        review=review,
        verdicts=VERDICTS,
        stages=stage_progress(db, batch.id),
        finished=batch_progress(db, batch.id).finished,
    )


@router.get("/batches/{batch_id}/grids")
def batch_grids(request: Request, batch_id: UUID, key_id: KeyId, db: Db) -> HTMLResponse:
    """The batch's grids as the send form's script shows them while the batch runs: those
    that need review first, each solved one with its render; and the files and pages
    that could not be read, with their reasons."""
    batch = owned_batch(db, batch_id, key_id)
    grids, not_read = _outcomes(db, batch)
    grids.sort(key=lambda r: not r["reasons"])  # stable: input order within each
    return page(request, "_grids.html.j2", grids=grids, not_read=not_read)


@router.get("/puzzles/{puzzle_id}")
def puzzle_page(
    request: Request,
    puzzle_id: UUID,
    key_id: KeyId,
    db: Db,
    artifacts: StoredFiles,
    settings: AppSettings,
) -> HTMLResponse:
    puzzle, batch = owned_puzzle(db, puzzle_id, key_id)
    record = puzzle_result(db, puzzle.id)
    assert record is not None  # it was just found
    board = _board(puzzle, artifacts)
    return page(
        request,
        "puzzle.html.j2",
        batch=batch,
        puzzle=puzzle,
        record=record,
        board=board,
        cells=cells_shown(record, latest_corrections(db, puzzle.id), settings.certify_policy()),
        lines=board_lines(record, board["row_lines"], board["col_lines"], board["image"])
        if board
        else [],
        history=correction_history(db, puzzle.id),
        reasons=review_reasons(record),
        ink_counts=ink_counts(record.get("ink")),
        solution_classes=cell_classes(record),
    )


def _outcomes(db: Session, batch: Batch) -> tuple[list[dict], list[dict]]:
    """The batch's grids (with their public id and what makes them need review), and the
    records of files and pages that gave no grid (failed, or no grid found), in input order."""
    public = public_puzzle_ids(db, batch)
    grids, not_read = [], []
    for record in result_records(db, batch.id):
        if record.get("puzzle_id") is None:
            if record["status"] != "pending":
                not_read.append(record)
            continue
        public_id = public[record["puzzle_id"]]
        grids.append({**record, "public_id": public_id, "reasons": review_reasons(record)})
    return grids, not_read


def _board(puzzle: Puzzle, artifacts: Artifacts) -> dict[str, Any] | None:
    """Where the cells are drawn: on the stored board image, along its lattice; without one
    (an image gone from disk), on a plain grid of the puzzle's size."""
    stored = puzzle.board_image_path
    if stored and puzzle.lattice and artifacts.storage.exists(stored):
        width, height = artifacts.image_size(stored)
        return {"image": True, "width": width, "height": height, **puzzle.lattice}
    if not puzzle.size:
        return None
    lines = [PLAIN_CELL_PX * i for i in range(puzzle.size + 1)]
    side = lines[-1]
    return {"image": False, "width": side, "height": side, "row_lines": lines, "col_lines": lines}


def cells_shown(
    record: dict[str, Any], corrected: dict, policy: CertifyPolicy
) -> list[dict[str, Any]]:
    """Each cell as read, what it holds now (its latest correction), whether it is doubtful
    (the solver doubted it, or its reading as it stands keeps the grid from being certified),
    and what it solved to."""
    doubted = {(d["row"], d["col"]): d for d in record.get("doubts") or []}
    solution = record.get("solution")
    shown = []
    for cell in record["cells"]:
        place = (cell["row"], cell["col"])
        now = corrected.get(place)
        # A corrected cell is solved as certain (store.load.stored_reading).
        unsure = now is None and unsure_reading(CellKind(cell["kind"]), cell["confidence"], policy)
        shown.append(
            {
                **cell,
                "now_kind": str(now.kind) if now else cell["kind"],
                "now_digit": now.digit if now else cell["digit"],
                "corrected": now is not None,
                "doubt": doubted.get(place),
                "doubtful": place in doubted or unsure,
                "solved": solution[cell["row"]][cell["col"]] if solution else None,
            }
        )
    return shown


def _local(target: str) -> str:
    """Only a path of these pages (else ``/ui/``): a login never sends the browser to another
    site, whatever a browser makes of ``//host``, ``/\\host`` or a tab in a URL."""
    return target if LOCAL_PATH.fullmatch(target) and "//" not in target else "/ui/"
