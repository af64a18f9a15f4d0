"""Ingest: every supported container becomes pages in order, and bad files fail typed, alone."""

from __future__ import annotations

import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from sudoku_batch.pipeline.errors import UnreadableInput, UnsupportedInput
from sudoku_batch.pipeline.ingest.archive import list_members, read_member
from sudoku_batch.pipeline.ingest.limits import InputLimits
from sudoku_batch.pipeline.ingest.sources import PageFormat, expand_inputs, load_page


def _coloured(height: int, width: int, bgr: tuple[int, int, int]) -> np.ndarray:
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = bgr
    return image


def _save_pdf(path: Path, pages: list[np.ndarray]) -> None:
    frames = [Image.fromarray(page[:, :, ::-1]) for page in pages]
    frames[0].save(path, save_all=True, append_images=frames[1:], resolution=100)


def test_image_formats_decode_to_bgr(tmp_path: Path) -> None:
    red = _coloured(40, 60, (0, 0, 255))
    for suffix in (".png", ".jpg", ".tiff", ".webp", ".bmp"):
        cv2.imwrite(str(tmp_path / f"red{suffix}"), red)
    pages = [load_page(source) for source in expand_inputs([tmp_path])]
    assert [Path(p.source).suffix for p in pages] == [".bmp", ".jpg", ".png", ".tiff", ".webp"]
    for page in pages:
        assert page.pixels.shape == (40, 60, 3)
        blue, green, red_channel = page.pixels[20, 30].astype(int)
        assert red_channel > 200 and blue < 40 and green < 40, page.source


def test_pdf_pages_rasterise_in_order_at_the_requested_dpi(tmp_path: Path) -> None:
    pages = [_coloured(100, 150, (255, 0, 0)), _coloured(100, 150, (0, 255, 0))]
    _save_pdf(tmp_path / "book.pdf", pages)
    sources = list(expand_inputs([tmp_path / "book.pdf"]))
    assert [(s.page, s.format) for s in sources] == [(1, PageFormat.PDF), (2, PageFormat.PDF)]
    first, second = (load_page(s, dpi=200) for s in sources)
    # 150 px at 100 dpi is 1.5 in, which is 300 px at 200 dpi.
    assert first.pixels.shape == (200, 300, 3)
    assert first.pixels[100, 150, 0] > 200 and second.pixels[100, 150, 1] > 200


def test_zip_members_are_labelled_archive_slash_member(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), _coloured(20, 20, (0, 0, 0)))
    _save_pdf(tmp_path / "b.pdf", [_coloured(20, 20, (0, 0, 0))] * 2)
    archive = tmp_path / "scans.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(tmp_path / "a.png", "chapter1/a.png")
        zf.write(tmp_path / "b.pdf", "b.pdf")
        zf.writestr("readme.txt", "not a page")
        zf.writestr("__MACOSX/chapter1/._a.png", "resource fork")
    labels = [(s.source, s.page) for s in expand_inputs([archive])]
    assert labels == [
        (f"{archive}/b.pdf", 1),
        (f"{archive}/b.pdf", 2),
        (f"{archive}/chapter1/a.png", 1),
    ]
    assert all(load_page(s).pixels.ndim == 3 for s in expand_inputs([archive]))


def test_exif_rotation_flag_is_ignored(tmp_path: Path) -> None:
    # Some phones flag pixels that are already upright as rotated; content decides later.
    image = Image.fromarray(np.zeros((30, 80, 3), np.uint8))
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to display"
    image.save(tmp_path / "flagged.jpg", exif=exif)
    (source,) = expand_inputs([tmp_path / "flagged.jpg"])
    assert load_page(source).pixels.shape[:2] == (30, 80)


def test_bad_files_become_typed_errors_without_stopping_the_rest(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (tmp_path / "broken.zip").write_bytes(b"PK but not really")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    cv2.imwrite(str(tmp_path / "good.png"), _coloured(40, 40, (9, 9, 9)))
    explicit = [
        tmp_path / name
        for name in ("notes.txt", "broken.jpg", "broken.zip", "broken.pdf", "good.png")
    ]
    outcomes = {}
    for source in expand_inputs(explicit):
        try:
            outcomes[Path(source.source).name] = load_page(source).pixels.shape
        except (UnreadableInput, UnsupportedInput) as error:
            assert Path(source.source).name in error.message
            outcomes[Path(source.source).name] = type(error).__name__
    assert outcomes == {
        "notes.txt": "UnsupportedInput",
        "broken.jpg": "UnreadableInput",
        "broken.zip": "UnreadableInput",
        "broken.pdf": "UnreadableInput",
        "good.png": (40, 40, 3),
    }


def test_a_folder_skips_files_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / ".hidden.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "page.png"), _coloured(40, 40, (9, 9, 9)))
    assert [Path(s.source).name for s in expand_inputs([tmp_path])] == ["page.png"]


def test_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    (source,) = expand_inputs([tmp_path / "nowhere.png"])
    with pytest.raises(UnreadableInput, match="nowhere.png"):
        load_page(source)


def test_an_archive_that_cannot_be_read_says_why_and_names_no_path_of_the_host(
    tmp_path: Path,
) -> None:
    where = tmp_path / "host-folder"
    (where / "scans.zip").mkdir(parents=True)  # a folder where the archive should be
    with pytest.raises(UnreadableInput) as listed:
        list(list_members(where / "scans.zip", "scans.zip", InputLimits()))
    gone = where / "gone.zip"
    with pytest.raises(UnreadableInput) as read:
        read_member(gone, "a.png", "gone.zip/a.png", InputLimits())
    assert listed.value.message == "scans.zip: cannot be read (Is a directory)"
    assert read.value.message == "gone.zip/a.png: no such file or folder"
