"""Who is asking: every route but /health needs ``Authorization: Bearer KEY`` of a live key
(``sudoku-batch keys create``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from store.keys import key_owner

_bearer = HTTPBearer(auto_error=False, description="an API key from `sudoku-batch keys create`")


def api_key(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> int:
    """The id of the caller's key; 401 without a live one."""
    key_id = None
    if credentials is not None:
        with request.app.state.sessions() as db:
            key_id = key_owner(db, credentials.credentials)
    if key_id is None:
        raise HTTPException(
            401,
            "a valid API key is needed: Authorization: Bearer KEY",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return key_id


ApiKeyId = Annotated[int, Depends(api_key)]
