"""The answer-key PDF opens and has the expected page count."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium

from pipeline.answer_key_pdf import KeyEntry, write_answer_key_pdf
from pipeline.grid import GridShape
from synth.puzzles import random_solution

NINE = GridShape(3, 3)


def _entries(count, shape=NINE):
    return [
        KeyEntry(
            f"No. {i + 1}",
            tuple(map(tuple, random_solution(shape, np.random.default_rng(i)).tolist())),
            shape,
        )
        for i in range(count)
    ]


def test_thirteen_solutions_at_six_per_page_make_three_pages(tmp_path):
    path = tmp_path / "key.pdf"
    assert write_answer_key_pdf(_entries(13), path) == 3
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == 3
    width, height = pdf[0].get_size()
    assert height > width  # portrait A4


def test_letter_paper_and_other_layouts(tmp_path):
    path = tmp_path / "key.pdf"
    assert write_answer_key_pdf(_entries(4, GridShape(2, 3)), path, "letter", 2, 2) == 1
    assert len(pdfium.PdfDocument(path)) == 1


def test_no_entries_still_give_a_valid_one_page_pdf(tmp_path):
    path = tmp_path / "key.pdf"
    assert write_answer_key_pdf([], path) == 1
    assert len(pdfium.PdfDocument(path)) == 1
