"""The probes of issue 25, sent as an attacker or a careless client would, to the API served in
this process (uvicorn, body bytes the app reads counted): uploads without a key or over the
limit, out-of-range query parameters, markup in names, labels and the login link, forged
login and logout forms, and the security headers. Prints one row per probe.

    python -m bench.web_probes --database-url postgresql+psycopg://postgres@127.0.0.1/DB

The database must be migrated (``sudoku-batch migrate``); a key is made for the run, and the
queue is a Redis prefix of its own, emptied at the end. To probe another checkout, copy this
file and ``tests/raw_http.py`` into it and run it there with ``PYTHONPATH=.``.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import uuid
from pathlib import Path

import httpx
import redis

from sudoku_batch.api.app import create_app
from sudoku_batch.api.auth import KEY_COOKIE
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.keys import create_key
from tests.raw_http import raw_upload, served

MB = 2**20
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
IMG_NAME = "<img src=x onerror=alert(1)>.jpg"
SCRIPT_LABEL = "<script>alert(1)</script>"
LOGIN_LINK = '/ui/login?next=/ui/"><script>alert(1)</script>'
OUT_OF_RANGE = (
    ("/batches", {"offset": "1000000000000000000000000000000"}),
    ("/batches", {"limit": "1000000000000000000000000000000"}),
    ("/batches", {"offset": "-1"}),
    ("/batches/{batch}", {"since": "x", "wait": "1e300"}),
    ("/batches/{batch}", {"since": "x", "pace": "-1"}),
    ("/batches/{batch}/results", {"confidence_below": "nan"}),
    ("/batches/{batch}/results", {"confidence_below": "2"}),
    ("/batches/{batch}/results", {"status": "\x00"}),
    ("/batches/{batch}/results", {"offset": "99999999999999999999"}),
)
HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--broker-url", default="redis://127.0.0.1:6379/15")
    args = parser.parse_args()
    prefix = f"sudoku_batch_probe:{uuid.uuid4().hex[:8]}:"
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(
            data_dir=Path(data),
            database_url=args.database_url,
            broker_url=args.broker_url,
            redis_key_prefix=prefix,
        )
        with transaction(make_session_factory(make_engine(settings.database_url))) as db:
            key = create_key(db, f"probe-{uuid.uuid4().hex[:8]}")
        try:
            with served(create_app(settings)) as (host, port, counter):
                rows = probes(host, port, counter, key, settings)
        finally:
            queue = redis.Redis.from_url(args.broker_url)
            for stored in queue.scan_iter(match=f"{prefix}*"):
                queue.delete(stored)
    width = max(len(row[0]) for row in rows)
    for name, outcome in rows:
        print(f"{name:<{width}}  {outcome}")


def probes(host: str, port: int, counter, key: str, settings: Settings) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    bearer = {"Authorization": f"Bearer {key}"}
    limit = int(settings.max_request_mb * MB)
    for name, headers, declared, expect in (
        ("upload, no key, 200 MB, Expect: 100-continue", {}, 200 * MB, True),
        ("upload, no key, 200 MB, body sent at once", {}, 200 * MB, False),
        ("upload, no key, declared over the limit", {}, limit + 1, True),
        ("upload, key, declared over the limit", bearer, limit + 1, True),
    ):
        sent = raw_upload(host, port, "/batches", declared, headers, expect)
        rows.append(
            (
                name,
                f"HTTP {sent.status}; 100 Continue sent: {sent.continued}; client sent "
                f"{sent.body_sent / MB:.2f} MB; app read {counter.read / MB:.2f} MB",
            )
        )
    url = f"http://{host}:{port}"
    # A connection per request below: after an app's error uvicorn drops the connection.
    with httpx.Client(base_url=url, headers=bearer, timeout=60) as api:
        submitted = api.post(
            "/batches", files=[("files", (IMG_NAME, PNG))], data={"label": SCRIPT_LABEL}
        )
        batch = submitted.json()["batch_id"]
        nul = api.post(
            "/batches",
            files=[("files", ("a.png", PNG))],
            data={"label": "a\x00"},
            headers={"Connection": "close"},
        )
        rows.append(("POST /batches, label with a NUL character", f"HTTP {nul.status_code}"))
        for path, params in OUT_OF_RANGE:
            try:
                answer = api.get(
                    path.format(batch=batch), params=params, headers={"Connection": "close"}
                )
                outcome = f"HTTP {answer.status_code}"
            except httpx.HTTPError as error:
                outcome = f"no answer ({error})"
            rows.append((f"GET {path} {params}", outcome))
    with httpx.Client(base_url=url, timeout=60, cookies={KEY_COOKIE: key}) as page:
        for path, markup in (
            ("/ui/", SCRIPT_LABEL),
            (f"/ui/batches/{batch}", SCRIPT_LABEL),
            (LOGIN_LINK, "<script>alert(1)</script>"),
        ):
            answer = page.get(path)
            shown = "raw markup in the page" if markup in answer.text else "escaped"
            present = [h for h in HEADERS if h in answer.headers]
            rows.append((f"GET {path}", f"HTTP {answer.status_code}; {shown}; headers {present}"))
        forged = page.post("/ui/logout", follow_redirects=False)
        rows.append(("POST /ui/logout, no form token", f"HTTP {forged.status_code}"))
    with httpx.Client(base_url=url, timeout=60) as stranger:
        forged = stranger.post(
            "/ui/login", data={"key": key, "next": "/ui/"}, follow_redirects=False
        )
        logged_in = KEY_COOKIE in forged.cookies
        rows.append(
            (
                "POST /ui/login, no form token",
                f"HTTP {forged.status_code}; logged in: {logged_in}",
            )
        )
        for target in ("//evil.example/", "/\\evil.example/", "/ui/\t/evil.example"):
            offsite = _login_to(stranger, key, target)
            rows.append((f"login with next={target!r}", f"sent to {offsite!r}"))
    return rows


def _login_to(client: httpx.Client, key: str, target: str) -> str | None:
    """Where a login through the form (its token included, if it has one) sends the browser."""
    client.cookies.clear()
    form = client.get("/ui/login", params={"next": target})
    token = re.search(r'name="form_token" value="([^"]+)"', form.text)
    data = {"key": key, "next": target, **({"form_token": token.group(1)} if token else {})}
    return client.post("/ui/login", data=data, follow_redirects=False).headers.get("location")


if __name__ == "__main__":
    main()
