"""``sudoku-batch worker``: a Celery worker for some or all of the stage queues."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import TYPE_CHECKING

from sudoku_batch.commands import option_types
from sudoku_batch.jobs.table import queues as job_queues
from sudoku_batch.pipeline.errors import SudokuBatchError

if TYPE_CHECKING:
    from celery import Celery

ALL_QUEUES = ",".join(job_queues())
PING_SECONDS = 10.0


class UnknownQueue(SudokuBatchError):
    code = "unknown_queue"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "worker",
        help="run a Celery worker for the stage queues",
        description="Run a Celery worker. Start one per queue to scale each stage on its own.",
    )
    parser.add_argument(
        "--queues", default=ALL_QUEUES, help="comma-separated (default: %(default)s)"
    )
    parser.add_argument(
        "--concurrency",
        type=option_types.jobs,
        default=1,
        help="processes (default: %(default)s; each OCR process loads its own model)",
    )
    parser.add_argument("--pool", default="prefork", choices=("prefork", "solo", "threads"))
    parser.add_argument(
        "--hostname",
        help="node name, unique per worker (default: QUEUES@HOST, e.g. ocr@host1; add a suffix"
        " when running two workers for the same queues on one host)",
    )
    parser.add_argument("--loglevel", default="INFO")
    parser.add_argument(
        "--ping",
        action="store_true",
        help="instead of running a worker, check the store (the data folder or object"
        " storage: there, the API's, writable, not full) and ask the worker of this node name"
        " whether it is up (exit 0 if both are well; for healthchecks)",
    )
    parser.set_defaults(func=_worker)


def _worker(args: argparse.Namespace) -> int:
    from sudoku_batch.workers.app import app

    queues = [queue.strip() for queue in args.queues.split(",") if queue.strip()]
    unknown = sorted(set(queues) - set(job_queues()))
    if unknown or not queues:
        raise UnknownQueue(
            f"unknown queue(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(job_queues())}"
        )
    hostname = args.hostname or default_hostname(queues)
    if args.ping:
        return _ping(app, hostname)
    app.worker_main(
        argv=[
            "worker",
            f"--queues={','.join(queues)}",
            f"--concurrency={args.concurrency}",
            f"--pool={args.pool}",
            f"--loglevel={args.loglevel}",
            f"--hostname={hostname}",
        ]
    )
    return 0


def _ping(app: Celery, hostname: str) -> int:
    from sudoku_batch.workers import runtime

    problem = runtime.artifacts().storage.problem()
    if problem is not None:
        print(f"sudoku-batch: {problem}", file=sys.stderr)
        return 1
    if not app.control.ping(destination=[hostname], timeout=PING_SECONDS):
        print(f"sudoku-batch: the worker {hostname} does not answer", file=sys.stderr)
        return 1
    return 0


def default_hostname(queues: list[str]) -> str:
    # Distinct per queue set, so Flower lists an OCR and a solve worker on one host apart.
    return f"{'+'.join(queues)}@{socket.gethostname()}"
