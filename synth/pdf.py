"""Write JPEG pages straight into a PDF, one image per page, like a scanner does.

Pillow can save multi-page PDFs, but it holds every page decoded in memory and re-encodes each
one; writing the few PDF objects ourselves streams page by page and keeps each page's JPEG (and
so its chosen quality) exactly as encoded.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def write_jpeg_pdf(path: Path, pages: Iterable[tuple[bytes, int, int]], dpi: float) -> int:
    """Write ``pages`` (colour JPEG bytes, width px, height px) as a PDF whose pages measure
    width/dpi by height/dpi inches, so rendering at ``dpi`` gives back the same pixel grid.
    Returns the number of pages written."""
    offsets: dict[int, int] = {}
    with open(path, "wb") as out:

        def write_object(number: int, header: str, stream: bytes | None = None) -> None:
            offsets[number] = out.tell()
            out.write(f"{number} 0 obj\n{header}\n".encode())
            if stream is not None:
                out.write(b"stream\n" + stream + b"\nendstream\n")
            out.write(b"endobj\n")

        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        write_object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        kids: list[int] = []
        number = 3  # 1 is the catalog, 2 the page tree, written last once the kids are known
        for jpeg, width, height in pages:
            image, content, page = number, number + 1, number + 2
            number += 3
            points_w, points_h = width * 72 / dpi, height * 72 / dpi
            write_object(
                image,
                f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
                f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode "
                f"/Length {len(jpeg)} >>",
                jpeg,
            )
            draw = f"q {points_w:.4f} 0 0 {points_h:.4f} 0 0 cm /Im0 Do Q".encode()
            write_object(content, f"<< /Length {len(draw)} >>", draw)
            write_object(
                page,
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {points_w:.4f} {points_h:.4f}] "
                f"/Resources << /XObject << /Im0 {image} 0 R >> >> /Contents {content} 0 R >>",
            )
            kids.append(page)
        refs = " ".join(f"{kid} 0 R" for kid in kids)
        write_object(2, f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>")
        xref = out.tell()
        out.write(f"xref\n0 {number}\n0000000000 65535 f \n".encode())
        for n in range(1, number):
            out.write(f"{offsets[n]:010d} 00000 n \n".encode())
        out.write(f"trailer\n<< /Size {number} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return len(kids)
