import logging

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.ctc_lines import BLANK, SINGLE_SLOT
from sudoku_batch.pipeline.recognise.ocr.output_classes import UnexpectedGraph, keep_output_classes
from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine
from tests.ocr.rendered import rendered_crops

CHARACTERS = list("0123456789AB")


def tiny_recogniser(softmax: bool = True, axis: int = 2) -> onnx.ModelProto:
    """[1, frames, 4] features -> MatMul -> Add -> (Softmax) over 1 + 12 + 1 classes, with the
    PP-OCR character metadata."""
    rng = np.random.default_rng(1)
    classes = len(CHARACTERS) + 2
    weight = numpy_helper.from_array(rng.normal(size=(4, classes)).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.normal(size=classes).astype(np.float32), "b")
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["projected"]),
        helper.make_node("Add", ["projected", "b"], ["logits"]),
    ]
    if softmax:
        nodes.append(helper.make_node("Softmax", ["logits"], ["probs"], axis=axis))
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 6, 4])],
        [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, [1, 6, classes])],
        [weight, bias],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 10
    helper.set_model_props(model, {"character": "\n".join(CHARACTERS)})
    return model


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def test_cut_output_is_the_full_softmax_renormalised_over_the_kept_classes():
    model = tiny_recogniser()
    x = np.random.default_rng(2).normal(size=(1, 6, 4)).astype(np.float32)
    keep = [0, 3, 5, 13]
    full = run(model, x)[:, :, keep]
    np.testing.assert_allclose(
        run(keep_output_classes(model, keep), x), full / full.sum(axis=2, keepdims=True), atol=1e-6
    )
    assert run(model, x).shape[2] == 14  # the original model is left as it was


def test_a_graph_without_the_final_softmax_is_refused():
    with pytest.raises(UnexpectedGraph, match="not Softmax"):
        keep_output_classes(tiny_recogniser(softmax=False), [0, 1])


def test_a_softmax_over_frames_and_classes_together_is_refused():
    with pytest.raises(UnexpectedGraph, match="class axis"):
        keep_output_classes(tiny_recogniser(axis=1), [0, 1])


def test_an_unexpected_graph_is_read_with_its_full_output(tmp_path, caplog):
    path = tmp_path / "no-softmax.onnx"
    onnx.save(tiny_recogniser(softmax=False), path)
    with caplog.at_level(logging.WARNING):
        engine = PpOcrOnnxEngine(path)
    assert "full output layer" in caplog.text
    assert engine.spell("B") == (12,)


@pytest.fixture(scope="module")
def full_engine() -> PpOcrOnnxEngine:
    return PpOcrOnnxEngine(full_output=True)


def test_the_engine_keeps_the_blank_and_every_symbols_characters(engine):
    characters = {char for symbol in digit_symbols(25) for char in symbol}
    assert sorted(engine.spell(char)[0] for char in characters) == list(range(1, 27))


def test_cut_engine_frames_equal_the_full_models_renormalised(engine, full_engine):
    # A rendered line of digits and letters, two ways of slotting it: every frame's
    # probabilities over the kept classes are the full model's, renormalised.
    crops = rendered_crops(list(range(1, 17)), size=16, labels="letters", sigma=0.8, noise=5.0)
    cut = engine.frame_probabilities(crops, SINGLE_SLOT)
    full = full_engine.frame_probabilities(crops, SINGLE_SLOT)
    symbols = {char for symbol in digit_symbols(25) for char in symbol}
    characters = sorted(symbols, key=lambda char: engine.spell(char)[0])
    columns = [BLANK, *(full_engine.spell(char)[0] for char in characters)]
    expected = full[:, :, columns] / full[:, :, columns].sum(axis=2, keepdims=True)
    assert cut.shape == expected.shape
    np.testing.assert_allclose(cut, expected, atol=1e-4)
    # Non-trivial: the frames put real mass on the kept classes and outside them.
    assert full[:, :, columns].sum(axis=2).min() < 0.99
    assert cut[:, :, 1:].max() > 0.9
