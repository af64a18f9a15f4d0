"""Cutting a text recogniser's output layer down to the classes decoding can use.

PP-OCR's recogniser ends in a projection of each frame's features onto every character it knows
(MatMul by a [features, classes] weight, Add of a [classes] bias) and a Softmax over them. A
Sudoku cell only ever needs the blank and a few dozen symbols, yet the 18,710-way projection
and softmax cost an eighth of the model's time (bench/ocr_calibration.py, one thread: 55 -> 48
ms CPU per board of 30 givens). Keeping only the needed columns of the weight and bias gives the
same logits for those classes, so the softmax over them equals the full model's probabilities
renormalised over the kept classes; on the wichtounet givens that read exactly as the full
output did (same errors, same reliability table and fitted temperatures).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from onnx import numpy_helper


class UnexpectedGraph(Exception):
    """The model does not end in the MatMul + Add + Softmax this module knows how to cut."""


def keep_output_classes(model: onnx.ModelProto, keep: Sequence[int]) -> onnx.ModelProto:
    """A copy of ``model`` whose output has only the ``keep`` classes (in that order), the
    softmax taken over them alone. Raises UnexpectedGraph if the graph is not the expected
    shape."""
    pruned = onnx.ModelProto()
    pruned.CopyFrom(model)
    graph = pruned.graph
    if len(graph.output) != 1:
        raise UnexpectedGraph(f"expected one output, found {len(graph.output)}")
    producer = {out: node for node in graph.node for out in node.output}
    initializers = {tensor.name: tensor for tensor in graph.initializer}

    def source(name: str) -> onnx.NodeProto:
        node = producer.get(name)
        while node is not None and node.op_type == "Identity":  # the exporter leaves these
            node = producer.get(node.input[0])
        if node is None:
            raise UnexpectedGraph(f"{name} is not computed by a node")
        return node

    softmax = source(graph.output[0].name)
    if softmax.op_type != "Softmax":
        raise UnexpectedGraph(f"the output comes from {softmax.op_type}, not Softmax")
    add = source(softmax.input[0])
    bias_name = next((name for name in add.input if name in initializers), None)
    if add.op_type != "Add" or bias_name is None:
        raise UnexpectedGraph("the softmax's input is not a projection plus a constant bias")
    matmul = source(next(name for name in add.input if name != bias_name))
    if matmul.op_type != "MatMul" or matmul.input[1] not in initializers:
        raise UnexpectedGraph("the bias is not added to a MatMul by a constant weight")

    weight = numpy_helper.to_array(initializers[matmul.input[1]])
    bias = numpy_helper.to_array(initializers[bias_name])
    classes = weight.shape[-1]
    if weight.ndim != 2 or bias.shape != (classes,):
        raise UnexpectedGraph(f"weight {weight.shape} and bias {bias.shape} do not match")
    if _softmax_axis(softmax) not in (-1, _rank(graph.output[0]) - 1):
        raise UnexpectedGraph("the softmax is not over the class axis")
    if max(keep) >= classes or min(keep) < 0:
        raise UnexpectedGraph(f"class index out of range 0..{classes - 1}")
    uses = [name for node in graph.node for name in node.input]
    if uses.count(matmul.input[1]) != 1 or uses.count(bias_name) != 1:
        raise UnexpectedGraph("the projection's weight or bias is shared with other nodes")

    columns = np.asarray(keep)
    initializers[matmul.input[1]].CopyFrom(
        numpy_helper.from_array(np.ascontiguousarray(weight[:, columns]), matmul.input[1])
    )
    initializers[bias_name].CopyFrom(numpy_helper.from_array(bias[columns], bias_name))
    # Recorded shapes of the cut tensors would now be wrong: set the output's, drop the rest.
    graph.output[0].type.tensor_type.shape.dim[-1].dim_value = len(keep)
    kept_info = [
        info
        for info in graph.value_info
        if classes not in [dim.dim_value for dim in info.type.tensor_type.shape.dim]
    ]
    del graph.value_info[:]
    graph.value_info.extend(kept_info)
    return pruned


def _rank(value: onnx.ValueInfoProto) -> int:
    return len(value.type.tensor_type.shape.dim)


def _softmax_axis(softmax: onnx.NodeProto) -> int | None:
    """The softmax's axis attribute; None where it relies on the opset's default (1 before
    opset 13, over every axis after it; -1 from 13): such a softmax is refused."""
    return next((attribute.i for attribute in softmax.attribute if attribute.name == "axis"), None)
