"""FastAPI app: talks only to the database (through ``store``) and the queue (by task name).

Run with ``uvicorn --factory sudoku_batch.api.app:create_app`` or ``sudoku-batch api``. Every
route but ``/health`` needs an API key (``api.auth``); a batch is visible only to the key that
made it, and to every other key it does not exist (404). URLs carry UUIDs, never row ids. The
routes are in ``api.routes`` (one module per resource); the review pages under ``/ui/``
(``api.ui``, ``api.ui_send``) are served by the same app, with the same keys. ``create_app``
only assembles: what the routes share goes on ``app.state`` (``api.deps`` hands it to them).
"""

from __future__ import annotations

import sqlalchemy.exc
from fastapi import FastAPI

from sudoku_batch.api import ui, ui_send
from sudoku_batch.api.errors import database_down, storage_down
from sudoku_batch.api.headers import SecurityHeaders
from sudoku_batch.api.routes import batches, health, images, metrics, puzzles, results, text_batches
from sudoku_batch.api.submission import Submission
from sudoku_batch.settings import Settings
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.storage import StorageUnavailable, open_storage
from sudoku_batch.workers.app import make_celery

ROUTERS = (
    health.router,
    batches.router,
    text_batches.router,
    results.router,
    puzzles.router,
    images.router,
    metrics.router,
    ui.router,
    ui_send.router,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    app = FastAPI(
        title="sudoku-batch",
        summary="Submit photos, scans and PDF books of Sudoku; get solved, verified puzzles.",
        # Refused with 413 while it arrives, as it streams into the store.
        max_body_size=int(settings.max_request_mb * 2**20),
    )
    app.state.settings = settings
    app.state.sessions = make_session_factory(make_engine(settings.database_url))
    app.state.queue = make_celery(settings)
    storage = open_storage(settings)
    storage.prepare()
    app.state.artifacts = Artifacts(storage)
    app.state.submit = Submission(
        app.state.sessions,
        app.state.queue,
        app.state.artifacts,
        int(settings.max_file_mb * 2**20),
    )
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(sqlalchemy.exc.OperationalError, database_down)
    app.add_exception_handler(sqlalchemy.exc.InterfaceError, database_down)
    app.add_exception_handler(StorageUnavailable, storage_down)
    app.add_exception_handler(ui.LoginNeeded, ui.to_login)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/ui/static", ui.STATIC, name="ui-static")
    return app
