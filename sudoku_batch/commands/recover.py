"""``sudoku-batch recover``: send stranded work to the queues again, now (workers also do this
every ``SUDOKU_BATCH_SWEEP_SECONDS``; see ``workers.sweep``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recover",
        help="re-queue input files, pages and puzzles that no queued message will reach",
        description="Run the recovery sweep once: send again every subject that waits for a "
        "stage but was never sent, was lost by the broker, or was claimed by a dead worker.",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="also re-send waiting subjects whose queue is not empty (duplicates are dropped)",
    )
    parser.set_defaults(func=_recover)


def _recover(args: argparse.Namespace) -> int:
    from sudoku_batch.settings import Settings  # pydantic: imported when used
    from sudoku_batch.store.db import make_engine, make_session_factory
    from sudoku_batch.workers.app import make_celery
    from sudoku_batch.workers.sweep import sweep_once

    settings = Settings.from_env()
    engine = make_engine(settings.database_url)
    try:
        report = sweep_once(
            make_celery(settings), make_session_factory(engine), settings, everything=args.all
        )
    finally:
        engine.dispose()
    for step, count in sorted(report.sent.items()):
        print(f"{step}: {count} sent again")
    print(f"{report.total} subject(s) sent again")
    return 0
