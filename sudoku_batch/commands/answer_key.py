"""``sudoku-batch answer-key``: a batch's solutions as a printable answer-key PDF."""

from __future__ import annotations

import argparse

from sudoku_batch.commands import option_types
from sudoku_batch.commands.batch_ref import add_batch_arguments, batch_session


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "answer-key",
        help="write the solutions of a batch's puzzles as an answer-key PDF",
        description="Each puzzle's solution under its number (printed or its place in the batch), "
        "as vector text and lines; six 9x9 grids a page, fewer larger ones, more smaller ones.",
    )
    add_batch_arguments(parser)
    parser.add_argument("--out", required=True, type=option_types.out_file, metavar="PDF")
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    parser.set_defaults(func=_answer_key)


def _answer_key(args: argparse.Namespace) -> int:
    from sudoku_batch.reports.answer_key import write_batch_answer_key

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with batch_session(args) as (session, batch_id):
        solutions, pages = write_batch_answer_key(session, batch_id, args.out, args.paper)
    print(f"answer key: {args.out} ({solutions} solutions on {pages} pages)")
    return 0
