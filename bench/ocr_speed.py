"""CPU time of the OCR stage a grid, for engine variants side by side in one process.

    python -m bench.ocr_speed [--pages 8] [--rounds 3]

Boards are found once on the first pages of the synthetic 9x9 book (bench.throughput's), then
every variant reads every board ``--rounds`` times, variants interleaved so that load on a
shared machine falls on all alike. Prints CPU ms a grid (time.process_time, one thread) and
whether each variant's readings (digit and confidence to 1e-3) equal the first variant's.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.throughput import synthetic_book  # noqa: E402
from sudoku_batch.pipeline.ingest.sources import expand_inputs, load_page  # noqa: E402
from sudoku_batch.pipeline.recognise.ocr.glyph_groups import GlyphGroupingEngine  # noqa: E402
from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine  # noqa: E402
from sudoku_batch.pipeline.recognise.read_board import recognise_board  # noqa: E402
from sudoku_batch.pipeline.vision.page_boards import rectify_page  # noqa: E402


def boards(pages: int) -> list:
    pdf = synthetic_book(Path(tempfile.gettempdir()) / "sb-bench", 20, 1, 200)
    found = []
    for source in list(expand_inputs([str(pdf)]))[:pages]:
        found.extend(rectify_page(load_page(source, 200).pixels))
    return found


def readings(engine, found) -> list[tuple]:
    out = []
    for item in found:
        reading = recognise_board(item.board, item.cells, engine).reading
        out.append(tuple((c.digit, round(c.confidence or 0, 3)) for c in reading.cells))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    found = boards(args.pages)
    variants = {name: make() for name, make in VARIANTS.items()}
    spent = dict.fromkeys(variants, 0.0)
    reference = readings(next(iter(variants.values())), found)
    same = {name: readings(engine, found) == reference for name, engine in variants.items()}
    for _ in range(args.rounds):
        for name, engine in variants.items():
            started = time.process_time()
            readings(engine, found)
            spent[name] += time.process_time() - started
    for name in variants:
        per_grid = spent[name] / args.rounds / len(found) * 1000
        print(f"{name:<28} {per_grid:6.1f} CPU-ms a grid  same readings: {same[name]}")


VARIANTS = {
    "each cell": lambda: PpOcrOnnxEngine(),
    "each glyph once (default)": lambda: GlyphGroupingEngine(PpOcrOnnxEngine()),
    "each glyph, one representative": lambda: GlyphGroupingEngine(PpOcrOnnxEngine(), 1),
}


if __name__ == "__main__":
    main()
