"""OCR sessions from a saved optimised graph (issue 13): the same outputs as a session of the
model itself, no cut (nor onnx) once saved, a new graph when its recipe changes, and a damaged
or unwritable cache only costs the time it would have saved."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from sudoku_batch.pipeline.recognise.ocr import ppocr_onnx, saved_graphs
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine, find_model
from sudoku_batch.pipeline.recognise.printed_captions import CaptionReader
from tests.ocr.rendered import rendered_crops
from tests.ocr.test_printed_captions import _page_with_two_boards


def _probabilities(engine: PpOcrOnnxEngine) -> list:
    crops = rendered_crops(list(range(1, 10)), sigma=1.0, noise=6.0, seed=3)
    return [
        (r.digit, r.confidence, r.alternatives) for r in engine.read_digits(crops, digit_symbols(9))
    ]


def _saved(cache: Path) -> list[Path]:
    return sorted(cache.glob("ort-graph-*.onnx"))


def test_a_saved_graph_reads_exactly_as_the_model_and_is_not_cut_again(
    engine, tmp_path, monkeypatch
):
    cache = tmp_path / "cache"
    first = PpOcrOnnxEngine(cache_dir=cache)
    assert len(_saved(cache)) == 1

    def no_cut(path):
        raise AssertionError("cut again although its graph was saved")

    monkeypatch.setattr(ppocr_onnx, "_cut_model", no_cut)
    again = PpOcrOnnxEngine(cache_dir=cache)
    assert len(_saved(cache)) == 1
    assert again._class_of == engine._class_of == first._class_of
    assert _probabilities(again) == _probabilities(engine) == _probabilities(first)


def test_a_changed_model_file_gets_its_own_graph(tmp_path):
    cache, model = tmp_path / "cache", tmp_path / "model.onnx"
    shutil.copyfile(find_model(), model)
    PpOcrOnnxEngine(model, cache_dir=cache)
    stat = model.stat()
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    PpOcrOnnxEngine(model, cache_dir=cache)
    assert len(_saved(cache)) == 2


def test_a_damaged_saved_graph_is_made_again(engine, tmp_path, caplog):
    cache = tmp_path / "cache"
    PpOcrOnnxEngine(cache_dir=cache)
    (saved,) = _saved(cache)
    saved.write_bytes(b"damaged")
    with caplog.at_level(logging.WARNING):
        again = PpOcrOnnxEngine(cache_dir=cache)
    assert "ignoring the saved graph" in caplog.text
    assert _probabilities(again) == _probabilities(engine)


def test_an_unwritable_cache_only_means_optimising_every_time(engine, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    assert _probabilities(PpOcrOnnxEngine(cache_dir=blocked / "cache")) == _probabilities(engine)


def test_the_caption_reader_reads_the_same_from_a_saved_graph(tmp_path):
    page, boards = _page_with_two_boards()
    expected = CaptionReader().page_captions(page, boards)
    cache = tmp_path / "cache"
    CaptionReader(cache_dir=cache).page_captions(page, boards)
    assert len(_saved(cache)) == 1
    assert CaptionReader(cache_dir=cache).page_captions(page, boards) == expected


def test_the_caption_session_is_made_at_the_first_caption_line(monkeypatch):
    made = []
    real = ppocr_onnx.recogniser_session
    monkeypatch.setattr(
        ppocr_onnx, "recogniser_session", lambda *a, **k: made.append(1) or real(*a, **k)
    )
    reader = CaptionReader()
    blank = np.full((600, 600), 255, np.uint8)
    board = np.array([(150, 150), (450, 150), (450, 450), (150, 450)], np.float32)
    assert reader.page_captions(blank, [board]) == [None]
    assert made == []
    page, boards = _page_with_two_boards()
    assert [c.number for c in reader.page_captions(page, boards)] == [1, 2]
    reader.page_captions(page, boards)
    assert made == [1]


def test_a_caption_model_that_cannot_load_reads_no_captions(tmp_path, caplog):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    page, boards = _page_with_two_boards()
    reader = CaptionReader(broken)
    with caplog.at_level(logging.WARNING):
        assert reader.page_captions(page, boards) == [None, None]
    assert "printed captions will not be read" in caplog.text


@pytest.mark.parametrize("full_output", [False, True])
def test_without_a_cache_nothing_is_saved(tmp_path, monkeypatch, full_output):
    monkeypatch.chdir(tmp_path)
    PpOcrOnnxEngine(full_output=full_output)
    assert list(tmp_path.iterdir()) == []


def test_a_graph_for_this_cpu_is_loaded_without_optimising_again(engine, tmp_path, monkeypatch):
    levels = []
    real = ppocr_onnx.open_session

    def recording(model, path, threads, configure=None):
        options = ort.SessionOptions()
        if configure is not None:
            configure(options)
        levels.append((options.graph_optimization_level, bool(options.optimized_model_filepath)))
        return real(model, path, threads, configure)

    monkeypatch.setattr(ppocr_onnx, "open_session", recording)
    monkeypatch.setattr(saved_graphs, "cpu_instruction_sets", lambda: "fpu sse2 avx2")
    cache = tmp_path / "cache"
    PpOcrOnnxEngine(cache_dir=cache)
    levels.clear()
    again = PpOcrOnnxEngine(cache_dir=cache)
    assert levels == [(ort.GraphOptimizationLevel.ORT_DISABLE_ALL, False)]
    assert _probabilities(again) == _probabilities(engine)


def test_the_weights_are_a_file_of_their_own_kept_with_the_first_graph_published(tmp_path):
    cache = tmp_path / "cache"
    PpOcrOnnxEngine(cache_dir=cache)
    (graph,) = _saved(cache)
    (weights,) = cache.glob("*.weights")
    assert weights.stat().st_size > 10 * graph.stat().st_size
    kept = graph.read_bytes()

    def open_session(model, configure):
        return ppocr_onnx.open_session(model, find_model(), 1, configure)

    # Another process saving the same graph meanwhile: the one published first stays.
    level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    saved_graphs._save(str(find_model()), graph, level, open_session)
    assert graph.read_bytes() == kept
    assert list(cache.glob("*.weights")) == [weights]
    assert sorted(path.name for path in cache.iterdir()) == sorted([graph.name, weights.name])


def test_damaged_weights_are_made_again(engine, tmp_path, caplog):
    cache = tmp_path / "cache"
    PpOcrOnnxEngine(cache_dir=cache)
    (weights,) = cache.glob("*.weights")
    weights.write_bytes(weights.read_bytes()[:1000])
    with caplog.at_level(logging.WARNING):
        again = PpOcrOnnxEngine(cache_dir=cache)
    assert "ignoring the saved graph" in caplog.text
    assert _probabilities(again) == _probabilities(engine)
    assert list(cache.iterdir()) == []  # made again by the next process that finds none
    PpOcrOnnxEngine(cache_dir=cache)
    assert len(list(cache.glob("*.weights"))) == 1


def test_each_cpu_gets_its_own_graph_and_an_unknown_one_a_portable_graph(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    for cpu in ("fpu sse2 avx2", "fpu sse2 avx2 avx512f", None, "fpu sse2 avx2"):
        monkeypatch.setattr(saved_graphs, "cpu_instruction_sets", lambda cpu=cpu: cpu)
        PpOcrOnnxEngine(cache_dir=cache)
    assert len(_saved(cache)) == 3


def test_the_instruction_sets_are_read_from_the_first_processor(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text(
        "processor\t: 0\nmodel name\t: A CPU\nflags\t\t: fpu sse2 avx2\n\n"
        "processor\t: 1\nflags\t\t: fpu\n"
    )
    assert saved_graphs.cpu_instruction_sets(info) == "fpu sse2 avx2"
    assert saved_graphs.cpu_instruction_sets(tmp_path / "none") is None
