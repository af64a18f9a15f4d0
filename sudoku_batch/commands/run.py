"""``sudoku-batch run``: process inputs on this machine, no servers needed."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pipeline.ingest.sources import DEFAULT_PDF_DPI
from pipeline.recognise.ocr.engines import DEFAULT_ENGINE
from pipeline.solve.backends import DEFAULT_BACKEND
from sudoku_batch.commands.text_options import add_text_batch_arguments, text_batch_box


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="process images, PDFs, zips or folders here (SQLite, every core, no servers)",
        description=(
            "Find every Sudoku in the inputs, read it, solve it and write DIR/results.jsonl, "
            "the rendered solutions under DIR/renders/ and every row in DIR/sudoku-batch.sqlite."
        ),
    )
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="image, PDF, zip or folder")
    add_text_batch_arguments(parser)
    parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="pages processed at once, one process each (default: every core)",
    )
    parser.add_argument(
        "--engine", default=DEFAULT_ENGINE, help="OCR engine (default: %(default)s)"
    )
    parser.add_argument(
        "--backend", default=DEFAULT_BACKEND, help="SAT backend (default: %(default)s)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        help="seconds the solver may spend on one puzzle (default: %(default)s)",
    )
    parser.add_argument("--dpi", type=int, default=DEFAULT_PDF_DPI, help="PDF rasterisation dpi")
    parser.add_argument(
        "--keep-intermediates",
        action="store_true",
        help="also write the cell interiors the recogniser read under DIR/cells/",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from sudoku_batch.embedded import EmbeddedOptions, run_batch, summarise

    options = EmbeddedOptions(
        out_dir=args.out,
        jobs=max(1, args.jobs),
        engine=args.engine,
        backend=args.backend,
        solve_timeout=args.timeout,
        dpi=args.dpi,
        keep_intermediates=args.keep_intermediates,
        progress=not args.no_progress,
    )
    box = text_batch_box(args)
    if args.text:
        from sudoku_batch.embedded_text import run_text_batch

        records = run_text_batch(args.inputs, options, box)
    else:
        records = run_batch(args.inputs, options)
    print(summarise(records))
    print(f"results: {args.out / 'results.jsonl'}")
    return 0
