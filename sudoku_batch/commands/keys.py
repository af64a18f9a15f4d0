"""``sudoku-batch keys``: create, list and revoke the API's keys (in the server's database)."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "keys",
        help="create, list or revoke API keys",
        description="Manage the keys the API accepts (Authorization: Bearer KEY). A key is "
        "printed once, when created; the database keeps only its hash.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="make a key and print it (once)")
    create.add_argument("name", help="who or what the key is for, e.g. scanner-room-2")
    actions.add_parser("list", help="list keys: name, created, revoked")
    revoke = actions.add_parser("revoke", help="stop accepting a key")
    revoke.add_argument("name")
    parser.set_defaults(func=_keys)


def _keys(args: argparse.Namespace) -> int:
    from sudoku_batch.settings import Settings  # pydantic: imported when used
    from sudoku_batch.store import keys
    from sudoku_batch.store.db import make_engine, make_session_factory, transaction

    engine = make_engine(Settings.from_env().database_url)
    try:
        with transaction(make_session_factory(engine)) as session:
            if args.action == "create":
                key = keys.create_key(session, args.name)
            elif args.action == "revoke":
                keys.revoke_key(session, args.name)
            else:
                listed = keys.list_keys(session)
    finally:
        engine.dispose()
    if args.action == "create":
        print(key)
        print(f"key {args.name!r} created; it is shown only now", file=sys.stderr)
    elif args.action == "revoke":
        print(f"key {args.name!r} revoked", file=sys.stderr)
    else:
        for info in listed:
            revoked = f"revoked {info.revoked_at:%Y-%m-%d %H:%M}" if info.revoked_at else "live"
            print(f"{info.name}\tcreated {info.created_at:%Y-%m-%d %H:%M}\t{revoked}")
    return 0
