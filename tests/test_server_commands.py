"""Small rules of the server commands: Flower's auth, workers' node names."""

from __future__ import annotations

import socket

import pytest

from sudoku_batch.commands.flower import auth_problem
from sudoku_batch.commands.submit import upload_names
from sudoku_batch.commands.worker import default_hostname


@pytest.mark.parametrize("auth", ["", "admin:", ":secret", "admin:ok,guest:", "admin"])
def test_flower_refuses_auth_without_a_user_and_a_password(auth: str) -> None:
    assert auth_problem(auth)


def test_flower_accepts_users_with_passwords() -> None:
    assert auth_problem("admin:s3cret,viewer:also") is None


def test_workers_are_named_after_their_queues_and_host() -> None:
    assert default_hostname(["ocr"]) == f"ocr@{socket.gethostname()}"
    assert default_hostname(["ingest", "rectify"]).startswith("ingest+rectify@")


def test_submit_sends_base_names_only(tmp_path) -> None:
    (tmp_path / "scans" / "deep").mkdir(parents=True)
    (tmp_path / "scans" / "deep" / "p1.png").write_bytes(b"x")
    (tmp_path / "book.pdf").write_bytes(b"x")
    files, refused = upload_names([tmp_path / "scans", tmp_path / "book.pdf"])
    assert [name for name, _ in files] == ["p1.png", "book.pdf"] and not refused


def test_keys_are_created_once_listed_and_revoked(tmp_path, monkeypatch, capsys) -> None:
    from sudoku_batch.cli import main

    monkeypatch.setenv("SUDOKU_BATCH_DATABASE_URL", f"sqlite:///{tmp_path / 'keys.sqlite'}")
    assert main(["migrate"]) == 0
    assert main(["keys", "create", "scanner"]) == 0
    key = capsys.readouterr().out.strip()
    assert key.startswith("sbk_") and len(key) > 40
    assert main(["keys", "create", "scanner"]) == 2  # names are unique
    assert main(["keys", "revoke", "scanner"]) == 0
    capsys.readouterr()
    assert main(["keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert "scanner" in listed and "revoked" in listed and key not in listed
