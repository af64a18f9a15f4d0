"""Whether a page's file is damaged though it decoded: the decoders (libjpeg through OpenCV,
pdfium) fill in what is missing and only warn, so a truncated JPEG comes out as a photo with a
grey lower half and a PDF with a broken stream as a page with a hole. Whatever is read from such
a page may be a fragment; the page is marked ``damaged`` with the warning.

Checked from the file's structure, with no second decode of the pixels: a JPEG ends with its
end-of-image marker and a PNG with its IEND chunk; a PDF has a valid cross-reference table (pdfium
rebuilt it otherwise), and each image stream of the page is complete (a JPEG stream ends with its
marker; a Flate stream is inflated once more, in bounded steps, to see that it reaches its end).
"""

from __future__ import annotations

import zlib
from pathlib import Path

JPEG_END = b"\xff\xd9"
PNG_END = b"IEND"
# Bytes read from a file's end: a JPEG or PNG end marker sits in the last few, after at most
# some padding.
TAIL_BYTES = 64
# What writers may leave after the end marker.
PADDING = b"\x00\r\n\t "
INFLATE_STEP = 1 << 20


def image_damage(path: str, data: bytes | None, image_format: str | None) -> str | None:
    """The decoder's warning for a JPEG or PNG file (``data``: its bytes, None: read ``path``)
    whose end is missing; None: complete, or a format without such a check."""
    if image_format not in ("JPEG", "PNG"):
        return None
    tail = data[-TAIL_BYTES:] if data is not None else _tail(Path(path))
    if image_format == "JPEG" and not tail.rstrip(PADDING).endswith(JPEG_END):
        return "the JPEG file is truncated, with no end-of-image marker"
    if image_format == "PNG" and PNG_END not in tail:
        return "the PNG file is truncated, with no IEND chunk"
    return None


def pdf_page_damage(document, page) -> str | None:
    """The warning for a PDF page (pypdfium2 objects) whose file pdfium had to repair or one of
    whose image streams is broken; None: intact."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    if not pdfium_c.FPDF_DocumentHasValidCrossReferenceTable(document.raw):
        return "the PDF is damaged: its cross-reference table had to be rebuilt"
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
        assert isinstance(image, pypdfium2.PdfImage)
        filters = image.get_filters()
        if not filters or filters[0] not in ("DCTDecode", "FlateDecode"):
            continue
        raw = bytes(image.get_data(decode_simple=False))
        if not _stream_complete(filters[0], raw):
            return f"a {filters[0]} image stream of the page is broken"
    return None


def _stream_complete(kind: str, raw: bytes) -> bool:
    if kind == "DCTDecode":
        return raw.rstrip(PADDING).endswith(JPEG_END)
    inflater = zlib.decompressobj()
    try:  # in steps, so a bomb never inflates whole
        out = inflater.decompress(raw, INFLATE_STEP)
        while inflater.unconsumed_tail or (out and not inflater.eof):
            out = inflater.decompress(inflater.unconsumed_tail, INFLATE_STEP)
    except zlib.error:
        return False
    return inflater.eof


def _tail(path: Path) -> bytes:
    with path.open("rb") as file:
        file.seek(max(0, path.stat().st_size - TAIL_BYTES))
        return file.read()
