"""``sudoku-batch watch DIR``: submit every file that lands in a folder, once it stops changing.

Each file becomes a batch of its own (labelled with its name). Accepted, it moves to
``DIR/done/`` with ``NAME.json`` beside it (the batch id and where to follow it); refused by
the API (too large, not an image, PDF or zip...), it moves to ``DIR/failed/`` with the reason.
While the API or the network is down, files stay where they are and are tried again.

Restarts are safe: a file is entered in ``DIR/.sudoku-batch-watch.json`` as soon as the API
accepts it and before it is moved, so a watcher stopped in between moves it on the next start
instead of submitting it twice.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_batch.commands import option_types
from sudoku_batch.commands.submit import api_client

logger = logging.getLogger(__name__)

JOURNAL = ".sudoku-batch-watch.json"
DONE, FAILED = "done", "failed"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="submit files dropped into a folder, each as a batch; move them to done/ or failed/",
        description="Watch DIR: every file that lands there and stops changing is submitted as "
        "a batch, then moved to DIR/done/ (with NAME.json: its batch) or DIR/failed/.",
    )
    parser.add_argument("folder", type=Path, metavar="DIR")
    parser.add_argument("--text", action="store_true", help="the files are puzzle text files")
    parser.add_argument("--api", help="API base URL (default: SUDOKU_BATCH_API_URL)")
    parser.add_argument("--api-key", help="API key (default: SUDOKU_BATCH_API_KEY)")
    parser.add_argument(
        "--settle",
        type=option_types.seconds_or_zero,
        default=5.0,
        help="seconds a file must stay unchanged before it is sent (default: %(default)s)",
    )
    parser.add_argument(
        "--poll", type=option_types.positive_seconds, default=2.0, help="seconds between looks"
    )
    parser.add_argument(
        "--once", action="store_true", help="exit once every file present is sent or moved"
    )
    parser.set_defaults(func=_watch)


@dataclass(frozen=True)
class Seen:
    size: int
    mtime_ns: int
    since: float  # monotonic time it was first seen like this


class Watcher:
    def __init__(self, folder: Path, client: Any, endpoint: str, settle: float):
        self.folder = folder
        self.client = client
        self.endpoint = endpoint
        self.settle = settle
        self.seen: dict[str, Seen] = {}
        for sub in (DONE, FAILED):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        self.journal_path = folder / JOURNAL

    def journal(self) -> dict[str, Any]:
        try:
            return json.loads(self.journal_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    def _write_journal(self, entries: dict[str, Any]) -> None:
        partial = self.journal_path.with_suffix(".partial")
        partial.write_text(json.dumps(entries), encoding="utf-8")
        partial.replace(self.journal_path)

    def finish_journalled(self) -> None:
        """Move files the API accepted before a restart, without sending them again."""
        for name, entry in self.journal().items():
            path = self.folder / name
            if path.is_file():
                self._move(path, DONE, entry)
            self._forget(name)

    def candidates(self) -> list[Path]:
        return sorted(
            path
            for path in self.folder.iterdir()
            if path.is_file() and not path.name.startswith(".")
        )

    def settled(self, now: float) -> list[Path]:
        """Files unchanged (size and modification time) for ``settle`` seconds."""
        ready = []
        present = set()
        for path in self.candidates():
            stat = path.stat()
            present.add(path.name)
            before = self.seen.get(path.name)
            if before is None or (before.size, before.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
                self.seen[path.name] = Seen(stat.st_size, stat.st_mtime_ns, now)
            elif now - before.since >= self.settle:
                ready.append(path)
        self.seen = {name: seen for name, seen in self.seen.items() if name in present}
        return ready

    def submit(self, path: Path) -> None:
        import httpx

        try:
            with path.open("rb") as stream:
                response = self.client.post(
                    self.endpoint,
                    files=[("files", (path.name, stream))],
                    data={"label": path.name},
                )
        except httpx.HTTPError as error:
            logger.warning("%s: the API is unreachable (%s); trying again", path.name, error)
            return
        if response.status_code == 201:
            answer = response.json()
            entry = {"batch_id": answer["batch_id"], "status": answer["status"]}
            self._write_journal({**self.journal(), path.name: entry})
            self._move(path, DONE, entry)
            self._forget(path.name)
            logger.info("%s: batch %s", path.name, answer["batch_id"])
        elif response.status_code in (401, 403) or response.status_code >= 500:
            # Not the file's fault: keep it and try again (a key fixed, the server back).
            logger.warning("%s: the API answered %s; trying again", path.name, response.status_code)
        else:
            self._move(
                path, FAILED, {"status_code": response.status_code, "detail": _detail(response)}
            )
            logger.warning("%s: refused (%s)", path.name, response.status_code)

    def _move(self, path: Path, sub: str, note: dict[str, Any]) -> None:
        target = _free_name(self.folder / sub / path.name)
        path.replace(target)
        target.with_name(target.name + ".json").write_text(json.dumps(note), encoding="utf-8")
        self.seen.pop(path.name, None)

    def _forget(self, name: str) -> None:
        entries = self.journal()
        if entries.pop(name, None) is not None:
            self._write_journal(entries)


def _free_name(target: Path) -> Path:
    """``target``, or ``stem-2.suffix`` and so on if something of that name is already there."""
    candidate, n = target, 1
    while candidate.exists():
        n += 1
        candidate = target.with_name(f"{target.stem}-{n}{target.suffix}")
    return candidate


def _detail(response: Any) -> str:
    try:
        return str(response.json().get("detail", response.text))
    except ValueError:
        return response.text


def _watch(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    from sudoku_batch.settings import Settings  # pydantic: imported when used

    settings = Settings.from_env()
    folder = args.folder.resolve()
    if not folder.is_dir():
        from sudoku_batch.commands.submit import ApiError

        raise ApiError(f"{folder}: no such folder to watch")
    endpoint = "/text-batches" if args.text else "/batches"
    with api_client(args.api or settings.api_url, args.api_key or settings.api_key) as client:
        watcher = Watcher(folder, client, endpoint, args.settle)
        watcher.finish_journalled()
        logger.info("watching %s", folder)
        while True:
            ready = watcher.settled(time.monotonic())
            for path in ready:
                watcher.submit(path)
            if args.once and not watcher.seen:
                return 0
            time.sleep(args.poll)
