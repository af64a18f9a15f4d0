"""``sudoku-batch api``: serve the HTTP API with uvicorn."""

from __future__ import annotations

import argparse

from sudoku_batch.commands import option_types


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "api",
        help="serve the HTTP API",
        description="Serve the HTTP API: submit batches, follow them, fetch results and renders.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=option_types.port, default=8000)
    parser.add_argument(
        "--workers", type=option_types.jobs, default=1, help="uvicorn worker processes"
    )
    parser.set_defaults(func=_api)


def _api(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run(
        "sudoku_batch.api.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
    )
    return 0
