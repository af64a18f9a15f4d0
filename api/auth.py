"""Who is asking: every route but /health needs a live key (``sudoku-batch keys create``), sent
as ``Authorization: Bearer KEY`` or, from the review pages' login (``api.ui``), in the
``sudoku_batch_key`` cookie.

The cookie is HttpOnly (no script reads it) and SameSite=Strict (no other site's page sends
it). A request that changes something on the strength of the cookie alone must also carry
the ``X-Sudoku-Batch-UI`` header: a plain cross-site form cannot set a header, and a script of
another origin that tries is stopped by the browser's preflight, which this API never allows.

FastAPI reads a request's body before it resolves the route's dependencies, so a route whose
body may be large (an upload) is a ``KeyBeforeBody`` route: its key is checked before a byte
of the body is read, and a request without one is answered 401 and its connection closed.
A client that sent ``Expect: 100-continue`` is never asked for the body (uvicorn sends
``100 Continue`` only when the app first reads it). Once the key passed, its files stream into
the store as they arrive (``api.streamed_form``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any
from urllib.parse import urlsplit

import anyio
from fastapi import Depends, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudoku_batch.api.streamed_form import StreamedRequest
from sudoku_batch.store.keys import key_owner
from sudoku_batch.store.storage import StorageUnavailable

logger = logging.getLogger(__name__)

KEY_COOKIE = "sudoku_batch_key"
UI_HEADER = "X-Sudoku-Batch-UI"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

_bearer = HTTPBearer(auto_error=False, description="an API key from `sudoku-batch keys create`")
_cookie = APIKeyCookie(
    name=KEY_COOKIE, auto_error=False, description="an API key, set by the review pages' login"
)


def key_id_of(request: Request, key: str) -> int | None:
    """The id of the live key ``key``, or None if it is unknown or revoked."""
    with request.app.state.sessions() as db:
        return key_owner(db, key)


def api_key(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_cookie)],
) -> int:
    """The id of the caller's key; 401 without a live one."""
    checked = getattr(request.state, "key_id", None)  # by KeyBeforeBody
    if checked is not None:
        return checked
    return _checked_key(request, credentials, cookie)


def _checked_key(
    request: Request, credentials: HTTPAuthorizationCredentials | None, cookie: str | None
) -> int:
    key_id = None
    if credentials is not None:
        key_id = key_id_of(request, credentials.credentials)
    elif cookie is not None:
        if request.method not in SAFE_METHODS and UI_HEADER not in request.headers:
            raise HTTPException(403, f"a change made with the login cookie needs {UI_HEADER}")
        key_id = key_id_of(request, cookie)
    if key_id is None:
        raise HTTPException(
            401,
            "a valid API key is needed: Authorization: Bearer KEY",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return key_id


ApiKeyId = Annotated[int, Depends(api_key)]


def _before_body(
    route: APIRoute, check: Callable[[Request], Awaitable[None]]
) -> Callable[[Request], Coroutine[Any, Any, Response]]:
    """``route``'s handler, run only once ``check`` passed; a refusal is answered before a byte
    of the body is read, and the connection closed rather than drained."""
    read_body_and_answer = APIRoute.get_route_handler(route)

    async def handler(request: Request) -> Response:
        try:
            await check(request)
        except HTTPException as refused:
            raise HTTPException(
                refused.status_code,
                refused.detail,
                headers={**(refused.headers or {}), "Connection": "close"},
            ) from None
        submission = request.app.state.submit
        streamed = StreamedRequest(
            request, submission.artifacts.storage, max_bytes=submission.max_file
        )
        try:
            return await read_body_and_answer(streamed)
        except StarletteHTTPException as unread:
            # FastAPI answers any failure to read a body 400; a failure of the store the files
            # stream into is the deployment's, answered as every other (503, 507).
            if isinstance(unread.__cause__, StorageUnavailable):
                raise unread.__cause__ from None
            raise
        finally:
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(_discard, streamed)

    return handler


def _discard(streamed: StreamedRequest) -> None:
    try:
        streamed.discard()
    except StorageUnavailable as fault:
        logger.warning("could not remove the uploads no batch claimed: %s", fault)


class KeyBeforeBody(APIRoute):
    """A route that checks the caller's key (as ``api_key`` does) before its body is read."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        async def check(request: Request) -> None:
            credentials, cookie = await _bearer(request), await _cookie(request)
            request.state.key_id = await run_in_threadpool(
                _checked_key, request, credentials, cookie
            )

        return _before_body(self, check)


def same_origin(request: Request) -> bool:
    """Whether a request comes from a page of this origin, as far as the browser says (OWASP's
    fetch metadata): its ``Sec-Fetch-Site`` is ``same-origin``; without that header (older
    browsers), its ``Origin`` names this host or is absent or ``null`` (which a page of this
    origin sends too: the pages' ``Referrer-Policy: no-referrer`` makes a form's origin
    ``null``), and the form's token decides."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


class PageFormBeforeBody(APIRoute):
    """A form of the pages that may carry a large body (the send form): refused before its
    body is read when another site's page sent it (403) or without a logged-in key (401).
    The form's token (``api.ui``) is checked once the body is read."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        async def check(request: Request) -> None:
            if not same_origin(request):
                raise HTTPException(403, "a form sent from another site is refused")
            cookie = await _cookie(request)
            key_id = await run_in_threadpool(key_id_of, request, cookie) if cookie else None
            if key_id is None:
                raise HTTPException(401, "log in again: the key is unknown or revoked")
            request.state.key_id = key_id

        return _before_body(self, check)
