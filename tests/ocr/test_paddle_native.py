"""The optional native PaddlePaddle engine (the 'paddle' extra); skipped when it is absent."""

import os

import pytest

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.paddle_native import MODEL_DIR_SETTING, find_model_dir
from sudoku_batch.settings import Settings
from sudoku_batch.synth.fonts import available_fonts
from tests.ocr.rendered import rendered_crops

INSTALLED = {path.name for path in available_fonts()}


# CI sets this in the venv it installs the 'paddle' extra into, so a broken install fails
# there instead of skipping quietly.
REQUIRED = os.environ.get("SUDOKU_BATCH_REQUIRE_PADDLE") == "1"


@pytest.fixture(scope="module")
def paddle_engine():
    if not REQUIRED:
        pytest.importorskip("paddleocr", reason="the 'paddle' extra is not installed")
    from sudoku_batch.pipeline.recognise.ocr.engines import make_engine

    try:
        return make_engine("paddle-native")
    except EngineUnavailable as exc:
        if REQUIRED:
            raise
        pytest.skip(str(exc))


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "FreeMono.ttf"])
def test_reads_every_digit(paddle_engine, font):
    if font not in INSTALLED:
        pytest.skip(f"{font} is not installed")
    crops = rendered_crops(list(range(1, 10)), font=font, sigma=1.0, noise=6.0)
    readings = paddle_engine.read_digits(crops, digit_symbols(9))
    assert [r.digit for r in readings] == list(range(1, 10))
    assert min(r.confidence for r in readings) > 0.9


@pytest.mark.parametrize("labels", ["numbers", "letters"])
def test_reads_sixteen_by_sixteen_symbols(paddle_engine, labels):
    values = list(range(1, 17))
    crops = rendered_crops(values, size=16, labels=labels, sigma=0.8)
    assert [r.digit for r in paddle_engine.read_digits(crops, digit_symbols(16))] == values


def test_a_model_dir_without_the_model_is_reported(tmp_path):
    files = Settings.from_env({MODEL_DIR_SETTING: str(tmp_path)}).engine_files()
    with pytest.raises(EngineUnavailable, match="lacks inference.json"):
        find_model_dir(files.paddle_rec_dir)
