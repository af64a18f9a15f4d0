"""The caption printed beside a board ("Easy Puzzle #12", "Hard - 34", "Solution 7"): the text
line nearest the board above or below it, read with the PP-OCR recogniser's whole character list
(the digit engine keeps only the digits' classes), and parsed into a difficulty label and a
puzzle number.

Where the text sits: a band above and a band below the board, as wide as the board and a fifth
of its side deep. In a band, rows with ink are grouped into lines; the line nearest the board is
the caption (a page heading further away, or the next board's edge, is not). A band whose
nearest line touches the band's far edge or the board is left alone: that is more likely part of
another board or this board's own frame than a caption.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from pipeline.errors import EngineUnavailable
from pipeline.recognise.ocr.text_lines import FRAME_WIDTH, LINE_HEIGHT, model_input

log = logging.getLogger(__name__)

BAND_DEPTH = 0.2  # of the board's side, above and below it
GAP = 0.01  # of the side, left between the board's edge and the band (its outer frame line)
INK = 128  # grey level below which a pixel is ink, after the band's own contrast stretch
MARGIN = 0.25  # of a line's height, kept around its ink

# Difficulty words publishers print, longest first so "very hard" wins over "hard".
LEVEL_WORDS = (
    "very easy",
    "very hard",
    "super hard",
    "extra hard",
    "beginner",
    "easy",
    "gentle",
    "medium",
    "moderate",
    "intermediate",
    "tricky",
    "tough",
    "difficult",
    "hard",
    "harder",
    "expert",
    "master",
    "fiendish",
    "diabolical",
    "evil",
    "extreme",
    "insane",
)
_LEVEL = re.compile(
    r"\b(" + "|".join(sorted(LEVEL_WORDS, key=len, reverse=True)).replace(" ", r"\s+") + r")\b",
    re.IGNORECASE,
)
# A number after a marker ("#12", "No. 12", "Puzzle 12", "Solution 12"), else a lone number.
_MARKED = re.compile(
    r"(?:#|\bno\.?|\bnr\.?|\bpuzzle|\bsolution|\bsudoku|\bgame)\s*[:.]?\s*(\d{1,5})\b",
    re.IGNORECASE,
)
_LONE = re.compile(r"(?<![\d.])(\d{1,5})(?![\d.])")
_ANSWER = re.compile(r"\b(solutions?|answers?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Caption:
    text: str  # the line as read
    label: str | None  # the difficulty word(s) as printed, e.g. "Easy"
    number: int | None  # the puzzle number
    answer: bool  # the caption says the grid is a solution


def parse_caption(text: str) -> Caption:
    level = _LEVEL.search(text)
    marked = _MARKED.search(text)
    lone = None if marked else _LONE.search(text)
    number = marked or lone
    return Caption(
        text,
        " ".join(level.group(1).split()).title() if level else None,
        int(number.group(1)) if number else None,
        bool(_ANSWER.search(text)),
    )


@dataclass(frozen=True)
class CaptionLine:
    pixels: np.ndarray  # grey crop, tight to the ink
    top: int  # page rows and columns the ink spans
    bottom: int
    left: int
    right: int
    gap: int  # rows between the ink and the board's edge

    def same_ink(self, other: CaptionLine) -> bool:
        return (
            self.top < other.bottom
            and other.top < self.bottom
            and self.left < other.right
            and other.left < self.right
        )


def page_caption_lines(gray: np.ndarray, boards: list[np.ndarray]) -> list[CaptionLine | None]:
    """Per board (its four corners), the caption line nearest it above or below. A line
    between two boards belongs to the nearer one (by more than its own height; a heading as
    near two boards is both's): captions may be printed above or below, and either way the
    next board's band sees them too."""
    found = [_band_lines(gray, corners) for corners in boards]
    out: list[CaptionLine | None] = []
    for i, lines in enumerate(found):
        mine = [
            line
            for line in lines
            if not any(
                other.gap + (line.bottom - line.top) < line.gap and other.same_ink(line)
                for j, others in enumerate(found)
                if j != i
                for other in others
            )
        ]
        out.append(min(mine, key=lambda line: line.gap) if mine else None)
    return out


def _band_lines(gray: np.ndarray, corners: np.ndarray) -> list[CaptionLine]:
    xs, ys = corners[:, 0], corners[:, 1]
    left, right, top, bottom = xs.min(), xs.max(), ys.min(), ys.max()
    side = max(right - left, bottom - top)
    height, width = gray.shape
    x0, x1 = int(max(0, left)), int(min(width, right))
    out = []
    for above in (True, False):
        if above:
            y0, y1 = int(max(0, top - BAND_DEPTH * side)), int(max(0, top - GAP * side))
        else:
            y0 = int(min(height, bottom + GAP * side))
            y1 = int(min(height, bottom + BAND_DEPTH * side))
        if y1 - y0 < 4 or x1 - x0 < 4:
            continue
        found = _nearest_line(gray, (y0, y1, x0, x1), from_bottom=above)
        if found is not None:
            out.append(found)
    return out


def _nearest_line(
    gray: np.ndarray, band: tuple[int, int, int, int], from_bottom: bool
) -> CaptionLine | None:
    """The ink line nearest the board in ``band`` (rows y0:y1, columns x0:x1 of the page),
    widened to the whole words it meets: a heading centred over two boards is cut by either
    board's band, and belongs to both."""
    y0, y1, x0, x1 = band
    pixels = gray[y0:y1, x0:x1]
    low, high = float(pixels.min()), float(np.percentile(pixels, 90))  # ink may be under 1%
    if high - low < 40:
        return None  # no contrast: no ink
    rows = _ink(pixels, low, high).any(axis=1)
    runs = _runs(rows)
    if not runs:
        return None
    start, stop = runs[-1] if from_bottom else runs[0]
    touches_board = stop == len(rows) if from_bottom else start == 0
    touches_far = start == 0 if from_bottom else stop == len(rows)
    if touches_board or touches_far:
        return None
    line_height = stop - start
    top, bottom = y0 + start, y0 + stop
    # Words: ink columns of the line's rows across the page, joined over gaps under a line
    # height; those reaching into the band make the line.
    words = _runs(_ink(gray[top:bottom], low, high).any(axis=0))
    joined: list[list[int]] = []
    for first, last in words:
        if joined and first - joined[-1][1] < line_height:
            joined[-1][1] = last
        else:
            joined.append([first, last])
    spans = [(first, last) for first, last in joined if first < x1 and x0 < last]
    if not spans:
        return None
    left, right = spans[0][0], spans[-1][1]
    margin = max(2, int(MARGIN * line_height))
    crop = gray[
        max(0, top - margin) : min(gray.shape[0], bottom + margin),
        max(0, left - margin) : min(gray.shape[1], right + margin),
    ]
    gap = (y1 - bottom) if from_bottom else (top - y0)
    return CaptionLine(crop, top, bottom, left, right, gap)


def _ink(pixels: np.ndarray, low: float, high: float) -> np.ndarray:
    return (pixels.astype(np.float32) - low) * (255.0 / (high - low)) < INK


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of each run of True."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


class CaptionReader:
    """PP-OCR's recogniser with its whole character list, for short text lines.

    Its ONNX Runtime session is made when the first line is read: most photos have no caption,
    and the session of the 18,710-class model cost a one-photo ``run`` a tenth of a CPU-second
    (issue 13). A model that cannot be loaded then reads no captions, with a warning, as
    ``caption_reader`` does for a missing one."""

    def __init__(
        self, model_path: str | Path | None = None, threads: int = 1, cache_dir: Path | None = None
    ) -> None:
        # Imported here: the store and the steps name ``Caption`` without loading ONNX Runtime.
        from pipeline.recognise.ocr.ppocr_onnx import find_model

        self._path = find_model(model_path)
        self._threads = threads
        self._cache_dir = cache_dir
        self._session = None
        self._characters: list[str] = []
        self._failed = False

    def _ready(self) -> bool:
        """Whether the session is there, made now if it is the first time asked."""
        if self._session is None and not self._failed:
            from pipeline.recognise.ocr.ppocr_onnx import recogniser_session

            try:
                self._session, self._characters = recogniser_session(
                    self._path, self._threads, cut=False, cache_dir=self._cache_dir
                )
            except EngineUnavailable as error:
                log.warning("printed captions will not be read: %s", error)
                self._failed = True
        return self._session is not None

    def _read_line(self, line: np.ndarray) -> str:
        """A grey line crop -> its text (greedy CTC decoding); the session must be ready."""
        scale = LINE_HEIGHT / line.shape[0]
        width = max(FRAME_WIDTH, int(round(line.shape[1] * scale / FRAME_WIDTH)) * FRAME_WIDTH)
        resized = cv2.resize(line, (width, LINE_HEIGHT), interpolation=cv2.INTER_AREA)
        x = model_input(resized[None].astype(np.float32))
        name = self._session.get_inputs()[0].name
        best = self._session.run(None, {name: x})[0][0].argmax(axis=1)
        chars, previous = [], 0
        for index in best.tolist():
            if index != previous and index != 0:
                chars.append(self._characters[index])
            previous = index
        return "".join(chars).strip()

    def page_captions(self, gray: np.ndarray, boards: list[np.ndarray]) -> list[Caption | None]:
        """Per board (its corners), the caption printed nearest it, parsed; None without."""
        lines = page_caption_lines(gray, boards)
        if not any(lines) or not self._ready():
            return [None] * len(lines)
        return [
            None if line is None else parse_caption(self._read_line(line.pixels)) for line in lines
        ]


def caption_reader(cache_dir: Path | None = None) -> CaptionReader | None:
    """A reader, or None (with a warning) where the recogniser's model is missing: captions
    are an extra, and a run with another digit engine need not fail for want of them.
    ``cache_dir`` keeps its optimised graph for later processes."""
    try:
        return CaptionReader(cache_dir=cache_dir)
    except EngineUnavailable as error:
        log.warning("printed captions will not be read: %s", error)
        return None
