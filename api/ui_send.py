"""The pages' send forms: files (photos, PDFs, zips) or text puzzles as a new batch, through the
same ``api.submission.Submission`` as ``POST /batches`` and ``POST /text-batches``.

A form is refused before its body is read when another site's page sent it or the browser is
not logged in (``api.auth.PageFormBeforeBody``), and once read unless its token is the
browser's own (``api.ui.check_form_token``). A file that cannot be read is recorded as failed
with its reason and the others go through (``each_alone``). The pages' script sends the form
with ``X-Sudoku-Batch-UI`` and gets JSON (as the API answers) to follow the batch on the page;
a browser without script gets the batch's page (303), or a page of reasons if no file could
be read.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile as StarletteUpload

from sudoku_batch.api.auth import UI_HEADER, PageFormBeforeBody
from sudoku_batch.api.deps import Submit
from sudoku_batch.api.schemas import Submitted
from sudoku_batch.api.submission import BOX_SHAPE, Label, NothingReadable, box_shape
from sudoku_batch.api.ui import FormToken, check_form_token, page
from sudoku_batch.jobs.table import Step

TYPED_NAME = "typed.txt"  # the name the text area's puzzles are stored and reported under
# Starlette holds a form field (the text area) to 1 MB; larger text goes as a .txt file.
MAX_TYPED = 2**20
# A file input left empty sends one part without a file name, which arrives as "".
Chosen = Annotated[list[UploadFile | str], File()]
OptionalBox = Annotated[str, Form(pattern=f"^({BOX_SHAPE})?$")]


def _chosen(files: list[UploadFile | str]) -> list[StarletteUpload]:
    """The files a person chose."""
    return [f for f in files if isinstance(f, StarletteUpload) and f.filename]


def _answer(request: Request, send: Callable[[], Submitted]) -> Response:
    scripted = UI_HEADER in request.headers
    try:
        submitted = send()
    except NothingReadable as refused:
        if scripted:
            files = [f.model_dump() for f in refused.files]
            body = {"detail": refused.detail, "input_files": files}
            return JSONResponse(body, status_code=refused.status_code)
        answer = page(request, "not_sent.html.j2", files=refused.files)
        answer.status_code = refused.status_code
        return answer
    if scripted:
        return JSONResponse(submitted.model_dump(mode="json"), status_code=201)
    return RedirectResponse(f"/ui/batches/{submitted.batch_id}", status_code=303)


router = APIRouter(prefix="/ui", route_class=PageFormBeforeBody, include_in_schema=False)


@router.post("/batches")
def send_files(
    request: Request,
    submit: Submit,
    files: Chosen = [],  # noqa: B006 (FastAPI copies defaults)
    form_token: FormToken = "",
    label: Label = None,
) -> Response:
    check_form_token(request, form_token)
    chosen = _chosen(files)
    if not chosen:
        raise HTTPException(422, "choose at least one file")
    key_id = request.state.key_id
    return _answer(
        request, lambda: submit(chosen, label or None, key_id, Step.INGEST, each_alone=True)
    )


@router.post("/text-batches")
def send_text(
    request: Request,
    submit: Submit,
    files: Chosen = [],  # noqa: B006 (FastAPI copies defaults)
    text: Annotated[str, Form(max_length=MAX_TYPED)] = "",
    box: OptionalBox = "",
    form_token: FormToken = "",
    label: Label = None,
) -> Response:
    check_form_token(request, form_token)
    chosen = _chosen(files)
    if text.strip():
        typed = text.encode("utf-8")
        chosen.insert(0, UploadFile(io.BytesIO(typed), size=len(typed), filename=TYPED_NAME))
    if not chosen:
        raise HTTPException(422, "type puzzles or choose a .txt file")
    key_id = request.state.key_id
    shape = box_shape(box or None)
    return _answer(
        request,
        lambda: submit(chosen, label or None, key_id, Step.INGEST_TEXT, shape, each_alone=True),
    )
