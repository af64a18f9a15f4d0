"""What a worker process makes once and reuses: settings, database sessions, engines.

Everything is created lazily on first use in the process that uses it, never at import, so
a prefork parent holds no connection or model that its children would share after fork.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from functools import cache

from celery.signals import worker_init, worker_process_init
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.printed_captions import CaptionReader
from sudoku_batch.pipeline.recognise.printed_captions import caption_reader as make_caption_reader
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.settings import Settings
from sudoku_batch.settings.environment import set_offline_defaults
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.storage import open_storage
from sudoku_batch.workers.cached_artifacts import CachedArtifacts

logger = logging.getLogger(__name__)


@cache
def settings() -> Settings:
    return Settings.from_env()


@cache
def database() -> Engine:
    return make_engine(settings().database_url, ping_every_checkout=False)


@cache
def sessions() -> sessionmaker[Session]:
    return make_session_factory(database())


@cache
def marker_database() -> Engine:
    return make_engine(settings().database_url, ping_every_checkout=False, wait_for_disk=False)


@cache
def marker_sessions() -> sessionmaker[Session]:
    """Sessions for a task's claim (and the loads after it) and for noting hand-overs sent,
    whose commits do not wait for the disk (a durable commit is a disk flush per write).
    Losing one in a database crash is harmless: a claim only tells the recovery sweep who
    took a subject, a sent mark that its message went out, so at worst a subject is sent
    again, and a second message changes nothing (``workers.publish``).
    Any outcome a task records commits through ``sessions``, which waits for the disk and
    flushes every commit before it too."""
    return make_session_factory(marker_database())


@cache
def artifacts() -> Artifacts:
    return CachedArtifacts(open_storage(settings()))


# Engines are imported where made: a worker serving only the solve queue never loads OCR models.
# Their optimised graphs are kept in the user's cache folder, as `run` keeps them.
@cache
def ocr_engine() -> OcrEngine:
    from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE
    from sudoku_batch.pipeline.recognise.ocr.engines import make_engine as make_ocr_engine

    # Also for a worker started by `celery -A sudoku_batch.workers.app worker`.
    set_offline_defaults()
    return make_ocr_engine(settings().ocr_engine or DEFAULT_ENGINE, files=settings().engine_files())


@cache
def caption_reader() -> CaptionReader | None:
    return make_caption_reader(settings().engine_files())


@cache
def sat_backend() -> SatBackend:
    from sudoku_batch.pipeline.solve.backends import DEFAULT_BACKEND, make_backend

    name = settings().sat_backend
    return make_backend(name or DEFAULT_BACKEND, settings().kissat)


@cache
def inline_backend() -> SatBackend:
    """What the OCR task solves a reading with: only what is cheap and certain
    (``pipeline.solve.inline``); the rest goes to a solve task."""
    from sudoku_batch.pipeline.solve.backends import DEFAULT_BACKEND
    from sudoku_batch.pipeline.solve.inline import budgeted_backend

    name = settings().sat_backend or DEFAULT_BACKEND
    return budgeted_backend(name, settings().inline_solve_conflicts)


def worker_name(hostname: str | None) -> str:
    return f"{hostname or 'worker'} pid {os.getpid()}"


# This start of this worker: set in the main process before the pool forks, so its children
# claim subjects in its name and the main process beats for all of them (workers.sweep).
INCARNATION = f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:8]}"


def incarnation() -> str:
    return INCARNATION


@worker_init.connect
def _name_incarnation(sender: object = None, **_: object) -> None:
    global INCARNATION
    hostname = getattr(sender, "hostname", None) or socket.gethostname()
    INCARNATION = f"{hostname}/{uuid.uuid4().hex[:8]}"


@worker_init.connect
def _check_storage(**_: object) -> None:
    # Said at start, in the worker's log: tasks needing the store wait (retried) until fixed.
    problem = open_storage(settings()).problem()
    if problem is None:
        logger.info("storage: %s", settings().storage_location().url)
    else:
        logger.error("%s; tasks that need it are retried until it is fixed", problem)


@worker_process_init.connect
def _own_connections_after_fork(**_: object) -> None:
    # A child must not reuse sockets inherited from its parent; close=False leaves them to the
    # parent instead of closing them under it.
    for made in (database, marker_database):
        if made.cache_info().currsize:
            made().dispose(close=False)
