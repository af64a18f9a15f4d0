"""CPU and bytes of a stored board's PNG under zlib levels, strategies and row filters.

    python -m bench.board_png [--photos 160] [--book-every 4] [--book PDF]

Every setting is lossless, so only time and size differ (each encoding is decoded once and
checked to give the same pixels). The boards are those of ``bench.board_format``'s pages (the
development photos, every ``--book-every``-th books-dev page as the PDF and as the degraded
scan), found and stored in grey as ``find_boards_step`` stores them; ``--book`` adds the boards
of a PDF (e.g. ``bench.throughput``'s synthetic book) as a set of its own. Prints, per set and
setting, CPU ms to encode a board (best of three passes) and KB a board.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterable, Sequence

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.board_format import pages  # noqa: E402
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound  # noqa: E402
from sudoku_batch.pipeline.ingest.sources import expand_inputs, load_page  # noqa: E402
from sudoku_batch.pipeline.vision.page_boards import rectify_page  # noqa: E402

LEVEL, STRATEGY, FILTER = (
    cv2.IMWRITE_PNG_COMPRESSION,
    cv2.IMWRITE_PNG_STRATEGY,
    cv2.IMWRITE_PNG_FILTER,
)
SETTINGS = {
    "level 1": [LEVEL, 1],
    "level 3 (before)": [LEVEL, 3],
    "level 6": [LEVEL, 6],
    "level 1, up filter": [LEVEL, 1, FILTER, cv2.IMWRITE_PNG_FILTER_UP],
    "rle, all filters": [STRATEGY, cv2.IMWRITE_PNG_STRATEGY_RLE],
    "rle, paeth filter": [
        STRATEGY,
        cv2.IMWRITE_PNG_STRATEGY_RLE,
        FILTER,
        cv2.IMWRITE_PNG_FILTER_PAETH,
    ],
    "rle, up filter": [STRATEGY, cv2.IMWRITE_PNG_STRATEGY_RLE, FILTER, cv2.IMWRITE_PNG_FILTER_UP],
}


def grey_boards(page_images: Iterable[np.ndarray]) -> list[np.ndarray]:
    boards = []
    for pixels in page_images:
        try:
            found = rectify_page(pixels)
        except (NoGridFound, LatticeNotFound):
            continue
        boards += [cv2.cvtColor(item.board.pixels, cv2.COLOR_BGR2GRAY) for item in found]
    return boards


def book_pages(pdf: str) -> Iterable[np.ndarray]:
    for source in expand_inputs([pdf]):
        yield load_page(source, 200).pixels


def measure(boards: Sequence[np.ndarray], params: list[int]) -> tuple[float, float]:
    """CPU ms to encode a board (best of three passes), KB a board."""
    best, size = float("inf"), 0
    for _ in range(3):
        started, size = time.process_time(), 0
        for board in boards:
            ok, encoded = cv2.imencode(".png", board, params)
            assert ok
            size += encoded.size
        best = min(best, time.process_time() - started)
    for board in boards:
        encoded = cv2.imencode(".png", board, params)[1]
        assert np.array_equal(cv2.imdecode(encoded, cv2.IMREAD_UNCHANGED), board)
    return best / len(boards) * 1000, size / len(boards) / 1024


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=160)
    parser.add_argument("--book-every", type=int, default=4)
    parser.add_argument("--book", default=None, help="also the boards of this PDF, at 200 dpi")
    args = parser.parse_args(argv)
    sets = {"development": grey_boards(pages(args.photos, args.book_every))}
    if args.book:
        sets["book"] = grey_boards(book_pages(args.book))
    for name, boards in sets.items():
        print(f"{name}: {len(boards)} boards")
        for setting, params in SETTINGS.items():
            ms, kb = measure(boards, params)
            print(f"  {setting:<20} {ms:6.2f} ms  {kb:6.1f} KB a board")


if __name__ == "__main__":
    main()
