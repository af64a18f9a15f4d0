"""The send forms of ``/ui/`` (``api.ui_send``) on the test database: they make batches through
the API's own submission code (same records, limits and refusals), except that a file that
cannot be read is recorded with its reason while the others go through; they are refused
without the form's token, from another site's page (before the body is read) and without a
login; the pages' script gets JSON, a browser without script the batch's page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.app import create_app
from sudoku_batch.api.auth import KEY_COOKIE, UI_HEADER
from sudoku_batch.settings import Settings
from sudoku_batch.store.models import Batch, InputFile, Puzzle
from tests.integration.conftest import add_read_puzzle, api_client, form_token, queued
from tests.raw_http import raw_upload, served

pytestmark = pytest.mark.services

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
NOT_A_PDF = b"just some notes, not a PDF"
SCRIPTED = {UI_HEADER: "1"}
SUDOKU_LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    # A file limit of 1 KiB, so a file over it is cheap to send.
    return make_settings("send-form").model_copy(update={"max_file_mb": 1 / 1024})


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture
def browser(client: TestClient) -> Iterator[TestClient]:
    """A browser-like client of the app, logged in through the form."""
    key = client.headers["Authorization"].removeprefix("Bearer ")
    with TestClient(client.app, follow_redirects=False) as browser:
        answer = browser.post(
            "/ui/login", data={"key": key, "next": "/ui/", "form_token": form_token(browser)}
        )
        assert answer.status_code == 303 and KEY_COOKIE in browser.cookies
        yield browser


def _token(browser: TestClient) -> str:
    return form_token(browser, "/ui/")


def _batch_count(sessions: sessionmaker[Session]) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(Batch)) or 0


def _inputs(sessions: sessionmaker[Session], batch_id: str) -> list[tuple[str, str, str | None]]:
    with sessions() as db:
        rows = db.execute(
            select(InputFile.name, InputFile.status, InputFile.error_code)
            .join(Batch)
            .where(Batch.public_id == batch_id)
            .order_by(InputFile.id)
        )
        return [tuple(row) for row in rows]


def test_the_batches_page_holds_the_send_forms_and_no_inline_script(
    browser: TestClient,
) -> None:
    html = browser.get("/ui/").text
    for action in ("/ui/batches", "/ui/text-batches"):
        form = re.search(rf'<form [^>]*action="{action}"[^>]*>', html)
        assert form and 'enctype="multipart/form-data"' in form.group(0), action
    assert html.count('name="form_token"') == 3  # the two send forms and the logout
    assert '<label for="files" id="drop"' in html and 'id="files" name="files" type="file"' in html
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/ui/static/send.js">']
    assert not re.search(r"<[^>]*\s(style|on[a-z]+)=", html)


def test_files_sent_without_script_make_a_batch_and_go_to_its_page(
    browser: TestClient, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    answer = browser.post(
        "/ui/batches",
        files=[("files", ("page.png", PNG)), ("files", ("notes.pdf", NOT_A_PDF))],
        data={"form_token": _token(browser), "label": "from the page"},
    )
    assert answer.status_code == 303, answer.text
    batch_id = answer.headers["location"].removeprefix("/ui/batches/")
    assert _inputs(sessions, batch_id) == [
        ("page.png", "pending", None),
        ("notes.pdf", "failed", "unreadable_input"),
    ]
    assert any(m["headers"]["argsrepr"].endswith("page.png)") for m in queued(settings, "ingest"))
    page = browser.get(answer.headers["location"]).text
    assert '<meta http-equiv="refresh" content="5">' in page  # running: it refreshes itself
    assert "notes.pdf" in page and "is not an image, PDF or zip archive by its content" in page


def test_the_scripted_form_answers_each_files_outcome_and_the_others_go_through(
    browser: TestClient, client: TestClient, sessions: sessionmaker[Session]
) -> None:
    big = PNG + b"\x00" * 2048
    files = [
        ("files", ("big.png", big)),
        ("files", ("page.png", PNG)),
        ("files", ("notes.txt", NOT_A_PDF)),
    ]
    answer = browser.post(
        "/ui/batches", files=files, data={"form_token": _token(browser)}, headers=SCRIPTED
    )
    assert answer.status_code == 201, answer.text
    submitted = answer.json()
    assert [(f["name"], f["error_code"]) for f in submitted["input_files"]] == [
        ("big.png", "too_large"),
        ("page.png", None),
        ("notes.txt", "unsupported_input"),
    ]
    assert "big.png is larger than 0 MB (MAX_FILE_MB)" == submitted["input_files"][0]["message"]
    assert _inputs(sessions, submitted["batch_id"]) == [
        ("big.png", "failed", "too_large"),
        ("page.png", "pending", None),
        ("notes.txt", "failed", "unsupported_input"),
    ]
    # The API keeps its own rule for the same limit: the whole request is refused.
    refused = client.post("/batches", files=files)
    assert refused.status_code == 413 and "big.png" in refused.json()["detail"]
    # The page's script follows the batch with the API's status, by the login cookie.
    status = browser.get(f"/batches/{submitted['batch_id']}", headers=SCRIPTED)
    assert status.status_code == 200 and status.json()["inputs"] == {"failed": 2, "pending": 1}


def test_a_form_with_nothing_readable_makes_no_batch_and_says_why(
    browser: TestClient, sessions: sessionmaker[Session]
) -> None:
    before = _batch_count(sessions)
    files = [("files", ("notes.pdf", NOT_A_PDF)), ("files", ("huge.png", PNG * 100))]
    token = _token(browser)
    plain = browser.post("/ui/batches", files=files, data={"form_token": token})
    assert plain.status_code == 415
    assert 'notes.pdf</strong>: <span class="bad">notes.pdf is not an image' in plain.text
    assert "huge.png is larger than" in plain.text
    scripted = browser.post(
        "/ui/batches", files=files, data={"form_token": token}, headers=SCRIPTED
    )
    assert scripted.status_code == 415
    assert [f["error_code"] for f in scripted.json()["input_files"]] == [
        "unreadable_input",
        "too_large",
    ]
    only_large = browser.post(
        "/ui/batches", files=files[1:], data={"form_token": token}, headers=SCRIPTED
    )
    assert only_large.status_code == 413
    empty = browser.post(
        "/ui/batches", files=[("files", ("", b""))], data={"form_token": token}, headers=SCRIPTED
    )
    assert empty.status_code == 422 and "choose at least one file" in empty.text
    assert _batch_count(sessions) == before


def test_text_puzzles_typed_or_as_files_with_a_box_shape(
    browser: TestClient, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    answer = browser.post(
        "/ui/text-batches",
        files=[("files", ("more.txt", SUDOKU_LINE.encode())), ("files", ("bin.txt", b"a\x00b"))],
        data={"form_token": _token(browser), "text": SUDOKU_LINE, "box": "3x3"},
        headers=SCRIPTED,
    )
    assert answer.status_code == 201, answer.text
    batch_id = answer.json()["batch_id"]
    assert _inputs(sessions, batch_id) == [
        ("typed.txt", "pending", None),
        ("more.txt", "pending", None),
        ("bin.txt", "failed", "unsupported_input"),
    ]
    with sessions() as db:
        boxes = db.execute(
            select(InputFile.box_rows, InputFile.box_cols)
            .join(Batch)
            .where(Batch.public_id == batch_id)
            .order_by(InputFile.id)
        ).all()
    assert [tuple(b) for b in boxes[:2]] == [(3, 3), (3, 3)]
    assert len([m for m in queued(settings, "ingest") if "ingest_text" in m["headers"]["task"]])
    bad_box = browser.post(
        "/ui/text-batches",
        data={"form_token": _token(browser), "text": SUDOKU_LINE, "box": "3 by 3"},
    )
    assert bad_box.status_code == 422
    nothing = browser.post("/ui/text-batches", data={"form_token": _token(browser), "text": " "})
    assert nothing.status_code == 422


def test_a_form_without_the_pages_token_is_refused(
    browser: TestClient, sessions: sessionmaker[Session]
) -> None:
    before = _batch_count(sessions)
    files = [("files", ("page.png", PNG))]
    for data in ({}, {"form_token": "guessed"}):
        for action in ("/ui/batches", "/ui/text-batches"):
            answer = browser.post(action, files=files, data={**data, "text": SUDOKU_LINE})
            assert answer.status_code == 403, (action, data)
            assert "not from these pages" in answer.json()["detail"]
    assert _batch_count(sessions) == before


def test_a_form_from_another_site_is_refused_before_its_body(
    browser: TestClient, client: TestClient, sessions: sessionmaker[Session]
) -> None:
    """Another site's page (as a browser says in ``Sec-Fetch-Site``, or else ``Origin``) is
    refused even with the cookies a same-site page would send; a browser not logged in gets
    401. Neither body is read (answered with ``Connection: close``)."""
    before = _batch_count(sessions)
    files = [("files", ("page.png", PNG))]
    data = {"form_token": _token(browser)}
    for other in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver:8080"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "null"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver:8080"},
    ):
        answer = browser.post("/ui/batches", files=files, data=data, headers=other)
        assert answer.status_code == 403, other
        assert answer.headers["connection"] == "close"
    # The pages' own form: with no-referrer, a browser names its origin "null".
    for own in (
        {"Origin": "http://testserver"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "null"},
    ):
        same = browser.post("/ui/batches", files=files, data=data, headers=own)
        assert same.status_code == 303, own
    with TestClient(client.app, follow_redirects=False) as stranger:
        answer = stranger.post("/ui/batches", files=files, data=data)
        assert answer.status_code == 401 and answer.headers["connection"] == "close"
    assert _batch_count(sessions) == before + 2


def test_the_grids_shown_while_a_batch_runs_put_those_that_need_review_first(
    browser: TestClient, client: TestClient, sessions: sessionmaker[Session]
) -> None:
    submitted = client.post("/batches", files=[("files", ("book.png", PNG))])
    batch_id = submitted.json()["batch_id"]
    first = add_read_puzzle(sessions, batch_id, "a.png")
    second = add_read_puzzle(sessions, batch_id, "b.png")
    with sessions.begin() as db:
        # As the solve step records it: the verdict, and the certificate that says why.
        reasons = [{"code": "unsolvable", "message": "unsolvable"}]
        db.execute(
            update(Puzzle)
            .where(Puzzle.public_id == second)
            .values(status="unsolvable", certified=False, review_reasons=reasons)
        )
    html = browser.get(f"/ui/batches/{batch_id}/grids").text
    cards = re.findall(r'<li class="grid-card([^"]*)">\s*<p><a href="/ui/puzzles/([^"]+)"', html)
    assert cards == [(" needs-review", str(second)), ("", str(first))]
    assert "Needs review: unsolvable." in html
    stranger = TestClient(client.app, follow_redirects=False)
    assert stranger.get(f"/ui/batches/{batch_id}/grids").status_code == 303  # to the login


def test_the_send_form_reads_no_body_from_another_site_or_without_a_login(
    settings: Settings, browser: TestClient
) -> None:
    """As the API's uploads (test_web_security): a raw client that waits to be asked for the
    body (``Expect: 100-continue``) is never asked, and the app reads 0 bytes of it."""
    key = browser.cookies[KEY_COOKIE]
    logged_in = {"Cookie": f"{KEY_COOKIE}={key}"}
    with served(create_app(settings)) as (host, port, counter):
        for headers, status in (
            ({**logged_in, "Origin": "http://evil.example"}, 403),
            ({}, 401),
            ({"Cookie": f"{KEY_COOKIE}=sbk_not-a-key"}, 401),
        ):
            refused = raw_upload(host, port, "/ui/batches", 200 * 2**20, headers, expect=True)
            assert refused.status == status, refused.answer
            assert not refused.continued and refused.body_sent == 0 and counter.read == 0
        # Logged in, from this site: the body is asked for and read (then the token is checked).
        own = {**logged_in, "Origin": f"http://{host}:{port}"}
        read = raw_upload(host, port, "/ui/batches", 1024, own, expect=True)
        assert read.continued and read.status == 403 and counter.read == 1024, read.answer
