"""Naming a batch by its output folder: a folder an older version wrote is migrated first."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from sqlalchemy import inspect

from store.db import make_engine, make_session_factory
from store.migrate import upgrade
from store.models import Batch
from sudoku_batch.cli import main
from sudoku_batch.embedded import DATABASE_NAME


def test_a_folder_of_an_older_schema_is_migrated_before_it_is_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / DATABASE_NAME}"
    upgrade(url, "0011")  # before puzzles.symbols
    engine = make_engine(url)
    try:
        with make_session_factory(engine)() as session:
            session.add(Batch())
            session.commit()
        key = tmp_path / "key.pdf"
        assert main(["answer-key", str(tmp_path), "--out", str(key)]) == 0
        assert len(pdfium.PdfDocument(key)) == 1
        engine.dispose()
        assert "symbols" in {c["name"] for c in inspect(engine).get_columns("puzzles")}
    finally:
        engine.dispose()
