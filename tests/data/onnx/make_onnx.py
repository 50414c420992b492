#!/usr/bin/python3
"""Writes the ONNX files of tests/data/onnx/ with the real writer Debian 12 ships (python3-onnx
1.12, onnx.helper and onnx.external_data_helper): small benign models of every shape the ONNX
reader meets. The tests and the fuzz seeds read the committed bytes; they do not need onnx.

  /usr/bin/python3 tests/data/onnx/make_onnx.py tests/data/onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def path(name):
    return os.path.join(out, name)


def model(graph, opset=13, **kw):
    m = helper.make_model(graph, producer_name="tensorgate-fixtures", opset_imports=[helper.make_opsetid("", opset)], **kw)
    onnx.checker.check_model(m)
    return m


# Two inputs added: no initializer.
add = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["sum"], name="add")], "add",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("sum", TensorProto.FLOAT, [2, 3])])
onnx.save(model(add), path("add.onnx"))

# A linear layer: initializers as raw_data, a doc string and metadata.
rng = np.random.default_rng(0)
weight = numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "weight")
bias = numpy_helper.from_array(np.zeros(3, dtype=np.float32), "bias")
linear = helper.make_graph(
    [helper.make_node("MatMul", ["x", "weight"], ["xw"]), helper.make_node("Add", ["xw", "bias"], ["y"])], "linear",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])], initializer=[weight, bias],
    doc_string="y = x W + b")
m = model(linear, doc_string="a linear layer")
helper.set_model_props(m, {"author": "tensorgate"})
onnx.save(m, path("linear.onnx"))

# Typed data fields instead of raw_data (int64_data, float_data, string_data).
shape = helper.make_tensor("shape", TensorProto.INT64, [2], [3, 4])
scale = helper.make_tensor("scale", TensorProto.FLOAT, [3], [0.5, 1.0, 2.0])
typed = helper.make_graph(
    [helper.make_node("Reshape", ["x", "shape"], ["r"]), helper.make_node("Mul", ["r", "scale"], ["y"])], "typed",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [12])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])], initializer=[shape, scale])
onnx.save(model(typed), path("typed_data.onnx"))

# Subgraphs in an If node's attributes: graphs nested in graphs.
then_g = helper.make_graph([helper.make_node("Identity", ["a"], ["t"])], "then", [],
                           [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2])])
else_g = helper.make_graph([helper.make_node("Neg", ["a"], ["e"])], "else", [],
                           [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2])])
cond = helper.make_graph(
    [helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)], "cond",
    [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
     helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
onnx.save(model(cond), path("if_subgraph.onnx"))

# The linear layer with its initializers in an external file beside it.
m = model(linear)
onnx.save_model(m, path("external.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                location="external.onnx.data", size_threshold=0)
