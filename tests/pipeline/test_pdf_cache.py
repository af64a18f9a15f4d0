"""A PDF is opened once per process for all its pages, and afresh once the file changes."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sudoku_batch.pipeline.ingest import pdf_cache, sources
from sudoku_batch.pipeline.ingest.sources import expand_inputs, load_page


def _save_pdf(path: Path, shades: list[int]) -> None:
    pages = [Image.new("RGB", (40, 30), (shade,) * 3) for shade in shades]
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=72)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths pdfium opened, in order."""
    pdf_cache.close_all()
    paths: list[str] = []
    real = sources._pdf_document

    def counting(path, *args):
        paths.append(str(path))
        return real(path, *args)

    monkeypatch.setattr(sources, "_pdf_document", counting)
    yield paths
    pdf_cache.close_all()


def test_pages_of_one_pdf_open_it_once(tmp_path: Path, opened: list[str]) -> None:
    _save_pdf(tmp_path / "book.pdf", [0, 128, 255])
    listed = list(expand_inputs([tmp_path / "book.pdf"]))  # opens it to count the pages
    opened.clear()
    pages = [load_page(source, dpi=72).pixels for source in listed]
    assert [int(np.median(page)) for page in pages] == [0, 128, 255]
    assert opened == [str(tmp_path / "book.pdf")]


def test_a_changed_pdf_is_opened_again(tmp_path: Path, opened: list[str]) -> None:
    path = tmp_path / "book.pdf"
    _save_pdf(path, [0, 0])
    first = next(iter(expand_inputs([path])))
    opened.clear()
    assert int(np.median(load_page(first, dpi=72).pixels)) == 0
    _save_pdf(path, [255, 255])
    os.utime(path, ns=(1, 1))  # a different mtime even on a coarse clock
    assert int(np.median(load_page(first, dpi=72).pixels)) == 255
    assert len(opened) == 2
    assert pdf_cache.open_count() == 1  # the stale document was closed


def test_only_a_few_documents_stay_open(tmp_path: Path, opened: list[str]) -> None:
    for number in range(pdf_cache.MAX_OPEN + 2):
        _save_pdf(tmp_path / f"{number}.pdf", [number])
        for source in expand_inputs([tmp_path / f"{number}.pdf"]):
            load_page(source, dpi=72)
    assert pdf_cache.open_count() == pdf_cache.MAX_OPEN


def test_a_document_is_opened_again_after_its_share_of_pages(
    tmp_path: Path, opened: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # pdfium keeps what it parsed for every page rendered: a document kept open for a whole
    # book grew a worker's memory by about 0.3 MB a page.
    monkeypatch.setattr(pdf_cache, "PAGES_PER_OPEN", 2)
    _save_pdf(tmp_path / "book.pdf", [0, 64, 128, 192, 255])
    listed = list(expand_inputs([tmp_path / "book.pdf"]))
    opened.clear()
    pages = [load_page(source, dpi=72).pixels for source in listed]
    assert [int(np.median(page)) for page in pages] == [0, 64, 128, 192, 255]
    assert len(opened) == 3  # pages 1-2, 3-4, 5
    assert pdf_cache.open_count() == 1
