"""Answers to the server's own failures: the database or the data folder out of reach."""

from __future__ import annotations

import logging

from fastapi import Request
from fastapi.responses import JSONResponse

from sudoku_batch.store.storage import StorageFull, StorageUnavailable

logger = logging.getLogger(__name__)


async def database_down(_: Request, error: Exception) -> JSONResponse:
    logger.warning("database unreachable: %s", error)
    return JSONResponse(
        {"detail": "the database is unreachable; try again shortly"},
        status_code=503,
        headers={"Retry-After": "10"},
    )


async def storage_down(_: Request, error: StorageUnavailable) -> JSONResponse:
    # The server's fault, not the request's: 507 when out of space, else 503.
    logger.error("store unavailable: %s", error.message)
    status = 507 if isinstance(error, StorageFull) else 503
    return JSONResponse(
        {"detail": error.message}, status_code=status, headers={"Retry-After": "60"}
    )
