"""``sudoku-batch migrate``: bring the database to the newest schema."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help="create or upgrade the database schema (SUDOKU_BATCH_DATABASE_URL)",
        description="Run the Alembic migrations up to the newest schema.",
    )
    parser.add_argument("--database-url", help="default: SUDOKU_BATCH_DATABASE_URL")
    parser.set_defaults(func=_migrate)


def _migrate(args: argparse.Namespace) -> int:
    from sudoku_batch.settings import Settings  # pydantic: imported when used
    from sudoku_batch.store.migrate import upgrade

    upgrade(args.database_url or Settings.from_env().database_url)
    return 0
