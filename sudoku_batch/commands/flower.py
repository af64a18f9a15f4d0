"""``sudoku-batch flower``: Flower, to watch workers and tasks, behind basic auth."""

from __future__ import annotations

import argparse

from sudoku_batch.commands import option_types
from sudoku_batch.pipeline.errors import SudokuBatchError


class FlowerAuthMissing(SudokuBatchError):
    code = "flower_auth_missing"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "flower",
        help="watch workers and tasks in Flower (FLOWER_BASIC_AUTH=user:password)",
        description="Run Flower on the broker, with basic auth from FLOWER_BASIC_AUTH.",
    )
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=option_types.port, default=5555)
    parser.set_defaults(func=_flower)


def _flower(args: argparse.Namespace) -> int:
    from sudoku_batch.settings import Settings  # pydantic: imported when used

    problem = auth_problem(Settings.from_env().flower_basic_auth)
    if problem:
        # Flower shows task arguments and can shut workers down: never serve it unprotected.
        raise FlowerAuthMissing(f"FLOWER_BASIC_AUTH: {problem}")
    from sudoku_batch.workers.app import app

    # Flower reads FLOWER_BASIC_AUTH itself, which keeps the password off the command line.
    app.start(argv=["flower", f"--address={args.address}", f"--port={args.port}"])
    return 0


def auth_problem(auth: str) -> str | None:
    """Why ``user:password[,user:password...]`` would not protect Flower, or None."""
    if not auth:
        return "set it to user:password to start Flower"
    for pair in auth.split(","):
        user, _, password = pair.partition(":")
        if not user or not password:
            return f"{pair!r} needs a user and a non-empty password (user:password)"
    return None
