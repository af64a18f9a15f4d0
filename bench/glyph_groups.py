"""How safely givens can be grouped by their ink (pipeline.recognise.ocr.glyph_groups), on
boards whose digits are known, with no OCR run: the figures its thresholds stand on.

    python -m bench.glyph_groups [--limit N] [--synth-boards 2]

Sets: the 160 wichtounet photos warped with their true corners and with corners moved up to
0.15 cell (as bench.ocr_calibration); the synth fonts (every font of synth.fonts, a random board
of 36 givens, sharp, blurred sigma 1.5 and 3 with noise, at 56 and 28 px a cell). Per set:
the similarity of same-digit and different-digit pairs of a board, the most similar different
pair, and grouping as the engine does it: crops put in groups, groups holding two digits
before the representatives' check (and whether their two representatives differ, which makes
the group be read one by one), and the crops the recogniser still reads.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import numpy as np

from bench import books
from bench.ocr_calibration import board_from_corners, given_crops, jittered
from bench.recognition import DATASET, load_samples
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.recognise.ocr.glyph_groups import glyph_distances, glyph_groups
from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine
from sudoku_batch.pipeline.recognise.read_board import cell_interiors, recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.degrade import blur, sensor_noise
from sudoku_batch.synth.fonts import available_fonts
from sudoku_batch.synth.grid_image import render_grid

Board = tuple[list[np.ndarray], list[int]]


def photo_boards(limit: int | None, jitter: float) -> Iterator[Board]:
    rng = np.random.default_rng(0)
    samples = load_samples(shared_data_dir() / DATASET, limit)
    for sample in samples:
        if sample.corners is None:
            continue
        corners = sample.corners if not jitter else jittered(sample.corners, jitter, rng)
        yield given_crops(board_from_corners(sample, corners), sample.givens)


def synth_boards(per_font: int, sigma: float, cell_px: int) -> Iterator[Board]:
    rng = np.random.default_rng(1)
    for font in available_fonts():
        for _ in range(per_font):
            values = rng.integers(1, 10, 36).tolist()
            rows = [[0] * 9 for _ in range(9)]
            for i, value in enumerate(values):
                rows[i // 9][i % 9] = value
            puzzle = Puzzle(GridShape.square(9), tuple(tuple(r) for r in rows))
            grid = render_grid(puzzle, cell_px=cell_px, font=font.name, rng=rng)
            noisy = sensor_noise(blur(grid.image, sigma), rng, 6.0 if sigma else 0.0)
            gray = noisy.mean(axis=2).astype(np.uint8)
            x0, y0 = (int(v) for v in grid.corners[0])
            inset = cell_px // 10
            crops = []
            for i in range(len(values)):
                top, left = y0 + (i // 9) * cell_px + inset, x0 + (i % 9) * cell_px + inset
                crops.append(
                    gray[top : top + cell_px - 2 * inset, left : left + cell_px - 2 * inset]
                )
            yield crops, values


def book_boards(every: int, variant: str) -> Iterator[Board]:
    """Boards of books-dev as the job finds them; each given's digit as the plain engine reads
    it (every grid of books-dev is read fully right so, bench.books). Boards read turned are
    left out (their crops would need turning)."""
    engine = PpOcrOnnxEngine()
    root = shared_data_dir() / books.DATASET
    for page in books.load_pages(root)[::every]:
        for found in rectify_page(books.render(root, page, variant)):
            recognised = recognise_board(found.board, found.cells, engine)
            if recognised.quarter_turns:
                continue
            given = [c for c in recognised.reading.cells if c.kind is CellKind.GIVEN]
            positions = [(c.row, c.col) for c in given]
            yield cell_interiors(recognised.board, positions), [c.digit for c in given]


def report(title: str, boards: Iterator[Board]) -> None:
    same, different = [], []
    cells = grouped = reads = groups = mixed = mixed_caught = 0
    for crops, digits in boards:
        distance = glyph_distances(crops)
        truth = np.array(digits)
        pairs = np.triu(np.ones_like(distance, bool), 1)
        equal = truth[:, None] == truth[None, :]
        same.append(distance[pairs & equal])
        different.append(distance[pairs & ~equal])
        found = glyph_groups(distance)
        cells += len(crops)
        groups += len(found)
        grouped += sum(len(g.members) for g in found)
        reads += len(crops) - sum(len(g.members) - 2 for g in found)
        for group in found:
            if len({digits[i] for i in group.members}) > 1:
                mixed += 1
                one, two = group.representatives
                mixed_caught += digits[one] != digits[two]
    same_all, different_all = np.concatenate(same), np.concatenate(different)
    print(f"\n== {title}: {len(same)} boards, {cells} givens")
    print(
        "  same digit:      pairs {:6d}  distance median {:.3f}  p95 {:.3f}  p99 {:.3f}"
        "  max {:.3f}".format(same_all.size, *np.percentile(same_all, [50, 95, 99, 100]))
    )
    print(
        "  different digit: pairs {:6d}  distance min {:.3f}  p0.1 {:.3f}  p1 {:.3f}".format(
            different_all.size, different_all.min(), *np.percentile(different_all, [0.1, 1])
        )
    )
    print(
        f"  grouped {grouped} of {cells} givens ({grouped / cells:.1%}) in {groups} groups; "
        f"mixed groups {mixed} (two representatives differ in {mixed_caught}); "
        f"crops read {reads} ({reads / cells:.1%}), before any group is read again"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N photos only")
    parser.add_argument("--book-every", type=int, default=1, help="every k-th page of books-dev")
    parser.add_argument("--synth-boards", type=int, default=2, help="boards per font and kind")
    args = parser.parse_args()
    report("photos, true corners", photo_boards(args.limit, 0.0))
    report("photos, corners moved up to 0.15 cell", photo_boards(args.limit, 0.15))
    for variant in books.VARIANTS:
        report(f"books-dev, {variant}", book_boards(args.book_every, variant))
    for cell_px in (56, 28):
        for sigma in (0.0, 1.5, 3.0):
            report(
                f"synth fonts, {cell_px} px cells, blur {sigma}",
                synth_boards(args.synth_boards, sigma, cell_px),
            )


if __name__ == "__main__":
    main()
