"""``sudoku-batch report``: the book check of a batch as an HTML report (and a PDF)."""

from __future__ import annotations

import argparse
import sys

from sudoku_batch.commands import option_types
from sudoku_batch.commands.batch_ref import add_batch_arguments, batch_session


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write a batch's book check (verdicts, ratings, answer keys, duplicates) as HTML",
        description=(
            "Summary (pages, grids, verdicts, levels and ratings, answer-key mismatches, "
            "duplicates, low-confidence readings) and every grid with what to fix."
        ),
    )
    add_batch_arguments(parser)
    parser.add_argument("--out", required=True, type=option_types.out_file, metavar="HTML")
    parser.add_argument(
        "--pdf",
        type=option_types.out_file,
        metavar="PDF",
        help="also print it to PDF (headless Chromium)",
    )
    parser.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    from sudoku_batch.reports.book_report import build_report
    from sudoku_batch.reports.html import render_report_html
    from sudoku_batch.reports.pdf import ChromiumMissing, print_to_pdf

    with batch_session(args) as (session, batch_id):
        report = build_report(session, batch_id)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render_report_html(report), encoding="utf-8")
    print(f"report: {args.out} ({report.grids} grids, {report.to_fix} to fix)")
    if args.pdf:
        try:
            print_to_pdf(args.out, args.pdf)
            print(f"pdf: {args.pdf}")
        except ChromiumMissing as missing:
            print(f"no PDF written: {missing}", file=sys.stderr)
    return 0
