"""Printed captions (difficulty label, puzzle number) read beside each board of the books-dev
PDFs, against the PDFs' own text layer.

    python -m bench.captions [--variants pdf,scan]

Each page is rendered by the project's ingest (``scan`` degraded as in bench.books), its boards
found by ``rectify_page`` and their captions read by ``pipeline.recognise.printed_captions``.
The truth is the text layer of the clean page: per board, the nearest text run above or below
it that overlaps it horizontally, within the same band depth, owned by the nearest board, parsed
by the same ``parse_caption``; what it lacks of a label and role comes from the page heading
above the board (the nearest run above it that is not one board's own caption, or that
reaches over boards side by side), as the reader does. Boards are matched to the truth by
reading order. Reports per generator: boards, boards with a true label / number, labels and
numbers read right, and captions read where the truth has none (false); the caption's role
against the manifest's kind (answers named "answer", and puzzles wrongly named so); plus the
CPU milliseconds per board.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict

import cv2
import numpy as np
import pypdfium2 as pdfium

from bench.books import load_pages, render
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI
from sudoku_batch.pipeline.recognise.printed_captions import (
    ANSWER,
    BAND_DEPTH,
    NO_CAPTION,
    Caption,
    CaptionReader,
    parse_caption,
    spans_side_by_side,
)
from sudoku_batch.pipeline.vision.page_boards import rectify_page


def true_captions(pdf_page, boards: list[np.ndarray], dpi: int) -> list[Caption | None]:
    """Per board (corners in page pixels at ``dpi``), the caption the text layer holds."""
    scale = dpi / 72
    height = pdf_page.get_size()[1]
    text = pdf_page.get_textpage()
    runs = []
    for r in range(text.count_rects()):
        left, bottom, right, top = text.get_rect(r)
        words = text.get_text_bounded(left, bottom, right, top).strip()
        if words:
            runs.append((words, left * scale, (height - top) * scale, right * scale))
            runs[-1] += ((height - bottom) * scale,)
    boxes = [(c[:, 0].min(), c[:, 1].min(), c[:, 0].max(), c[:, 1].max()) for c in boards]
    best: dict[int, tuple[float, str]] = {}  # a run as near two boards (a heading) is both's
    outside = []
    for words, x0, y0, x1, y1 in runs:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if any(bx0 <= cx <= bx1 and by0 <= cy <= by1 for bx0, by0, bx1, by1 in boxes):
            continue  # a digit of a grid
        outside.append((words, x0, y0, x1, y1))
        near = []
        for i, (bx0, by0, bx1, by1) in enumerate(boxes):
            if x1 <= bx0 or bx1 <= x0:
                continue
            gap = by0 - y1 if y1 <= by0 else y0 - by1 if y0 >= by1 else None
            if gap is not None and gap <= BAND_DEPTH * max(bx1 - bx0, by1 - by0):
                near.append((gap, i))
        for gap, owner in near:
            if gap > min(near)[0] + scale:
                continue  # nearer another board
            if owner not in best or gap < best[owner][0]:
                best[owner] = (gap, words)
    owned = Counter(words for _, words in best.values())
    side = float(np.median([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]))
    out: list[Caption | None] = []
    for i, (_, by0, _, _) in enumerate(boxes):
        own = parse_caption(best[i][1]) if i in best else None
        above = [
            (y1, w)
            for w, x0, _, x1, y1 in outside
            if y1 <= by0 and (owned[w] != 1 or spans_side_by_side(boxes, x0, x1, y1, side))
        ]
        heading = parse_caption(max(above)[1]) if above else None
        if own is None and (heading is None or not (heading.label or heading.role)):
            out.append(None)
        else:
            out.append((own or NO_CAPTION).under(heading))
    return out


def manifest_kinds(root) -> dict[tuple[str, int, int], str]:
    """(file, page, index) -> the manifest's kind: puzzle or solution."""
    kinds = {}
    for line in (root / "manifest.jsonl").read_text().splitlines():
        entry = json.loads(line)
        kinds[entry["file"], entry["page"], entry["index"]] = entry["kind"]
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="pdf,scan")
    args = parser.parse_args()
    root = shared_data_dir() / "books-dev"
    reader = CaptionReader()
    kinds = manifest_kinds(root)
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    cpu: dict[str, float] = defaultdict(float)
    wrong: list[str] = []
    documents: dict[str, pdfium.PdfDocument] = {}
    for page in load_pages(root):
        document = documents.setdefault(page.file, pdfium.PdfDocument(str(root / page.file)))
        truth = None
        for variant in args.variants.split(","):
            pixels = render(root, page, variant)
            try:
                boards = [b.board.location.corners for b in rectify_page(pixels)]
            except (NoGridFound, LatticeNotFound):
                boards = []
            if truth is None:
                clean = boards if variant == "pdf" else None
                if clean is None:
                    clean_pixels = render(root, page, "pdf")
                    clean = [b.board.location.corners for b in rectify_page(clean_pixels)]
                truth = true_captions(document[page.page - 1], clean, DEFAULT_PDF_DPI)
            gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
            started = time.process_time()
            read = reader.page_captions(gray, boards)
            cpu[variant] += time.process_time() - started
            count = counts[page.generator, variant]
            count["boards"] += len(read)
            for index, got in enumerate(read):
                answer = kinds.get((page.file, page.page, index)) == "solution"
                named = got is not None and got.role == ANSWER
                count["answers"] += answer
                count["answers named"] += answer and named
                count["puzzles named answer"] += not answer and named
                count["label from heading"] += got is not None and got.heading is not None
            for index, (want, got) in enumerate(zip(truth, read, strict=False)):
                for part in ("label", "number"):
                    wanted = getattr(want, part) if want else None
                    found = getattr(got, part) if got else None
                    count[f"true {part}"] += wanted is not None
                    count[f"{part} right"] += wanted is not None and found == wanted
                    count[f"false {part}"] += wanted is None and found is not None
                    if found != wanted:
                        wrong.append(
                            f"{variant} {page.file} p{page.page} #{index} {part}: "
                            f"want {wanted!r}, read {found!r} ({got.text if got else ''!r})"
                        )
    print(
        "generator, variant: boards | true labels, read right, false | numbers likewise"
        " | answers, named answer, puzzles named answer | under a heading"
    )
    for (generator, variant), c in sorted(counts.items()):
        print(
            f"  {generator:32s} {variant:5s} {c['boards']:4d} | "
            f"{c['true label']:4d} {c['label right']:4d} {c['false label']:3d} | "
            f"{c['true number']:4d} {c['number right']:4d} {c['false number']:3d} | "
            f"{c['answers']:4d} {c['answers named']:4d} {c['puzzles named answer']:3d} | "
            f"{c['label from heading']:4d}"
        )
    for variant in args.variants.split(","):
        boards = sum(c["boards"] for (_, v), c in counts.items() if v == variant)
        print(f"{variant}: {1000 * cpu[variant] / max(1, boards):.1f} CPU ms per board")
    print(f"\n{len(wrong)} differences" + (":" if wrong else ""))
    for line in wrong[:40]:
        print("  " + line)


if __name__ == "__main__":
    main()
