"""Damaged files that still decode: a truncated JPEG (the first 20 KB of a photo) and a PDF
whose page image stream is broken. The page is marked damaged with the decoder's warning, and
nothing read on it is solved (a fragment must never come out as a solved puzzle)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.pipeline.ingest.damage import image_damage
from sudoku_batch.synth.pdf import write_jpeg_pdf
from tests.bad_inputs import EXAMPLES

PHOTO = (EXAMPLES / "photo.jpg").read_bytes()
FIRST_BYTES = 20_000


def _run(path: Path, out: Path) -> list[dict]:
    return run_batch([path], EmbeddedOptions(out, jobs=1, progress=False)).records


@pytest.mark.parametrize("kind", ["jpeg", "pdf"])
def test_a_damaged_page_is_marked_and_nothing_on_it_is_solved(kind: str, tmp_path: Path) -> None:
    if kind == "jpeg":
        path = tmp_path / "truncated.jpg"
        path.write_bytes(PHOTO[:FIRST_BYTES])
    else:
        # A well-formed PDF around a broken image stream: only the stream is cut short.
        path = tmp_path / "broken-stream.pdf"
        with Image.open(EXAMPLES / "photo.jpg") as photo:
            width, height = photo.size
        write_jpeg_pdf(path, iter([(PHOTO[:FIRST_BYTES], width, height)]), 150)
    records = _run(path, tmp_path / "run")
    assert records
    for record in records:
        assert record["damaged"], record
        assert record["status"] != "solved", record
        assert record.get("render_path") is None
        assert record.get("certified") is not True, record
        if record.get("puzzle_id") is not None:
            assert "damaged_page" in [reason["code"] for reason in record["review_reasons"]]


def test_an_intact_photo_is_not_damaged(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(PHOTO)
    records = _run(path, tmp_path / "run")
    assert [r["damaged"] for r in records] == [None]
    assert records[0]["status"] == "solved"
    assert records[0]["certified"] is True, records[0]["review_reasons"]


def test_the_file_end_decides(tmp_path: Path) -> None:
    assert image_damage("", PHOTO, "JPEG") is None
    assert "truncated" in image_damage("", PHOTO[:FIRST_BYTES], "JPEG")
    assert image_damage("", PHOTO[:FIRST_BYTES], "TIFF") is None  # no such check
    path = tmp_path / "cut.jpg"
    path.write_bytes(PHOTO[:FIRST_BYTES])
    assert "truncated" in image_damage(str(path), None, "JPEG")
