import numpy as np
import pytest

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import MODEL_SETTING, PpOcrOnnxEngine
from sudoku_batch.settings import Settings
from sudoku_batch.synth.fonts import available_fonts
from tests.ocr.rendered import rendered_crops

# Faces unlike one another: sans, serif, mono, condensed, geometric, bold.
FONTS = [
    "DejaVuSans.ttf",
    "DejaVuSerif-Bold.ttf",
    "LiberationMono-Regular.ttf",
    "DejaVuSansCondensed.ttf",
    "URWGothic-Book.otf",
    "NimbusRoman-Regular.otf",
]
INSTALLED = {path.name for path in available_fonts()}
DIGITS = list(range(1, 10))


@pytest.mark.parametrize("font", [f for f in FONTS if f in INSTALLED])
@pytest.mark.parametrize(("sigma", "noise"), [(0.0, 0.0), (1.2, 8.0)])
def test_reads_every_digit_in_each_font(engine, font, sigma, noise):
    crops = rendered_crops(DIGITS, font=font, sigma=sigma, noise=noise, seed=len(font))
    readings = engine.read_digits(crops, digit_symbols(9))
    assert [r.digit for r in readings] == DIGITS
    assert min(r.confidence for r in readings) > 0.95


@pytest.mark.parametrize("labels", ["numbers", "letters"])
@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "LiberationSerif-Regular.ttf"])
def test_reads_sixteen_by_sixteen_symbols(engine, labels, font):
    if font not in INSTALLED:
        pytest.skip(f"{font} is not installed")
    values = list(range(1, 17))
    crops = rendered_crops(values, size=16, font=font, labels=labels, sigma=0.8, noise=5.0)
    readings = engine.read_digits(crops, digit_symbols(16))
    assert [r.digit for r in readings] == values
    assert min(r.confidence for r in readings) > 0.9


def test_readings_carry_two_runner_ups_that_sum_with_the_digit_to_at_most_one(engine):
    readings = engine.read_digits(rendered_crops([3, 8]), digit_symbols(9))
    for reading in readings:
        assert len(reading.alternatives) == 2
        assert reading.digit not in {d for d, _ in reading.alternatives}
        probabilities = [reading.confidence, *(p for _, p in reading.alternatives)]
        assert probabilities == sorted(probabilities, reverse=True)
        assert sum(probabilities) <= 1.0 + 1e-9


def test_decoding_never_leaves_the_allowed_symbols(engine):
    # A 4x4 puzzle allows 1..4 only: a printed 7 or 9 must still come back as one of them.
    crops = rendered_crops([7, 9, 5, 2], size=9)
    for reading in engine.read_digits(crops, digit_symbols(4)):
        assert reading.digit in {1, 2, 3, 4}
        assert {d for d, _ in reading.alternatives} <= {1, 2, 3, 4}


def test_blank_and_noise_crops_still_get_an_allowed_reading(engine):
    rng = np.random.default_rng(0)
    crops = [np.full((40, 40), 255, np.uint8), rng.integers(0, 256, (40, 40), dtype=np.uint8)]
    for reading in engine.read_digits(crops, digit_symbols(9)):
        assert 1 <= reading.digit <= 9


def test_an_empty_batch_reads_as_nothing(engine):
    assert engine.read_digits([], digit_symbols(9)) == []


def test_non_square_crops_are_read(engine):
    crop = rendered_crops([5])[0]
    wide = np.hstack([crop, np.full((crop.shape[0], 20), 255, np.uint8)])
    readings = engine.read_digits([wide, crop[:, 6:-6]], digit_symbols(9))
    assert [r.digit for r in readings] == [5, 5]


def test_a_missing_model_is_reported(tmp_path):
    missing = tmp_path / "missing.onnx"
    files = Settings.from_env({MODEL_SETTING: str(missing)}).engine_files()
    with pytest.raises(EngineUnavailable, match="not found"):
        make_engine("ppocr-onnx", files=files)


def test_a_broken_model_is_reported(tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(EngineUnavailable, match="cannot load"):
        PpOcrOnnxEngine(broken)


def test_engines_are_made_by_name():
    assert make_engine("ppocr-onnx").name == "ppocr-onnx"
    with pytest.raises(EngineUnavailable, match="unknown OCR engine"):
        make_engine("tesseract")
