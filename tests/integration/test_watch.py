"""The watched folder against the real API (no workers): settled files are sent, accepted ones
move to done/, refused ones to failed/, and a restart never sends a file twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sudoku_batch.commands.watch import JOURNAL, Watcher
from sudoku_batch.settings import Settings
from tests.integration.conftest import api_client

pytestmark = pytest.mark.services

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def test_settled_files_are_submitted_and_moved(
    make_settings: Callable[[str], Settings], tmp_path: Path
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "scan.png").write_bytes(PNG)
    (inbox / "notes.png").write_bytes(b"not an image at all")
    (inbox / ".partial-upload").write_bytes(PNG)  # hidden: still being copied in
    with api_client(make_settings("watch")) as client:
        watcher = Watcher(inbox, client, "/batches", settle=5.0)
        assert watcher.settled(now=100.0) == []  # first sight: not settled yet
        (inbox / "late.png").write_bytes(PNG)
        ready = watcher.settled(now=106.0)
        assert [p.name for p in ready] == ["notes.png", "scan.png"]  # late.png just landed
        for path in ready:
            watcher.submit(path)
        batch = json.loads((inbox / "done" / "scan.png.json").read_text())
        assert client.get(batch["status"]).status_code == 200
        refused = json.loads((inbox / "failed" / "notes.png.json").read_text())
        assert refused["status_code"] == 415
        assert sorted(p.name for p in inbox.iterdir()) == [
            ".partial-upload", JOURNAL, "done", "failed", "late.png"
        ]  # fmt: skip
        assert json.loads((inbox / JOURNAL).read_text()) == {}


def test_a_file_accepted_before_a_restart_is_moved_not_sent_again(
    make_settings: Callable[[str], Settings], tmp_path: Path
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "scan.png").write_bytes(PNG)
    entry = {"batch_id": "1d2c", "status": "/batches/1d2c"}
    (inbox / JOURNAL).write_text(json.dumps({"scan.png": entry}))

    class NoPosting:
        def post(self, *_: object, **__: object) -> None:
            raise AssertionError("sent twice")

    watcher = Watcher(inbox, NoPosting(), "/batches", settle=0.0)
    watcher.finish_journalled()
    assert json.loads((inbox / "done" / "scan.png.json").read_text()) == entry
    assert not (inbox / "scan.png").exists()
    assert json.loads((inbox / JOURNAL).read_text()) == {}
