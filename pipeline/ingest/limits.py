"""How big an input may be before it is decoded.

Every bound is checked from headers and declared sizes (an image's header, a PDF page's size
in points, a zip member's declared and streamed size) before any pixel is decoded, so a
125 KB PNG declaring 32000x32000 pixels or a 2 MB zip inflating to 2 GB is refused with
``too_large`` instead of taking the machine's memory. The defaults pass a real book (a
600-page PDF rasterised at 300 dpi, A3 scans at 600 dpi); ``settings`` can raise each one.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class InputLimits:
    # 80 MP: an A3 page scanned at 600 dpi is 70 MP; decoded as BGR that is 240 MB.
    max_image_pixels: int = 80_000_000
    # Below this on a side no grid can be read (and vision would only trip over it).
    min_image_side: int = 16
    # An A0 sheet is 2384 x 3370 pt; a PDF may declare pages of up to 14400 pt a side.
    max_pdf_page_points: float = 5000.0
    max_pages_per_file: int = 2000  # PDF pages
    # Frames of one TIFF: a scanner's multi-page TIFF is a chapter, not a book.
    max_frames_per_image: int = 100
    max_member_bytes: int = 512 * MIB  # one zip member, inflated
    max_archive_bytes: int = 4096 * MIB  # all of a zip's members, inflated
    max_archive_members: int = 10_000
    # Images and PDFs barely compress; a member inflating 100-fold is a bomb. Small members
    # (a blank page's PNG, a text note) may compress further without harm.
    max_compression_ratio: float = 100.0
    ratio_checked_above_bytes: int = 1 * MIB


DEFAULT_LIMITS = InputLimits()
