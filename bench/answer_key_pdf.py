"""What an answer-key PDF is made of, per file: pages, bytes, bytes a page, picture objects and
characters of text a page, page size in points; optionally page 1 as a small PNG.

Run from the repository root, on keys written by ``sudoku-batch answer-key`` (before and after a
change, on the same run's folder; see docs/book_check.md for the commands):
    python -m bench.answer_key_pdf KEY.pdf [KEY.pdf ...] [--png DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pypdfium2 as pdfium


def describe(path: Path) -> dict[str, object]:
    pdf = pdfium.PdfDocument(path)
    pictures = chars = 0
    for page in pdf:
        kinds = [obj.type for obj in page.get_objects()]
        pictures += kinds.count(pdfium.raw.FPDF_PAGEOBJ_IMAGE)
        chars += page.get_textpage().count_chars()
    pages = len(pdf)
    width, height = pdf[0].get_size()
    size = path.stat().st_size
    return {
        "file": path.name,
        "pages": pages,
        "bytes": size,
        "KB/page": round(size / pages / 1024, 1),
        "pictures/page": round(pictures / pages, 1),
        "chars/page": round(chars / pages),
        "page (pt)": f"{width:.0f} x {height:.0f}",
    }


def first_page_png(path: Path, out_dir: Path, dpi: int = 72) -> Path:
    """Page 1 at ``dpi`` in 16 greys: small enough to commit."""
    image = pdfium.PdfDocument(path)[0].render(scale=dpi / 72).to_pil().convert("L")
    png = out_dir / f"{path.stem}-page1.png"
    image.quantize(colors=16).save(png, optimize=True, bits=4)
    return png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="+", type=Path)
    parser.add_argument("--png", type=Path, metavar="DIR", help="write page 1 of each here")
    args = parser.parse_args()
    rows = [describe(path) for path in args.pdfs]
    keys = list(rows[0])
    widths = {k: max(len(k), *(len(str(r[k])) for r in rows)) for k in keys}
    print("  ".join(k.ljust(widths[k]) for k in keys))
    for row in rows:
        print("  ".join(str(row[k]).ljust(widths[k]) for k in keys))
    if args.png:
        args.png.mkdir(parents=True, exist_ok=True)
        for path in args.pdfs:
            png = first_page_png(path, args.png)
            print(f"{png}: {png.stat().st_size} bytes")


if __name__ == "__main__":
    main()
