"""Collection paused while a process starts (issue 13): none inside the pause, the objects
made inside are old after it, and a one-photo ``run``'s store start-up runs paused."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from sudoku_batch import embedded_store
from sudoku_batch.cli import COMMANDS, build_parser, main
from sudoku_batch.startup import collection_paused
from tests.conftest import REPO_ROOT


class _Made:
    """A tracked object to look for in the generations."""


def test_nothing_is_collected_inside_and_what_was_made_is_old_after() -> None:
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        made = _Made()
        assert gc.is_tracked(made)
    assert gc.isenabled()
    assert any(found is made for found in gc.get_objects(generation=2))
    assert not any(found is made for found in gc.get_objects(generation=0))


def test_collection_stays_off_if_it_was_off_and_frozen_objects_stay_frozen() -> None:
    gc.disable()
    try:
        gc.freeze()
        frozen = gc.get_freeze_count()
        with collection_paused():
            pass
        assert not gc.isenabled()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_runs_store_start_up_runs_paused(tmp_path: Path, monkeypatch) -> None:
    enabled_at_open = []
    real = embedded_store.open_database

    def recording(out_dir: Path):
        enabled_at_open.append(gc.isenabled())
        return real(out_dir)

    monkeypatch.setattr(embedded_store, "open_database", recording)
    photo = REPO_ROOT / "examples" / "photo.jpg"
    assert main(["run", str(photo), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    assert enabled_at_open == [False]
    assert gc.isenabled()


def test_a_named_command_gets_its_parser_alone_and_help_lists_every_command(capsys) -> None:
    assert build_parser(["run", "photo.jpg", "--out", "x"]).parse_args(
        ["run", "photo.jpg", "--out", "x"]
    ).inputs == ["photo.jpg"]
    with pytest.raises(SystemExit):
        build_parser(["--help"]).parse_args(["--help"])
    listed = capsys.readouterr().out
    assert all(command in listed for command in COMMANDS)
