"""Who is asking: every route but /health needs a live key (``sudoku-batch keys create``), sent
as ``Authorization: Bearer KEY`` or, from the review pages' login (``api.ui``), in the
``sudoku_batch_key`` cookie.

The cookie is HttpOnly (no script reads it) and SameSite=Strict (no other site's page sends
it). A request that changes something on the strength of the cookie alone must also carry
the ``X-Sudoku-Batch-UI`` header: a plain cross-site form cannot set a header, and a script of
another origin that tries is stopped by the browser's preflight, which this API never allows.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from store.keys import key_owner

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
