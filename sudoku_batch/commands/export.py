"""``sudoku-batch export BATCH``: a batch's results as JSON lines or CSV, from either database
(the server's PostgreSQL, or an embedded run's ``DIR/sudoku-batch.sqlite``)."""

from __future__ import annotations

import argparse

from sudoku_batch.commands import option_types
from sudoku_batch.commands.batch_ref import add_batch_arguments, batch_session


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a batch's results as JSON lines or CSV",
        description="Write a batch's result records (the rows of the results view) to a file: "
        "jsonl as results.jsonl, or csv with one row per record and grids as N*N-character "
        "strings (1-9 then A=10 ... P=25, '.' empty, '*' blocked).",
    )
    add_batch_arguments(parser)
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    parser.add_argument(
        "--out", type=option_types.out_file, required=True, help="the file to write"
    )
    parser.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    from sudoku_batch.store import exports
    from sudoku_batch.store.results import result_records

    with batch_session(args) as (session, batch_id):
        records = result_records(session, batch_id)
    write = exports.write_csv if args.format == "csv" else exports.write_jsonl
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        write(records, out)
    return 0
