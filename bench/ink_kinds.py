"""Ink kinds per cell, per source: how many pencil marks and handwritten entries are read as
printed givens, how many printed givens are lost (read as a solver's marks), and how many
grids come out fully right, before (every mark a given, as the reader did until ink kinds)
and after.

Run from the repository root:

    python -m bench.ink_kinds [--sources kubiesa,synthetic,entries,photos,books,fills]
        [--every 1]

Sources: ``kubiesa`` (shared/data/kubiesa-train: hand-filled phone photos; its labels tell
pencil marks, not printed from handwritten), ``synthetic`` (``synth.solver_marks``: pencil
marks and handwritten entries with exact truth), ``entries`` (``written_photo`` of
``synth.solver_marks``: entries as tall as the print, in one of ``ENTRY_PENS`` a photo),
``hands`` (``written_photo``: entries in black as tall as the print, in each of
``synth.solver_marks.HANDS``, with and without a pen's pressure, on print in each of
``synth.fonts``' faces; not run by default), ``candidates`` (``candidates_photo`` of
``synth.solver_marks``: lone candidates in corners and
pairs side by side nearly as tall as the print; not run by default), ``photos``
(shared/data/wichtounet-v2-train: printed only), ``books`` (shared/data/books-dev rendered as a
job reads a PDF: printed only), ``fills`` (``synth.variant_images``: classic, diagonal and
jigsaw grids printed on coloured or grey fills, phone photos of one grid and scanned pages of
two: printed only, so a rule that takes print on a fill for a solver's ink shows as printed
lost). Each board goes through ``rectify_page`` and
``recognise_board`` as a job's steps call them; "before" is the same reading with every marked
cell a given.

Per source it prints: grids, grids found, marked cells by truth (printed, pencil, written),
pencil cells read as givens, written entries read as givens, printed givens lost, grids fully
right (every cell's kind and digit: a pencilled cell right when read as pencil, an entry when
read as an entry or, on kubiesa, whose labels do not tell, as any digit), grids solved from
what is read as printed, and on synthetic photos the candidates read exactly and the entries
checked right (the check agrees with the truth of whether the entry is right).
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from bench.books import DATASET as BOOKS
from bench.books import Read, load_pages, match, render
from bench.recognition import DATASET as PHOTOS
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.reading import BoardReading, InkKind
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import read_every_mark, recognise_board
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.entries import with_entries_checked
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.fonts import available_fonts
from sudoku_batch.synth.photo import RED_INK_BGR
from sudoku_batch.synth.solver_marks import (
    HANDS,
    OTHER_HAND,
    MarkedPhoto,
    Pen,
    candidates_photo,
    marked_photo,
    written_photo,
)
from sudoku_batch.synth.variant_images import (
    VariantImage,
    random_variant,
    variant_page,
    variant_photo,
)

KUBIESA = "kubiesa-train"
SOURCES = ("kubiesa", "synthetic", "entries", "photos", "books", "fills")
SYNTHETIC_PHOTOS = 30
# Pens entries as tall as the print are written with: blue, red and green ink, black upright,
# black slanted, black in another hand; and black on a board printed in red.
ENTRY_PENS = (
    (Pen((150, 60, 20), 3.0, 0.05), None),
    (Pen((40, 40, 180), 2.5, 0.15), None),
    (Pen((60, 120, 40), 3.0, 0.1, OTHER_HAND), None),
    (Pen((40, 40, 40), 3.0, 0.0), None),
    (Pen((40, 40, 40), 3.0, 0.25), None),
    (Pen((40, 40, 40), 2.5, 0.05, OTHER_HAND), None),
    (Pen((40, 40, 40), 3.0, 0.1), RED_INK_BGR),
)
# Black entries in many hands: pen widths (pixels), slants and pressures drawn from these.
HAND_WIDTHS = (2.0, 4.0)
HAND_SLANTS = (-0.1, 0.3)
HAND_PRESSURES = (0.0, 0.5)
# Printed grids on fills (photos of one grid, scanned pages of two): FILL_IMAGES images of
# each maker, seeds from FILL_SEEDS on, apart from the seeds bench.variant_recognition draws.
FILL_IMAGES = 4
FILL_SEEDS = 1000
FILL_MAKERS = tuple(
    (variant, fills, kind)
    for variant in ("classic", "diagonal", "jigsaw")
    for fills in ("colour", "grey")
    for kind in ("photo", "page")
)
SOLVE_SECONDS = 10.0
# A cell's truth: its kind, and its digit (a given's or an entry's; None: any digit, for
# kubiesa's entries) or candidates (pencil marks).
DIGIT = "digit"  # kubiesa: printed or written, its labels do not tell


@dataclass(frozen=True)
class Truth:
    cells: dict[tuple[int, int], tuple[str, object]]  # only marked cells; the rest are empty
    solution: tuple[tuple[int, ...], ...] | None = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", default=",".join(SOURCES))
    parser.add_argument("--every", type=int, default=1, help="every Nth photo or page")
    args = parser.parse_args()
    engine, backend = make_engine(), make_backend()
    print(
        "| source | grids | found | printed | pencil | written | pencil as givens before/after "
        "| written as givens before/after | printed lost | fully right before/after "
        "| solved before/after | candidates exact | entries checked right |"
    )
    print("|" + "---|" * 13)
    for source in args.sources.split(","):
        totals: Counter = Counter()
        for pixels, truths, true_grids in _items(source, args.every):
            totals["grids"] += len(truths)
            for counts in _judge_page(pixels, truths, true_grids, engine, backend):
                totals.update(counts)
        print(_row(source, totals))


def _row(source: str, t: Counter) -> str:
    synthetic = source in ("synthetic", "entries", "hands", "candidates")
    exact = f"{t['candidates_exact']}/{t['pencil_read']}" if synthetic else "-"
    checked = f"{t['checked_right']}/{t['checked']}" if synthetic else "-"
    return (
        f"| {source} | {t['grids']} | {t['found']} | {t['printed']} | {t['pencil']} "
        f"| {t['written']} | {t['pencil_given_before']}/{t['pencil_given']} "
        f"| {t['written_given_before']}/{t['written_given']} | {t['printed_lost']} "
        f"| {t['right_before']}/{t['right']} | {t['solved_before']}/{t['solved']} "
        f"| {exact} | {checked} |"
    )


def _items(source: str, every: int) -> Iterator[tuple[np.ndarray, list[Truth], tuple | None]]:
    root = shared_data_dir()
    if source == "kubiesa":
        folder = root / KUBIESA
        if not folder.is_dir():
            raise SystemExit(f"{folder} not found: set SUDOKU_BATCH_SHARED_DATA")
        for labels_path in sorted((folder / "labels").glob("*.txt"))[::every]:
            labels = np.loadtxt(labels_path, dtype=int)
            cells = {}
            for (r, c), value in np.ndenumerate(labels):
                if value == 10:
                    cells[r, c] = (InkKind.PENCIL, None)
                elif value:
                    cells[r, c] = (DIGIT, int(value))
            pixels = cv2.imread(str(folder / "images" / f"{labels_path.stem}.jpg"))
            yield pixels, [Truth(cells)], None
    elif source in ("synthetic", "candidates"):
        make = marked_photo if source == "synthetic" else candidates_photo
        for seed in range(0, SYNTHETIC_PHOTOS, every):
            photo = make(np.random.default_rng(seed))
            yield photo.image, [_synthetic_truth(photo)], None
    elif source == "entries":
        for seed in range(0, SYNTHETIC_PHOTOS, every):
            pen, print_bgr = ENTRY_PENS[seed % len(ENTRY_PENS)]
            photo = written_photo(np.random.default_rng(seed), pen, print_bgr=print_bgr)
            yield photo.image, [_synthetic_truth(photo)], None
    elif source == "hands":
        for seed in range(0, SYNTHETIC_PHOTOS, every):
            photo = _hands_photo(seed)
            yield photo.image, [_synthetic_truth(photo)], None
    elif source == "photos":
        folder = root / PHOTOS
        if not folder.is_dir():
            raise SystemExit(f"{folder} not found: set SUDOKU_BATCH_SHARED_DATA")
        with open(folder / "manifest.csv", newline="") as manifest:
            rows = list(csv.DictReader(manifest))[::every]
        for row in rows:
            digits = [int(ch) for ch in row["givens"]]
            cells = {divmod(i, 9): (InkKind.GIVEN, d) for i, d in enumerate(digits) if d}
            yield cv2.imread(str(folder / row["image"])), [Truth(cells)], None
    elif source == "books":
        folder = root / BOOKS
        if not folder.is_dir():
            raise SystemExit(f"{folder} not found: set SUDOKU_BATCH_SHARED_DATA")
        for page in load_pages(folder)[::every]:
            truths = []
            for grid in page.grids:
                n = grid.shape.size
                cells = {
                    divmod(i, n): (InkKind.GIVEN, v) for i, v in enumerate(grid.givens) if v > 0
                }
                truths.append(Truth(cells))
            yield render(folder, page, "pdf"), truths, page.grids
    elif source == "fills":
        for maker in FILL_MAKERS:
            for seed in range(0, FILL_IMAGES, every):
                image = _fills_image(maker, seed)
                yield image.image, [_printed_truth(grid) for grid in image.truth()], None
    else:
        raise SystemExit(f"unknown source {source!r} (known: {', '.join(SOURCES)})")


def _hands_photo(seed: int) -> MarkedPhoto:
    """Black entries as tall as the print in one of ``HANDS`` (with a pen's pressure every
    other time round them), on print in one of synth's faces."""
    rng = np.random.default_rng(seed)
    pen = Pen(
        (40, 40, 40),
        float(rng.uniform(*HAND_WIDTHS)),
        float(rng.uniform(*HAND_SLANTS)),
        HANDS[seed % len(HANDS)],
        HAND_PRESSURES[(seed // len(HANDS)) % len(HAND_PRESSURES)],
    )
    fonts = available_fonts()
    return written_photo(rng, pen, font=fonts[seed % len(fonts)].name)


def _fills_image(maker: tuple[str, str, str], seed: int) -> VariantImage:
    """A printed variant image on fills: ``maker`` is its variant, fills and kind (photo or
    page)."""
    variant, fills, kind = maker
    rng = np.random.default_rng(FILL_SEEDS + seed)
    if kind == "photo":
        return variant_photo(random_variant(rng, variant), rng, fills=fills)
    puzzles = [random_variant(rng, variant), random_variant(rng, variant)]
    return variant_page(puzzles, rng, fills=fills)


def _printed_truth(grid: dict) -> Truth:
    """A printed grid's truth (``synth.truth``): every given printed."""
    cells = {
        (r, c): (InkKind.GIVEN, v)
        for r, row in enumerate(grid["givens"])
        for c, v in enumerate(row)
        if v
    }
    return Truth(cells)


def _synthetic_truth(photo: MarkedPhoto) -> Truth:
    cells = {}
    for pos, kind in photo.ink.items():
        if kind is InkKind.GIVEN:
            cells[pos] = (kind, photo.puzzle.givens[pos[0]][pos[1]])
        elif kind is InkKind.HANDWRITTEN:
            cells[pos] = (kind, photo.written[pos])
        elif kind is InkKind.PENCIL:
            cells[pos] = (kind, photo.candidates[pos])
    return Truth(cells, photo.solution)


def _judge_page(
    pixels: np.ndarray,
    truths: list[Truth],
    true_grids: tuple | None,
    engine: OcrEngine,
    backend: SatBackend,
) -> Iterator[Counter]:
    """Each true grid's board judged, before and after (its board matched by content on a
    page of several, as bench.books matches them)."""
    try:
        boards = rectify_page(pixels)
    except (NoGridFound, LatticeNotFound):
        return
    read = [
        (
            read_every_mark(b.board, b.cells, engine).reading,
            recognise_board(b.board, b.cells, engine).reading,
        )
        for b in boards
    ]
    if true_grids is None:  # boards in reading order, as the truth lists its grids
        order: tuple[int | None, ...] = tuple(
            i if i < len(read) else None for i in range(len(truths))
        )
    else:
        order = match(true_grids, [_as_books_read(after) for _, after in read])
    for truth, index in zip(truths, order, strict=True):
        if index is not None:
            yield _judge(truth, *read[index], backend)


def _judge(
    truth: Truth, before: BoardReading, reading: BoardReading, backend: SatBackend
) -> Counter:
    counts: Counter = Counter(found=1)
    right_before = right_after = True
    as_before = {(cell.row, cell.col): cell for cell in before.cells}
    for cell in reading.cells:
        kind, value = truth.cells.get((cell.row, cell.col), (InkKind.EMPTY, None))
        first = as_before.get((cell.row, cell.col))
        marked_before = first is not None and first.kind is CellKind.GIVEN
        digit_before = None if first is None else first.digit
        if kind is InkKind.GIVEN:
            counts["printed"] += 1
            counts["printed_lost"] += cell.ink in (InkKind.PENCIL, InkKind.HANDWRITTEN)
            right_before &= marked_before and digit_before == value
            right_after &= cell.ink is InkKind.GIVEN and cell.digit == value
        elif kind is InkKind.PENCIL:
            counts["pencil"] += 1
            counts["pencil_given_before"] += marked_before
            counts["pencil_given"] += cell.ink is InkKind.GIVEN
            right_before = False
            right_after &= cell.ink is InkKind.PENCIL
            if cell.ink is InkKind.PENCIL and value is not None:
                counts["pencil_read"] += 1
                counts["candidates_exact"] += cell.candidates == value
        elif kind is InkKind.HANDWRITTEN:
            counts["written"] += 1
            counts["written_given_before"] += marked_before
            counts["written_given"] += cell.ink is InkKind.GIVEN
            right_before = False
            right_after &= cell.ink is InkKind.HANDWRITTEN and cell.digit == value
        elif kind == DIGIT:
            right_before &= marked_before and digit_before == value
            right_after &= cell.ink in (InkKind.GIVEN, InkKind.HANDWRITTEN) and cell.digit == value
        else:
            right_before &= not marked_before
            right_after &= cell.ink in (InkKind.EMPTY, None)
    counts["right_before"] += right_before
    counts["right"] += right_after
    first_solution = solve_reading(before, backend, SOLVE_SECONDS)
    counts["solved_before"] += first_solution.result.verdict is Verdict.SOLVED
    solution = solve_reading(reading, backend, SOLVE_SECONDS)
    counts["solved"] += solution.result.verdict is Verdict.SOLVED
    if truth.solution is not None and solution.result.solution == truth.solution:
        checked = with_entries_checked(solution, reading).entries_check or ()
        for check in checked:
            if check.ink is not InkKind.HANDWRITTEN:
                continue
            kind, value = truth.cells.get((check.row, check.col), (None, None))
            if kind is InkKind.HANDWRITTEN:
                counts["checked"] += 1
                counts["checked_right"] += check.ok == (value == check.right)
    return counts


def _as_books_read(reading: BoardReading) -> Read:
    givens = reading.givens()
    return Read(reading.shape, tuple(-1 if v is None else v for row in givens for v in row))


if __name__ == "__main__":
    main()
