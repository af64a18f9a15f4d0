"""A corpus of bad inputs, generated (no binary fixtures), with what each must come to.

``make_corpus(folder)`` writes every kind of input the issue found sinking or hurting a run
(bombs, damaged files, password archives, zip slip, FIFOs, link loops...) beside good inputs
from ``examples/``, and returns the paths to hand to ``run`` or ``submit`` with, per kind,
the label the records carry and the codes it may end in. Bombs are small on disk: a PNG's
header declares its size, a zip member of zeros deflates 1000 to 1.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from tests.conftest import REPO_ROOT

EXAMPLES = REPO_ROOT / "examples"
READ_BUT_NO_GRID = {"no_grid", "no_lattice"}
# A damaged page that still decodes: any grid on it is read but never solved (it may be a
# fragment).
DAMAGED_GRID = "not_sudoku"


@dataclass(frozen=True)
class Kind:
    name: str  # what the issue calls it
    label: str  # the record's source (for a zip member: archive.zip/member)
    codes: frozenset[str]  # the error_code or status it may end in
    bomb: bool = False


@dataclass
class Corpus:
    inputs: list[Path]  # what to name on the command line
    kinds: list[Kind]
    good: list[str]  # labels of the inputs whose grids must all be solved


def make_corpus(folder: Path, *, with_special_files: bool = True) -> Corpus:
    """Write the corpus under ``folder``; ``with_special_files`` False leaves out what cannot
    be uploaded (FIFOs, devices, dangling links), for the API."""
    bad = folder / "bad"
    bad.mkdir(parents=True)
    kinds: list[Kind] = []

    def add(name: str, filename: str, *codes: str, bomb: bool = False) -> None:
        kinds.append(Kind(name, f"{bad}/{filename}", frozenset(codes), bomb))

    (bad / "empty.png").write_bytes(b"")
    add("0-byte file", "empty.png", "unreadable_input")
    photo = (EXAMPLES / "photo.jpg").read_bytes()
    (bad / "truncated.jpg").write_bytes(photo[: len(photo) // 3])
    add("truncated JPEG", "truncated.jpg", "unreadable_input", DAMAGED_GRID, *READ_BUT_NO_GRID)
    (bad / "truncated.png").write_bytes(_png_bytes(np.full((300, 300, 3), 255, np.uint8))[:200])
    add("truncated PNG", "truncated.png", "unreadable_input")
    (bad / "text-as.png").write_text("this is not a picture\n")
    add("text named .png", "text-as.png", "unreadable_input")
    (bad / "png-as.webp").write_bytes(_png_bytes(np.full((300, 400, 3), 255, np.uint8)))
    add("PNG named .webp (mislabelled, blank)", "png-as.webp", *READ_BUT_NO_GRID)
    (bad / "bomb-32000.png").write_bytes(_png_bomb(32000, 32000))
    add("PNG declaring 32000x32000 (125 KB)", "bomb-32000.png", "too_large", bomb=True)
    (bad / "bomb-60000.png").write_bytes(_png_header_only(60000, 60000))
    add("PNG declaring 60000x60000", "bomb-60000.png", "too_large", bomb=True)
    cv2.imwrite(str(bad / "strip.png"), np.full((2, 20000, 3), 255, np.uint8))
    add("2x20000 image", "strip.png", "too_small")
    cv2.imwrite(str(bad / "pixel.png"), np.full((1, 1, 3), 255, np.uint8))
    add("1x1 image", "pixel.png", "too_small")
    cv2.imwrite(str(bad / "blank.png"), np.full((600, 400, 3), 255, np.uint8))
    add("blank page", "blank.png", *READ_BUT_NO_GRID)
    frames = [Image.new("L", (32, 32), 255) for _ in range(500)]
    frames[0].save(bad / "frames.tiff", save_all=True, append_images=frames[1:])
    add("500-frame TIFF", "frames.tiff", "too_large", bomb=True)
    _encrypted_pdf(bad / "encrypted.pdf")
    add("password-protected PDF", "encrypted.pdf", "encrypted")
    book = (EXAMPLES / "book.pdf").read_bytes()
    (bad / "truncated.pdf").write_bytes(book[: len(book) // 2])
    add("truncated PDF", "truncated.pdf", "unreadable_input", DAMAGED_GRID, *READ_BUT_NO_GRID)
    (bad / "no-pages.pdf").write_bytes(_pdf_without_pages())
    add("0-page PDF", "no-pages.pdf", "unreadable_input")
    _pdf_page(bad / "huge-page.pdf", 14400, 14400)
    add("PDF with a 14400 pt page", "huge-page.pdf", "too_large", bomb=True)
    (bad / "broken.zip").write_bytes(b"PK\x03\x04 not really a zip")
    add("damaged zip", "broken.zip", "unreadable_input")
    _zip(bad / "notes.zip", {"readme.txt": b"hello", "data.csv": b"1,2"})
    add("zip of non-images", "notes.zip", "unsupported_input")
    _zip(bad / "nested.zip", {"inner.zip": _zip_bytes({"p.png": _png_bytes(_white())})})
    add("zip inside a zip", "nested.zip/inner.zip", "unsupported_input")
    _zip(bad / "slip.zip", {"../escape.png": _png_bytes(_white())})
    add("zip slip (../ member)", "slip.zip/../escape.png", "unsafe_path")
    _zip(bad / "absolute.zip", {"/etc/absolute.png": _png_bytes(_white())})
    add("absolute member name", "absolute.zip//etc/absolute.png", "unsafe_path")
    _zip(bad / "password.zip", {"book.pdf": book}, encrypted=True)
    add("password zip holding a PDF", "password.zip/book.pdf", "encrypted")
    _zip_of_zeros(bad / "bomb.zip", "zeros.png", 200 << 20)
    add("zip bomb (200 MB member, 1000:1)", "bomb.zip/zeros.png", "too_large", bomb=True)
    (bad / "mixed.zip").write_bytes(_zip_bytes({"photo.jpg": photo, "broken.png": b"\x89PNG nope"}))
    add("damaged member beside a good one", "mixed.zip/broken.png", "unreadable_input")
    (bad / "notes.txt").write_text("not a puzzle image")
    inputs = [bad, bad / "notes.txt", folder / "missing.png"]
    kinds.append(
        Kind("a .txt named outright", f"{bad}/notes.txt", frozenset({"unsupported_input"}))
    )
    kinds.append(
        Kind("a path that does not exist", f"{folder}/missing.png", frozenset({"unreadable_input"}))
    )
    if with_special_files:
        os.mkfifo(bad / "fifo.png")
        add("FIFO named .png", "fifo.png", "unsupported_input")
        (bad / "dangling.png").symlink_to(bad / "nowhere.png")
        add("dangling symlink", "dangling.png", "unreadable_input")
        (bad / "loop.png").symlink_to(bad / "loop.png")
        add("symlink loop", "loop.png", "unreadable_input")
        (bad / "folder-link.pdf").symlink_to(bad, target_is_directory=True)
        add("link to a folder", "folder-link.pdf", "unsupported_input")
        inputs.append(Path("/dev/null"))
        kinds.append(Kind("a device named outright", "/dev/null", frozenset({"unsupported_input"})))
    good = folder / "good"
    good.mkdir()
    (good / "photo.jpg").write_bytes(photo)
    (good / "book.pdf").write_bytes(book)
    (good / "photo-as.png").write_bytes(photo)  # a JPEG named .png: read by content
    inputs.append(good)
    labels = [
        f"{good}/photo.jpg",
        f"{good}/book.pdf",
        f"{good}/photo-as.png",
        f"{bad}/mixed.zip/photo.jpg",
    ]
    return Corpus(inputs, kinds, labels)


def _white() -> np.ndarray:
    return np.full((64, 64, 3), 255, np.uint8)


def _png_bytes(pixels: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", pixels)
    assert ok
    return data.tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def _png_header_only(width: int, height: int, idat: bytes = b"") -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit grey
    idat = idat or zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


def _png_bomb(width: int, height: int) -> bytes:
    """A complete, valid 1-bit PNG of zeros: ~125 KB that decodes to width x height pixels."""
    row = b"\x00" * (1 + (width + 7) // 8)
    squeeze = zlib.compressobj(9)
    idat = b"".join(squeeze.compress(row * 1000) for _ in range(height // 1000))
    return _png_header_only(width, height, idat + squeeze.flush())


def _encrypted_pdf(path: Path) -> None:
    import pypdf

    writer = pypdf.PdfWriter()
    writer.add_blank_page(612, 792)
    writer.encrypt("secret", algorithm="RC4-128")
    with path.open("wb") as out:
        writer.write(out)


def _pdf_page(path: Path, width: float, height: float) -> None:
    import pypdfium2

    document = pypdfium2.PdfDocument.new()
    document.new_page(width, height)
    document.save(str(path))
    document.close()


def _pdf_without_pages() -> bytes:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = io.BytesIO(b"%PDF-1.4\n")
    out.seek(0, io.SEEK_END)
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def _zip_bytes(members: dict[str, bytes], encrypted: bool = False) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)  # ZipInfo keeps ../ and leading / as written
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    data = bytearray(buffer.getvalue())
    if encrypted:  # set the "encrypted" flag in the local and central headers, as a password zip
        for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            at = data.find(signature)
            while at != -1:
                data[at + flag_at] |= 0x1
                at = data.find(signature, at + 4)
    return bytes(data)


def _zip(path: Path, members: dict[str, bytes], encrypted: bool = False) -> None:
    path.write_bytes(_zip_bytes(members, encrypted))


def _zip_of_zeros(path: Path, name: str, size: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open(name, "w", force_zip64=True) as member:
            chunk = b"\x00" * (1 << 20)
            for _ in range(size >> 20):
                member.write(chunk)
