"""Readings of boards read as found against the same boards read back from a stored format.

    python -m bench.board_format [--photos 160] [--book-every 4] [--formats png,jpg90,jpg95]

The server's OCR task reads a board from its stored image, so a lossy format changes what it
reads unless the embedded runner reads the same decoded pixels. This reads each board of the
development photos (wichtounet v2-train) and of books-dev (as a job loads the PDF, and as the
degraded scan of bench.books) once as found (colour, in memory) and once per format as stored
and decoded, and prints per format: givens read to another digit, boards with any reading
changed, the largest confidence change, bytes and CPU ms to encode and decode a board.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Iterator, Sequence

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench import books, recognition  # noqa: E402
from bench.shared_data import shared_data_dir  # noqa: E402
from sudoku_batch.pipeline.board import RectifiedBoard  # noqa: E402
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound  # noqa: E402
from sudoku_batch.pipeline.reading import BoardReading  # noqa: E402
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine  # noqa: E402
from sudoku_batch.pipeline.recognise.read_board import recognise_board  # noqa: E402
from sudoku_batch.pipeline.vision.page_boards import rectify_page  # noqa: E402

FORMATS = {
    "png": (".png", []),
    "jpg90": (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 90]),
    "jpg95": (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 95]),
}


def pages(photos: int, book_every: int) -> Iterator[np.ndarray]:
    root = shared_data_dir()
    for sample in recognition.load_samples(root / "wichtounet-v2-train", photos):
        yield recognition.read_photo(sample.path)
    book_root = root / books.DATASET
    for page in books.load_pages(book_root)[::book_every]:
        for variant in ("pdf", "scan"):
            yield books.render(book_root, page, variant)


def stored(pixels: np.ndarray, name: str) -> tuple[np.ndarray, int, float]:
    """The board's grey pixels as a later step reads them back, bytes, CPU seconds."""
    suffix, params = FORMATS[name]
    started = time.process_time()
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    ok, encoded = cv2.imencode(suffix, gray, params)
    assert ok
    back = cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE)
    return back, encoded.size, time.process_time() - started


def compare(reference: BoardReading, other: BoardReading) -> tuple[int, float]:
    """Givens read to another digit, largest confidence change."""
    changed, drift = 0, 0.0
    for a, b in zip(reference.cells, other.cells, strict=True):
        changed += a.digit != b.digit
        drift = max(drift, abs((a.confidence or 0.0) - (b.confidence or 0.0)))
    return changed, drift


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=160)
    parser.add_argument("--book-every", type=int, default=4)
    parser.add_argument("--formats", default=",".join(FORMATS))
    args = parser.parse_args(argv)
    names = args.formats.split(",")
    engine = make_engine()
    totals = {name: [0, 0, 0.0, 0, 0.0] for name in names}  # givens, boards, drift, bytes, s
    boards = givens = 0
    for pixels in pages(args.photos, args.book_every):
        try:
            found: list[RectifiedBoard] = rectify_page(pixels)
        except (NoGridFound, LatticeNotFound):
            continue
        for item in found:
            reference = recognise_board(item.board, item.cells, engine).reading
            boards += 1
            givens += sum(cell.digit is not None for cell in reference.cells)
            for name in names:
                back, size, seconds = stored(item.board.pixels, name)
                board = dataclasses.replace(item.board, pixels=back)
                again = recognise_board(board, item.cells, engine).reading
                changed, drift = compare(reference, again)
                total = totals[name]
                total[0] += changed
                total[1] += changed > 0
                total[2] = max(total[2], drift)
                total[3] += size
                total[4] += seconds
    print(f"{boards} boards, {givens} givens read")
    for name, (changed, changed_boards, drift, size, seconds) in totals.items():
        print(
            f"{name:<6} givens changed {changed:4d}  boards changed {changed_boards:3d}  "
            f"max confidence change {drift:.4f}  KB a board {size / max(boards, 1) / 1024:6.1f}  "
            f"encode+decode {seconds / max(boards, 1) * 1000:5.1f} ms"
        )


if __name__ == "__main__":
    main()
