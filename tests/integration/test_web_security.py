"""The API and its pages against an attacker (OWASP) on the test database: markup in file names
and labels shown as text, the login's ``next`` kept to these pages, the security headers of
every page, form tokens on login and logout, every out-of-range query parameter answered 422,
and an upload without a key refused before its body is read (a raw socket client; the app
served by uvicorn in this process counts what it reads)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.app import create_app
from sudoku_batch.api.auth import KEY_COOKIE
from sudoku_batch.api.headers import UI_CSP
from sudoku_batch.reports.html import REPORT_CSP
from sudoku_batch.settings import Settings
from tests.integration.conftest import add_read_puzzle, api_client, form_token
from tests.raw_http import raw_upload, served

pytestmark = pytest.mark.services

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
MB = 2**20
IMG_NAME = "<img src=x onerror=alert(1)>.jpg"
SCRIPT_LABEL = "<script>alert('label')</script>"
OFFSITE = (
    "//evil.example/ui/",
    "/\\evil.example/ui/",
    "/ui/\\evil.example",
    "/\t/evil.example/ui/",
    "/ui/\t/x",
    "/ui/\n/x",
    "https://evil.example/ui/",
    "javascript:alert(1)//ui/",
    '/ui/"><script>alert(1)</script>',
    "ui/",
    "/batches",
)


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("web-security")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture(scope="module")
def key(client: TestClient) -> str:
    return client.headers["Authorization"].removeprefix("Bearer ")


@pytest.fixture(scope="module")
def crafted(client: TestClient, sessions: sessionmaker[Session]) -> tuple[str, str]:
    """A batch labelled with a script, holding a file named as an image with a handler, and one
    puzzle read from it (its public id): batch id, puzzle id."""
    submitted = client.post(
        "/batches", files=[("files", (IMG_NAME, PNG))], data={"label": SCRIPT_LABEL}
    )
    assert submitted.status_code == 201, submitted.text
    batch_id = submitted.json()["batch_id"]
    return batch_id, str(add_read_puzzle(sessions, batch_id, IMG_NAME))


def logged_in(client: TestClient, key: str) -> TestClient:
    """A browser-like client of the same app, logged in through the form."""
    browser = TestClient(client.app, follow_redirects=False)
    answer = browser.post(
        "/ui/login", data={"key": key, "next": "/ui/", "form_token": form_token(browser)}
    )
    assert answer.status_code == 303 and KEY_COOKIE in browser.cookies, answer.text
    return browser


def test_names_and_labels_are_shown_as_text_on_every_page(
    client: TestClient, key: str, crafted: tuple[str, str]
) -> None:
    batch_id, puzzle_id = crafted
    with logged_in(client, key) as browser:
        for page in ("/ui/", f"/ui/batches/{batch_id}", f"/ui/puzzles/{puzzle_id}"):
            html = browser.get(page).text
            assert "<script>alert" not in html and "<img src=x" not in html, page
            assert "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in html, page
        assert (
            "&lt;img src=x onerror=alert(1)&gt;.jpg" in browser.get(f"/ui/batches/{batch_id}").text
        )
    report = client.get(f"/batches/{batch_id}/report.html")
    assert report.status_code == 200
    assert "<script" not in report.text and "<img" not in report.text
    assert "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in report.text
    assert "&lt;img src=x onerror=alert(1)&gt;.jpg" in report.text
    # The file keeps its policy when saved: no script, no request.
    policy = escape(REPORT_CSP)
    assert f'<meta http-equiv="Content-Security-Policy" content="{policy}">' in report.text


@pytest.mark.parametrize("target", OFFSITE)
def test_the_login_sends_the_browser_only_to_these_pages(
    client: TestClient, key: str, target: str
) -> None:
    with TestClient(client.app, follow_redirects=False) as browser:
        form = browser.get("/ui/login", params={"next": target})
        assert 'name="next" value="/ui/"' in form.text
        assert "<script>" not in form.text
        token = form_token(browser)
        answer = browser.post("/ui/login", data={"key": key, "next": target, "form_token": token})
        assert answer.headers["location"] == "/ui/"
        failed = browser.post(
            "/ui/login", data={"key": "sbk_not-a-key", "next": target, "form_token": token}
        )
        assert failed.headers["location"] == "/ui/login?failed=true&next=/ui/"


def test_a_local_next_is_kept(client: TestClient, key: str) -> None:
    target = f"/ui/batches/{uuid.uuid4()}?verdict=failed&review=true"
    with TestClient(client.app, follow_redirects=False) as browser:
        form = browser.get(f"/ui/login?next={quote(target)}")
        assert f'name="next" value="{target.replace("&", "&amp;")}"' in form.text
        data = {"key": key, "next": target, "form_token": form_token(browser)}
        assert browser.post("/ui/login", data=data).headers["location"] == target


def test_login_and_logout_need_the_pages_form_token(client: TestClient, key: str) -> None:
    with TestClient(client.app, follow_redirects=False) as browser:
        # A form posted from another site: no token, or one not the browser's.
        forged = browser.post("/ui/login", data={"key": key, "next": "/ui/"})
        assert forged.status_code == 403 and KEY_COOKIE not in browser.cookies
        browser.get("/ui/login")  # the browser's token set
        wrong = browser.post("/ui/login", data={"key": key, "form_token": "guessed"})
        assert wrong.status_code == 403 and KEY_COOKIE not in browser.cookies
    with logged_in(client, key) as browser:
        assert browser.post("/ui/logout").status_code == 403
        assert browser.get("/ui/").status_code == 200  # still logged in
        token = form_token(browser, "/ui/")
        assert browser.post("/ui/logout", data={"form_token": token}).status_code == 303
        assert browser.get("/ui/").status_code == 303


def test_every_page_and_answer_carries_the_security_headers(
    client: TestClient, key: str, crafted: tuple[str, str]
) -> None:
    batch_id, puzzle_id = crafted
    with logged_in(client, key) as browser:
        pages = [
            browser.get("/ui/login"),
            browser.get("/ui/"),
            browser.get(f"/ui/batches/{batch_id}"),
            browser.get(f"/ui/batches/{batch_id}", params={"verdict": "failed", "review": True}),
            browser.get(f"/ui/puzzles/{puzzle_id}"),
            browser.get(f"/ui/puzzles/{uuid.uuid4()}"),  # 404
            browser.get("/ui/static/review.js"),
            browser.get("/ui/static/review.css"),
        ]
        pages.append(browser.post("/ui/logout", data={"form_token": form_token(browser, "/ui/")}))
        pages.append(browser.get("/ui/"))  # 303 to the login
    for page in pages:
        where = f"{page.request.method} {page.request.url} ({page.status_code})"
        assert page.headers["content-security-policy"] == UI_CSP, where
        assert page.headers["x-frame-options"] == "DENY", where
        assert page.headers["x-content-type-options"] == "nosniff", where
        assert page.headers["referrer-policy"] == "no-referrer", where
        if not page.request.url.path.startswith("/ui/static/"):
            assert page.headers["cache-control"] == "no-store", where
    for directive in ("script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"):
        assert directive in UI_CSP
    assert "unsafe" not in UI_CSP
    report = client.get(f"/batches/{batch_id}/report.html")
    assert report.headers["content-security-policy"] == f"{REPORT_CSP}; frame-ancestors 'none'"
    for answer in (
        client.get("/batches"),
        client.get(f"/batches/{uuid.uuid4()}"),
        client.get("/health"),
        client.get("/batches", headers={"Authorization": "Bearer sbk_not-a-key"}),
    ):
        assert answer.headers["content-security-policy"] == "default-src 'none'; " + (
            "frame-ancestors 'none'"
        )
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"


OUT_OF_RANGE = [
    ("/batches", {"offset": "1" + "0" * 30}),
    ("/batches", {"offset": "-1"}),
    ("/batches", {"offset": "1e3"}),
    ("/batches", {"limit": "0"}),
    ("/batches", {"limit": "1" + "0" * 30}),
    ("/batches", {"status": "lost"}),
    ("/batches/{batch}", {"since": "x", "wait": "-1"}),
    ("/batches/{batch}", {"since": "x", "wait": "1e300"}),
    ("/batches/{batch}", {"since": "x", "wait": "nan"}),
    ("/batches/{batch}", {"since": "x", "wait": "inf"}),
    ("/batches/{batch}", {"since": "x", "wait": "1", "pace": "-1"}),
    ("/batches/{batch}", {"since": "x", "wait": "1", "pace": "1e300"}),
    ("/batches/{batch}", {"since": "x" * 201}),
    ("/batches/{batch}/results", {"offset": "99999999999999999999"}),
    ("/batches/{batch}/results", {"offset": "-1"}),
    ("/batches/{batch}/results", {"limit": "1001"}),
    ("/batches/{batch}/results", {"limit": "0"}),
    ("/batches/{batch}/results", {"confidence_below": "-0.1"}),
    ("/batches/{batch}/results", {"confidence_below": "2"}),
    ("/batches/{batch}/results", {"confidence_below": "nan"}),
    ("/batches/{batch}/results", {"status": "\x00"}),
    ("/batches/{batch}/results", {"status": "s" * 41}),
]


@pytest.mark.parametrize(("path", "params"), OUT_OF_RANGE)
def test_an_out_of_range_parameter_answers_422(
    client: TestClient, crafted: tuple[str, str], path: str, params: dict[str, str]
) -> None:
    batch_id, _ = crafted
    answer = client.get(path.format(batch=batch_id), params=params)
    assert answer.status_code == 422, answer.text


def test_a_label_the_database_cannot_hold_answers_422(client: TestClient) -> None:
    labelled = client.post("/batches", files=[("files", ("a.png", PNG))], data={"label": "a\x00"})
    assert labelled.status_code == 422, labelled.text


def test_the_largest_offsets_allowed_answer_an_empty_page(
    client: TestClient, crafted: tuple[str, str]
) -> None:
    from sudoku_batch.api.deps import MAX_OFFSET

    batch_id, _ = crafted
    for path in ("/batches", f"/batches/{batch_id}/results"):
        answer = client.get(path, params={"offset": MAX_OFFSET, "limit": 1000})
        assert answer.status_code == 200 and answer.json()["items"] == [], path


def test_an_upload_without_a_key_is_refused_before_its_body(settings: Settings) -> None:
    declared = 200 * MB
    with served(create_app(settings)) as (host, port, counter):
        # As curl sends one: the body only once the server asks for it. It never does.
        polite = raw_upload(host, port, "/batches", declared, {}, expect=True)
        assert polite.status == 401, polite.answer
        assert not polite.continued and polite.body_sent == 0 and counter.read == 0
        wrong_key = {"Authorization": "Bearer sbk_not-a-key"}
        polite = raw_upload(host, port, "/text-batches", declared, wrong_key, expect=True)
        assert polite.status == 401, polite.answer
        assert not polite.continued and polite.body_sent == 0 and counter.read == 0
        # A client that sends at once: the app reads none of it and the connection is closed,
        # so it can push no more than the sockets' buffers hold (the answer may be lost to the
        # reset that closing on unread data makes).
        pushy = raw_upload(host, port, "/batches", declared, {}, expect=False)
        assert counter.read == 0
        assert pushy.status in (401, None) and pushy.body_sent < declared // 4


def test_an_upload_declared_over_the_limit_is_refused_at_once(
    settings: Settings, client: TestClient
) -> None:
    limit = int(settings.max_request_mb * MB)
    bearer = {"Authorization": client.headers["Authorization"]}
    with served(create_app(settings)) as (host, port, counter):
        for headers in (bearer, {}):
            refused = raw_upload(host, port, "/batches", limit + 1, headers, expect=True)
            assert refused.status == 413, refused.answer
            assert not refused.continued and refused.body_sent == 0 and counter.read == 0
        # Within the limit and with a key, the body is asked for and read.
        small = raw_upload(host, port, "/batches", 64 * 1024, bearer, expect=True)
        assert small.continued and small.status == 201, small.answer
        assert counter.read == small.body_sent == 64 * 1024
