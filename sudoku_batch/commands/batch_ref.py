"""Naming a batch on the command line: an output folder of ``run`` (its newest batch), or a
batch's UUID or row id in the database of ``--database-url``."""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sudoku_batch.errors import BadArguments


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "batch",
        metavar="BATCH",
        help="an output folder of `run` (its newest batch), or a batch UUID or id",
    )
    parser.add_argument(
        "--database-url", help="default: the folder's SQLite file, else SUDOKU_BATCH_DATABASE_URL"
    )


@contextmanager
def batch_session(args: argparse.Namespace) -> Iterator[tuple[object, int]]:
    """A session on the batch's database and the batch's row id."""
    from sqlalchemy import select

    from sudoku_batch.embedded import DATABASE_NAME
    from sudoku_batch.embedded_store import open_database
    from sudoku_batch.settings import Settings
    from sudoku_batch.store.db import make_engine, make_session_factory
    from sudoku_batch.store.models import Batch

    folder = Path(args.batch)
    in_folder = not args.database_url and (folder / DATABASE_NAME).is_file()
    if args.database_url:
        engine = make_engine(args.database_url)
    elif in_folder:
        engine, _ = open_database(folder)  # a folder an older version wrote: migrated first
    else:
        engine = make_engine(Settings.from_env().database_url)
    try:
        with _reachable(engine), make_session_factory(engine)() as session:
            if in_folder:
                query = select(Batch.id).order_by(Batch.id.desc()).limit(1)
            elif args.batch.isdigit():
                query = select(Batch.id).where(Batch.id == int(args.batch))
            else:
                try:
                    public = uuid.UUID(args.batch)
                except ValueError:
                    raise BadArguments(f"{args.batch} is no output folder, UUID or id") from None
                query = select(Batch.id).where(Batch.public_id == public)
            batch_id = session.scalar(query)
            if batch_id is None:
                raise BadArguments(f"there is no batch {args.batch}")
            yield session, batch_id
    finally:
        engine.dispose()


@contextmanager
def _reachable(engine) -> Iterator[None]:
    """A database that cannot be opened is one line and exit 3 (``DatabaseUnavailable``)."""
    from sqlalchemy.exc import InterfaceError, OperationalError

    from sudoku_batch.store.migrate import database_unavailable

    try:
        yield
    except (OperationalError, InterfaceError) as error:
        url = engine.url.render_as_string(hide_password=False)
        raise database_unavailable(url, error) from error
