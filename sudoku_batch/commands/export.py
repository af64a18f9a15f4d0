"""``sudoku-batch export BATCH``: a batch's results as JSON lines or CSV, from either database
(the server's PostgreSQL, or an embedded run's ``DIR/sudoku-batch.sqlite``)."""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path

from sudoku_batch.outcome import ExitCode


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a batch's results as JSON lines or CSV",
        description="Write a batch's result records (the rows of the results view) to a file: "
        "jsonl as results.jsonl, or csv with one row per record and grids as N*N-character "
        "strings (1-9 then A=10 ... P=25, '.' empty, '*' blocked).",
    )
    parser.add_argument("batch", help="the batch: its number, or its UUID as the API gives it")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    parser.add_argument("--out", type=Path, required=True, help="the file to write")
    parser.add_argument(
        "--database-url",
        help="default: SUDOKU_BATCH_DATABASE_URL; an embedded run's is "
        "sqlite:///DIR/sudoku-batch.sqlite",
    )
    parser.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    from sqlalchemy import select
    from sqlalchemy.exc import InterfaceError, OperationalError

    from settings import Settings  # pydantic: loaded only by the command that needs it
    from store import exports
    from store.db import make_engine, make_session_factory
    from store.migrate import database_unavailable
    from store.models import Batch
    from store.results import BatchNotFound, result_records

    database_url = args.database_url or Settings.from_env().database_url
    engine = make_engine(database_url)
    try:
        with make_session_factory(engine)() as session:
            batch_id = _batch_number(args.batch)
            if batch_id is None:
                batch_id = session.scalar(
                    select(Batch.id).where(Batch.public_id == uuid.UUID(args.batch))
                )
            records = result_records(session, batch_id) if batch_id is not None else None
    except (OperationalError, InterfaceError) as error:
        raise database_unavailable(database_url, error) from error
    except (BatchNotFound, ValueError):
        records = None
    finally:
        engine.dispose()
    if records is None:
        print(f"sudoku-batch: there is no batch {args.batch}", file=sys.stderr)
        return ExitCode.BAD_ARGS
    write = exports.write_csv if args.format == "csv" else exports.write_jsonl
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        write(records, out)
    return 0


def _batch_number(batch: str) -> int | None:
    return int(batch) if batch.isdigit() else None
