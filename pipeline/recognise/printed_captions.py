"""The caption printed beside a board ("Easy Puzzle #12", "Hard - 34", "Solution 7"): the text
line nearest the board above or below it, read with the PP-OCR recogniser's whole character list
(the digit engine keeps only the digits' classes), and parsed into a difficulty label and a
puzzle number.

Where the text sits: a band above and a band below the board, as wide as the board and a fifth
of its side deep, square to the board's edges (on a turned scan the bands turn with the board).
In a band, rows with ink are grouped into lines; the line nearest the board is the caption (a
page heading further away, or the next board's edge, is not). Ink touching the board's side of
the band is the board's own frame and is passed over; a band whose nearest line touches its far
edge is left alone: that is more likely part of another board than a caption.

A board's caption may lack a label or role that the page prints once for several boards ("Hard
puzzles" at the top of a page, "Solutions" over a section): ``page_headings`` finds, per board,
the nearest text line above it that is not one board's own caption, and the caption takes what
it lacks of a label and role from there (never a number).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from sudoku_batch.pipeline.engine_files import WHEEL_FILES, EngineFiles
from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.text_lines import FRAME_WIDTH, LINE_HEIGHT, model_input

log = logging.getLogger(__name__)

BAND_DEPTH = 0.2  # of the board's side, above and below it
GAP = 0.01  # of the side, left between the board's edge and the band (its outer frame line)
INK = 128  # grey level below which a pixel is ink, after the band's own contrast stretch
# Least grey levels between the darkest pixel and the paper (90th percentile) for any ink:
# shading and paper texture stay under it.
INK_CONTRAST = 40
MARGIN = 0.25  # of a line's height, kept around its ink
FRAME_PAD = (
    0.02  # of the side, around a board's corners: its frame's own ink, on a heading's search
)
MIN_LINE_ROWS = 4  # fewer rows of ink are a speck, not a line of text
LINE_DEPTH = 0.15  # of the side: a taller run of ink rows is a picture or a rule, not a line

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
# A lone number stands alone: not joined to letters or digits ("9x9", "16x16"), not a decimal,
# and not the value of another field ("size:8", "level = 2", "Page 4").
_LONE = re.compile(r"(?<![\w.])(\d{1,5})(?![\w.])")
_FIELD_BEFORE = re.compile(r"(?:[^\W\d_]+\s*[:=]|\bpage|\bp\.)\s*$", re.IGNORECASE)
_ANSWER = re.compile(r"\b(solutions?|answers?)\b", re.IGNORECASE)
_PUZZLE = re.compile(r"\bpuzzles?\b", re.IGNORECASE)

ANSWER, PUZZLE = "answer", "puzzle"


@dataclass(frozen=True)
class Caption:
    text: str  # the line as read
    label: str | None  # the difficulty word(s) as printed, e.g. "Easy"
    number: int | None  # the puzzle number
    role: str | None  # ANSWER ("Solution 7"), PUZZLE ("Puzzle 7"), or None: the text says neither
    heading: str | None = None  # the page heading that gave label or role, when one did

    def under(self, heading: Caption | None) -> Caption:
        """This caption with what it lacks of a label and role taken from the page heading
        above it; never a number ("Puzzles 1-6" numbers no board)."""
        adds = heading is not None and (
            (self.label is None and heading.label is not None)
            or (self.role is None and heading.role is not None)
        )
        if not adds:
            return self
        return replace(
            self,
            label=self.label or heading.label,
            role=self.role or heading.role,
            heading=heading.text,
        )


def printed_role(caption: Caption | None) -> str | None:
    return None if caption is None else caption.role


NO_CAPTION = Caption("", None, None, None)  # a board with none of its own, under a heading


def parse_caption(text: str) -> Caption:
    level = _LEVEL.search(text)
    marked = _MARKED.search(text)
    number = marked or _lone_number(text)
    role = ANSWER if _ANSWER.search(text) else PUZZLE if _PUZZLE.search(text) else None
    return Caption(
        text,
        " ".join(level.group(1).split()).title() if level else None,
        int(number.group(1)) if number else None,
        role,
    )


def _lone_number(text: str) -> re.Match[str] | None:
    return next(
        (m for m in _LONE.finditer(text) if not _FIELD_BEFORE.search(text, 0, m.start())), None
    )


@dataclass(frozen=True)
class CaptionLine:
    pixels: np.ndarray  # grey crop around the ink (a caption's square to its board)
    top: int  # page rows and columns the ink spans
    bottom: int
    left: int
    right: int
    gap: int  # rows between the ink and the board's edge, square to the edge

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


def page_headings(
    gray: np.ndarray, boards: list[np.ndarray], captions: list[CaptionLine | None]
) -> list[CaptionLine | None]:
    """Per board, the page heading that applies to it: the nearest text line above the board
    that is not one board's own caption ("Hard puzzles" over a page of boards, "Level: Easy"
    over the first row), or that reaches over boards side by side (a caption centred over two
    boards, which is both's and labels the boards below them too). None where no such line
    lies above the board."""
    if not boards:
        return []
    boxes = [_box(corners) for corners in boards]
    side = float(np.median([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]))
    lines = _page_lines(gray, boxes, side)
    headings = []
    for line in lines:
        owners = {id(c): c for c in captions if c is not None and c.same_ink(line)}
        over_a_row = spans_side_by_side(boxes, line.left, line.right, line.bottom, side)
        if len(owners) == 1 and not over_a_row:
            continue  # one board's own caption
        # A line that is the caption of two boards is theirs as read from their bands.
        headings.append(next(iter(owners.values()), line))
    out: list[CaptionLine | None] = []
    for _, top, _, _ in boxes:
        above = [h for h in headings if h.bottom <= top]
        out.append(max(above, key=lambda h: h.bottom) if above else None)
    return out


def spans_side_by_side(
    boxes: list[tuple[int, int, int, int]], left: float, right: float, bottom: float, side: float
) -> bool:
    """Whether a line (columns left:right, ending at row ``bottom``) reaches over two boards
    that stand side by side in the row right under it (tops within a board's side below): a
    heading over a row of boards, though only one board's band took it for a caption."""
    under = [
        (x0, x1)
        for x0, top, x1, _ in boxes
        if left < x1 and x0 < right and 0 <= top - bottom <= side
    ]
    return any(a1 <= b0 or b1 <= a0 for a0, a1 in under for b0, b1 in under)


def _box(corners: np.ndarray) -> tuple[int, int, int, int]:
    xs, ys = corners[:, 0], corners[:, 1]
    return int(xs.min()), int(ys.min()), int(np.ceil(xs.max())), int(np.ceil(ys.max()))


def _page_lines(
    gray: np.ndarray, boxes: list[tuple[int, int, int, int]], side: float
) -> list[CaptionLine]:
    """The text lines of the page above its lowest board's top, in the rows no board covers
    (a heading is above boards, not beside them): rows with ink grouped into lines, each cut
    into runs of words (gaps under a line height)."""
    bottom = max(y0 for _, y0, _, _ in boxes)
    region = gray[:bottom]
    if region.shape[0] < 4:
        return []
    sample = region[::4, ::4]
    low, high = float(sample.min()), _percentile(sample, 90)
    if high - low < INK_CONTRAST:
        return []
    covered = np.zeros(bottom, bool)
    pad = int(FRAME_PAD * side) + 1  # a board's own ink (frame, digits) is no text line
    for _, y0, _, y1 in boxes:
        covered[max(0, y0 - pad) : y1 + pad] = True
    out = []
    for first_row, last_row in _runs(~covered):
        # Every other column: a line of text is found as well, at half the cost.
        ink = _ink(region[first_row:last_row, ::2], low, high)
        for start, end in _runs(ink.any(axis=1)):
            top, stop = first_row + start, first_row + end
            height = stop - top
            if height < MIN_LINE_ROWS or height > LINE_DEPTH * side:
                continue  # a speck, or a picture / rule rather than a line of text
            for first, last in _words(ink[start:end], height // 2):
                left, right = 2 * first, min(gray.shape[1], 2 * last)
                margin = max(2, int(MARGIN * height))
                crop = gray[
                    max(0, top - margin) : stop + margin,
                    max(0, left - margin) : min(gray.shape[1], right + margin),
                ]
                # The region's contrast may come from elsewhere (a board's shadow): a line
                # must hold ink of its own, else a photo's shaded margin above its grid reads
                # as a heading and makes the captions session for nothing.
                if _percentile(crop, 90) - float(crop.min()) >= INK_CONTRAST:
                    out.append(CaptionLine(crop, top, stop, left, right, 0))
    return out


def _words(ink_rows: np.ndarray, height: int) -> list[list[int]]:
    """Column spans of a line's ink, joined over gaps under the line's height (word gaps)."""
    joined: list[list[int]] = []
    for first, last in _runs(ink_rows.any(axis=0)):
        if joined and first - joined[-1][1] < height:
            joined[-1][1] = last
        else:
            joined.append([first, last])
    return joined


def _band_lines(gray: np.ndarray, corners: np.ndarray) -> list[CaptionLine]:
    """The nearest line above and below the board, searched square to the board's edges: on
    a turned scan the bands turn with the board, so its own edge stays out of them."""
    frame = _BoardFrame.of(corners)
    side = max(frame.width, frame.height)
    out = []
    for above in (True, False):
        if above:
            y0, y1 = -BAND_DEPTH * side, -GAP * side
        else:
            y0, y1 = frame.height + GAP * side, frame.height + BAND_DEPTH * side
        band = (0, int(np.floor(y0)), int(round(frame.width)), int(np.ceil(y1)))
        found = _nearest_line(gray, frame, band, from_bottom=above)
        if found is not None:
            out.append(found)
    return out


@dataclass(frozen=True)
class _BoardFrame:
    """A board's own frame: origin at its top-left corner, x along its top edge."""

    turn: np.ndarray  # 2x3 affine map, page pixels -> frame
    width: float  # the board's, in the frame
    height: float

    @classmethod
    def of(cls, corners: np.ndarray) -> _BoardFrame:
        """A tilt under half a pixel across the board is none: an upright page's pixels are
        then taken as they are (no interpolation), as before bands turned."""
        tl, tr, br, bl = corners.astype(np.float64)
        width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        dx, dy = (tr - tl) + (br - bl)
        angle = float(np.arctan2(dy, dx))
        if abs(np.sin(angle)) * width < 0.5:
            x0, y0 = np.floor(corners[:, 0].min()), np.floor(corners[:, 1].min())
            return cls(
                np.array([[1, 0, -x0], [0, 1, -y0]], np.float64),
                float(np.ceil(corners[:, 0].max()) - x0),
                float(np.ceil(corners[:, 1].max()) - y0),
            )
        cos, sin = np.cos(angle), np.sin(angle)
        rotate = np.array([[cos, sin], [-sin, cos]])
        return cls(np.hstack([rotate, -(rotate @ tl)[:, None]]), float(width), float(height))

    @property
    def upright(self) -> bool:
        return self.turn[0, 1] == 0 and self.turn[1, 0] == 0

    def crop(
        self, gray: np.ndarray, x0: int, y0: int, x1: int, y1: int, smooth: bool = True
    ) -> np.ndarray:
        """The frame's pixels in columns x0:x1 and rows y0:y1; white off the page.
        ``smooth`` False: the nearest pixel, where only where ink lies matters."""
        if not self.upright:
            shift = self.turn.copy()
            shift[:, 2] -= (x0, y0)
            flags = cv2.INTER_LINEAR if smooth else cv2.INTER_NEAREST
            return cv2.warpAffine(gray, shift, (x1 - x0, y1 - y0), flags=flags, borderValue=255)
        dx, dy = -int(self.turn[0, 2]), -int(self.turn[1, 2])  # frame -> page
        out = np.full((y1 - y0, x1 - x0), 255, np.uint8)
        top, bottom = max(0, y0 + dy), min(gray.shape[0], y1 + dy)
        left, right = max(0, x0 + dx), min(gray.shape[1], x1 + dx)
        if top < bottom and left < right:
            out[top - y0 - dy : bottom - y0 - dy, left - x0 - dx : right - x0 - dx] = gray[
                top:bottom, left:right
            ]
        return out

    def page_columns(self, gray: np.ndarray) -> tuple[int, int]:
        """The frame's columns that hold the whole page's width."""
        height, width = gray.shape
        xs = self.turn[0, 0] * np.array([0, width, 0, width]) + self.turn[0, 1] * np.array(
            [0, 0, height, height]
        )
        return int(np.floor(xs.min() + self.turn[0, 2])), int(np.ceil(xs.max() + self.turn[0, 2]))

    def page_box(
        self, gray: np.ndarray, left: int, top: int, right: int, bottom: int
    ) -> tuple[int, int, int, int]:
        """A box of the frame as the page box around it: (top, bottom, left, right)."""
        inverse = cv2.invertAffineTransform(self.turn)
        xs = np.array([left, right, right, left], np.float64)
        ys = np.array([top, top, bottom, bottom], np.float64)
        px = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
        py = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
        height, width = gray.shape
        return (
            int(np.clip(np.floor(py.min()), 0, height)),
            int(np.clip(np.ceil(py.max()), 0, height)),
            int(np.clip(np.floor(px.min()), 0, width)),
            int(np.clip(np.ceil(px.max()), 0, width)),
        )


def _nearest_line(
    gray: np.ndarray, frame: _BoardFrame, band: tuple[int, int, int, int], from_bottom: bool
) -> CaptionLine | None:
    """The ink line nearest the board in ``band`` (columns x0:x1, rows y0:y1 of the board's
    frame), widened to the whole words it meets across the page: a heading centred over two
    boards is cut by either board's band, and belongs to both."""
    x0, y0, x1, y1 = band
    if y1 - y0 < 4 or x1 - x0 < 4:
        return None
    pixels = frame.crop(gray, x0, y0, x1, y1, smooth=False)
    low, high = float(pixels.min()), _percentile(pixels, 90)  # ink may be under 1%
    if high - low < INK_CONTRAST:
        return None  # no contrast: no ink
    rows = _ink(pixels, low, high).any(axis=1)
    runs = _runs(rows)
    if from_bottom:
        runs.reverse()  # nearest the board first
    if runs and (runs[0][1] == len(rows) if from_bottom else runs[0][0] == 0):
        # The board's own frame reaching into the band (a thick or blurred outer line): the
        # caption, if any, is the next line out.
        runs = runs[1:]
    # A speck of the scan between the board and its caption is no line of text.
    runs = [(start, stop) for start, stop in runs if stop - start >= MIN_LINE_ROWS]
    if not runs:
        return None
    start, stop = runs[0]
    if start == 0 if from_bottom else stop == len(rows):
        return None  # cut by the band's far edge: more likely another board than a caption
    line_height = stop - start
    top, bottom = y0 + start, y0 + stop
    margin = max(2, int(MARGIN * line_height))
    # Words: ink columns of the line's rows across the page, joined over gaps under a line
    # height; those reaching into the band make the line.
    page_left, page_right = frame.page_columns(gray)
    strip = frame.crop(gray, page_left, top - margin, page_right, bottom + margin)
    spans = [
        (page_left + first, page_left + last)
        for first, last in _words(_ink(strip[margin:-margin], low, high), line_height)
        if page_left + first < x1 and x0 < page_left + last
    ]
    if not spans:
        return None
    left, right = spans[0][0], spans[-1][1]
    crop = strip[:, max(0, left - margin - page_left) : right + margin - page_left]
    gap = (y1 - bottom) if from_bottom else (top - y0)
    page_top, page_bottom, page_x0, page_x1 = frame.page_box(gray, left, top, right, bottom)
    return CaptionLine(crop, page_top, page_bottom, page_x0, page_x1, gap)


def _percentile(pixels: np.ndarray, q: float) -> float:
    """``np.percentile(pixels, q)`` (linear), from a histogram for 8-bit pixels: the same
    value, without sorting a band's ~10^5 pixels."""
    if pixels.dtype != np.uint8:
        return float(np.percentile(pixels, q))
    counts = np.cumsum(np.bincount(pixels.ravel(), minlength=256))
    position = q / 100 * (pixels.size - 1)
    below = int(position)
    lower, upper = np.searchsorted(counts, [below, min(below + 1, pixels.size - 1)], "right")
    return float(lower + (position - below) * (upper - lower))


def _ink(pixels: np.ndarray, low: float, high: float) -> np.ndarray:
    # The grey level under which a pixel is ink, after the contrast stretch, in the pixels'
    # own scale (a comparison of uint8 with a number, rather than a float copy of the page).
    return pixels < low + INK * (high - low) / 255.0


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of each run of True."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


class CaptionReader:
    """PP-OCR's recogniser with its whole character list, for short text lines.

    Its ONNX Runtime session is made when the first line is read: most photos have no caption,
    and making the session of a model with every character is a large part of a one-photo
    ``run``. A model that cannot be loaded then reads no captions, with a warning, as
    ``caption_reader`` does for a missing one."""

    def __init__(
        self, model_path: str | Path | None = None, threads: int = 1, cache_dir: Path | None = None
    ) -> None:
        # Imported here: the store and the steps name ``Caption`` without loading ONNX Runtime.
        from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import find_model

        self._path = find_model(model_path)
        self._threads = threads
        self._cache_dir = cache_dir
        self._session = None
        self._characters: list[str] = []
        self._failed = False

    def _ready(self) -> bool:
        """Whether the session is there, made now if it is the first time asked."""
        if self._session is None and not self._failed:
            from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import recogniser_session

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
        """Per board (its corners), the caption printed nearest it, parsed, with what it lacks
        of a label and role from the page heading above it; None without either."""
        lines = page_caption_lines(gray, boards)
        read: dict[int, Caption | None] = {}  # by line: a line two boards share is read once

        def caption(line: CaptionLine) -> Caption | None:
            # The session is made for the first line read (None: no model, no captions).
            if id(line) not in read:
                text = self._read_line(line.pixels) if self._ready() else None
                read[id(line)] = None if text is None else parse_caption(text)
            return read[id(line)]

        own = [None if line is None else caption(line) for line in lines]
        if self._failed or all(c is not None and c.label and c.role for c in own):
            return own  # nothing a heading could add: the page is not searched for one
        headings = page_headings(gray, boards, lines)
        out: list[Caption | None] = []
        for mine, heading in zip(own, headings, strict=True):
            above = None if heading is None else caption(heading)
            if mine is None and (above is None or not (above.label or above.role)):
                out.append(None)
            else:
                out.append((mine or NO_CAPTION).under(above))
        return out


def caption_reader(files: EngineFiles = WHEEL_FILES) -> CaptionReader | None:
    """A reader, or None (with a warning) where the recogniser's model is missing: captions
    are an extra, and a run with another digit engine need not fail for want of them.
    ``files.cache_dir`` keeps its optimised graph for later processes."""
    try:
        return CaptionReader(files.ppocr_rec_model, cache_dir=files.cache_dir)
    except EngineUnavailable as error:
        log.warning("printed captions will not be read: %s", error)
        return None
