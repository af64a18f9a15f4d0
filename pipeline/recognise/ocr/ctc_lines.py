"""Digit reading with any CTC text-line recogniser: crops set side by side in lines, each
allowed symbol scored under the CTC output of its own slot.

An engine built on this supplies only its character list (class index -> character, the CTC
blank at 0) and a way to run [lines, 3, 48, width] images (normalised to -1..1) to per-frame
class probabilities [lines, width / 8, classes].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.reading import DigitReading
from sudoku_batch.pipeline.recognise.ocr.ctc import sequence_log_likelihoods
from sudoku_batch.pipeline.recognise.ocr.text_lines import FRAME_WIDTH, line_batch, model_input

BLANK = 0
# Slot widths: one character per cell reads well in 40 columns (5 frames; 32 columns cost a
# fifth less but made 39 errors instead of 5 in 4,626 cells read with misplaced corners);
# two-character symbols (10..16) need the whole 48-column cell. Lines of up to ten slots.
SINGLE_SLOT = 40
DOUBLE_SLOT = 48
SLOTS_PER_LINE = 10
READINGS = 3  # the digit and two runner-ups
LOG_FLOOR = 1e-30  # probabilities are clipped here before the log, so log(0) never occurs


class CtcLineEngine:
    """The reading logic shared by CTC line recognisers; subclasses run the model."""

    name: str

    def __init__(self, characters: Sequence[str], temperature: float):
        self._class_of = {char: index for index, char in enumerate(characters) if index != BLANK}
        self.temperature = temperature

    def run_lines(self, lines: np.ndarray) -> np.ndarray:
        """[lines, 3, 48, width] float32 in -1..1 -> [lines, width / 8, classes] probabilities."""
        raise NotImplementedError

    def frame_probabilities(self, crops: Sequence[np.ndarray], slot_width: int) -> np.ndarray:
        """Per-crop frame probabilities [crops, frames per slot, classes], one model call."""
        lines = line_batch(crops, slot_width, SLOTS_PER_LINE)
        probs = self.run_lines(model_input(lines))
        frames = slot_width // FRAME_WIDTH
        slots = lines.shape[2] // slot_width
        per_slot = probs.reshape(len(lines) * slots, frames, probs.shape[2])
        return per_slot[: len(crops)]

    def spell(self, symbol: str) -> tuple[int, ...]:
        try:
            return tuple(self._class_of[char] for char in symbol)
        except KeyError as exc:
            raise EngineUnavailable(f"the recogniser cannot read the symbol {symbol!r}") from exc

    def symbol_log_likelihoods(
        self, crops: Sequence[np.ndarray], symbols: Sequence[str]
    ) -> np.ndarray:
        """log P(symbol | crop) [crops, symbols]."""
        spellings = [self.spell(symbol) for symbol in symbols]
        slot_width = SINGLE_SLOT if max(map(len, spellings)) == 1 else DOUBLE_SLOT
        # Only the blank and the symbols' characters take part: keep just those columns.
        classes = sorted({BLANK, *(c for labels in spellings for c in labels)})
        position = {cls: i for i, cls in enumerate(classes)}
        probs = self.frame_probabilities(crops, slot_width)[:, :, classes]
        return sequence_log_likelihoods(
            np.log(np.maximum(probs, LOG_FLOOR)),
            [tuple(position[c] for c in labels) for labels in spellings],
            position[BLANK],
        )

    def read_digits(
        self, crops: Sequence[np.ndarray], symbols: Mapping[str, int]
    ) -> list[DigitReading]:
        """Each crop's value (a value printed in two ways, 10 and A, is either spelling) with
        the spelling that scored higher: what the book printed."""
        if not crops:
            return []
        if not symbols:
            raise ValueError("no symbols to read")
        names = list(symbols)
        symbol_scores = self.symbol_log_likelihoods(crops, names)
        values = sorted(set(symbols.values()))
        spelled = [[j for j, name in enumerate(names) if symbols[name] == v] for v in values]
        scores = np.stack(
            [np.logaddexp.reduce(symbol_scores[:, js], axis=1) for js in spelled], axis=1
        )
        tempered = scores / self.temperature
        tempered -= tempered.max(axis=1, keepdims=True)
        confidence = np.exp(tempered)
        confidence /= confidence.sum(axis=1, keepdims=True)
        readings = []
        for i, row in enumerate(confidence):
            best = np.argsort(-row, kind="stable")[:READINGS]
            ranked = [(values[k], float(row[k])) for k in best]
            js = spelled[best[0]]
            symbol = names[js[int(np.argmax(symbol_scores[i, js]))]]
            readings.append(DigitReading(*ranked[0], tuple(ranked[1:]), symbol))
        return readings
