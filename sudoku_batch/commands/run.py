"""``sudoku-batch run``: process inputs on this machine, no servers needed."""

from __future__ import annotations

import argparse
import os
import sys

from sudoku_batch.commands import option_types
from sudoku_batch.commands.text_options import add_text_batch_arguments, text_batch_box
from sudoku_batch.outcome import ExitCode, exit_code, summary_lines
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI
from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE, ENGINES
from sudoku_batch.pipeline.solve.backends import BACKEND_NAMES, DEFAULT_BACKEND
from sudoku_batch.pipeline.solve.timeouts import COMMAND_SOLVE_TIMEOUT
from sudoku_batch.settings.environment import any_setting_given


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
    parser.add_argument("--out", required=True, type=option_types.out_folder, metavar="DIR")
    parser.add_argument(
        "--jobs",
        type=option_types.jobs,
        default=os.cpu_count() or 1,
        help="pages processed at once, one process each (default: every core)",
    )
    parser.add_argument(
        "--engine",
        choices=sorted(ENGINES),
        default=DEFAULT_ENGINE,
        help="OCR engine (default: %(default)s)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKEND_NAMES,
        default=DEFAULT_BACKEND,
        help="SAT backend (default: %(default)s)",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="start over: without it, an unfinished run of the same inputs into DIR is resumed",
    )
    parser.add_argument(
        "--timeout",
        type=option_types.positive_seconds,
        default=COMMAND_SOLVE_TIMEOUT,
        help="seconds the solver may spend on one puzzle (default: %(default)s)",
    )
    parser.add_argument(
        "--dpi",
        type=option_types.dpi,
        default=DEFAULT_PDF_DPI,
        help=f"PDF rasterisation dpi, {option_types.MIN_DPI}-{option_types.MAX_DPI} "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--keep-intermediates",
        action="store_true",
        help="also write each whole page under DIR/pages/ and the cell interiors the "
        "recogniser read under DIR/cells/",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from sudoku_batch.embedded import RUN_AGAIN, EmbeddedOptions, run_batch

    options = EmbeddedOptions(
        out_dir=args.out,
        jobs=args.jobs,
        engine=args.engine,
        backend=args.backend,
        solve_timeout=args.timeout,
        dpi=args.dpi,
        keep_intermediates=args.keep_intermediates,
        progress=not args.no_progress,
        restart=args.restart,
        **_from_settings(),
    )
    box = text_batch_box(args)
    if args.text:
        from sudoku_batch.embedded_store import output_storage_fault
        from sudoku_batch.embedded_text import run_text_batch

        try:
            run = run_text_batch(args.inputs, options, box)
        except Exception as error:
            fault = output_storage_fault(error)  # exit 3 with its reason, not a bug
            if fault is None:
                raise
            raise fault from error
    else:
        run = run_batch(args.inputs, options)
    records, interrupted, stopped_by = run.records, run.interrupted, run.stopped_by
    kept = f"{run.pages_kept} {'line' if args.text else 'page'}(s)"
    if run.resumed and not run.pages_done and not interrupted:
        print(
            f"batch {run.batch_id} of these inputs is already done ({kept}), nothing changed "
            "since: nothing to do (--restart does it again)"
        )
    elif run.resumed:
        print(f"resumed batch {run.batch_id}: {kept} were already done")
    print("\n".join(summary_lines(records, str(run.results))))
    print(f"results: {run.results}")
    if stopped_by is not None:
        print(f"sudoku-batch: {stopped_by.message}; {RUN_AGAIN}", file=sys.stderr)
        return ExitCode.UNAVAILABLE
    code = exit_code(records, interrupted)
    if code is ExitCode.INTERRUPTED:
        print("interrupted: run the same command again to finish", file=sys.stderr)
    return code


def _from_settings() -> dict:
    """The input bounds, the rating budget, the certificate's thresholds and the engines' files
    of the SUDOKU_BATCH_ variables; with none set, the defaults without importing pydantic
    (``startup``)."""
    if not any_setting_given():
        return {}
    from sudoku_batch.settings import Settings

    settings = Settings.from_env()
    return {
        "limits": settings.input_limits(),
        "rating_seconds": settings.rating_seconds,
        "certify_policy": settings.certify_policy(),
        "engine_files": settings.engine_files(),
    }
