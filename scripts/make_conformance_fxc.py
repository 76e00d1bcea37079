#!/usr/bin/env python3
"""Writes testdata/conformance/fxc/: fxc's own node tests in ONNX's backend-test layout
(model.onnx, test_data_set_0/output_*.pb), replayed by ctest's conformance.fxc. Each expected
output is computed here in Python's integers or numpy, not by fxc: cases the fuzzers and audits
found at the edges of a kernel's arithmetic.
  /usr/bin/python3 scripts/make_conformance_fxc.py"""
import math
import os
import shutil

import numpy as np
import onnx
from onnx import helper, numpy_helper

OUT = os.path.join(os.path.dirname(__file__), "..", "testdata", "conformance", "fxc")
I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def info(name, value):
    return helper.make_tensor_value_info(name, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[value.dtype],
                                         list(value.shape))


def write(name, nodes, outputs, initializers=(), opset=13, inputs=()):
    graph = helper.make_graph(nodes, name, [info(n, v) for n, v in inputs],
                              [info(n, v) for n, v in outputs], initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="make_conformance_fxc")
    model.ir_version = 8
    onnx.checker.check_model(model)
    folder = os.path.join(OUT, "test_" + name)
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for kind, values in (("input", inputs), ("output", outputs)):
        for k, (n, v) in enumerate(values):
            with open(os.path.join(folder, "test_data_set_0", f"{kind}_{k}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(v, n).SerializeToString())


def python_range(start, limit, delta):
    values, v = [], start
    while (v < limit) if delta > 0 else (v > limit):
        values.append(v)
        v += delta
    return np.array(values, dtype=np.int64)


def range_test(name, start, limit, delta):
    consts = [numpy_helper.from_array(np.array(v, dtype=np.int64), n)
              for n, v in (("start", start), ("limit", limit), ("delta", delta))]
    write(name, [helper.make_node("Range", ["start", "limit", "delta"], ["y"])],
          [("y", python_range(start, limit, delta))], consts, opset=11)


shutil.rmtree(OUT, ignore_errors=True)
# limit − start overflows int64 (the count was computed from the wrapped difference: an empty
# output), and k · delta does too on the way to the last element.
range_test("range_int64_full_span", I64_MIN, I64_MAX, 2**62)
range_test("range_int64_full_span_descending", I64_MAX, I64_MIN, -(2**62))
range_test("range_int64_top", I64_MAX - 1, I64_MAX, 1)
range_test("range_int64_bottom_descending", I64_MIN + 2, I64_MIN, -1)
range_test("range_int64_step_past_limit", 0, I64_MAX, I64_MAX - 1)
range_test("range_int64_empty", 5, I64_MIN, 1)


# Soundness: each a model where a pass or the tracer once computed another function than the
# model (a read-only audit of the passes, 2026-12-02); ctest runs them as written and after the
# execution pipeline (conformance.fxc, conformance.fxc.optimized).
def f32(value):
    return np.array(value, dtype=np.float32)


def const(name, value):
    return numpy_helper.from_array(value, name)


rng = np.random.default_rng(7)

# A Clip in a scope of its own (a module) whose min is a constant and max a computed value: the
# module took its max as its min (a buffer by name, an argument by position).
x = rng.standard_normal((2, 5)).astype(np.float32)
top = np.float32(0.5) * x.max()
write("clip_module_computed_max",
      [helper.make_node("ReduceMax", ["x"], ["m"], name="/max/ReduceMax", keepdims=0),
       helper.make_node("Mul", ["m", "half"], ["top"], name="/half/Mul"),
       helper.make_node("Clip", ["x", "lo", "top"], ["y"], name="/clip/Clip")],
      [("y", np.clip(x, np.float32(-0.25), top))], [const("lo", f32(-0.25)), const("half", f32(0.5))],
      inputs=[("x", x)])

# A Pad in a scope of its own whose pads are an input, then its Shape: const-fold took the Shape
# from a probe run on zero pads.
d = f32([1, 2, 3])
pads = np.array([2, 1], dtype=np.int64)
write("pad_module_runtime_pads_shape",
      [helper.make_node("Pad", ["d", "p"], ["y"], name="/pad/Pad"),
       helper.make_node("Shape", ["y"], ["s"], name="/shape/Shape")],
      [("s", np.array([6], dtype=np.int64))], inputs=[("d", d), ("p", pads)])

# conv-bn with the convolution's weight also read by another op: the fold rewrote what that op
# read.
x = rng.standard_normal((1, 1, 2, 2)).astype(np.float32)
write("conv_bn_weight_read_elsewhere",
      [helper.make_node("Conv", ["x", "conv.weight"], ["c"], name="/conv/Conv"),
       helper.make_node("BatchNormalization",
                        ["c", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"], ["y"],
                        name="/bn/BatchNormalization"),
       helper.make_node("Neg", ["conv.weight"], ["wn"], name="/neg/Neg")],
      [("y", (x * np.float32(2.0) * np.float32(3.0) / np.sqrt(np.float32(1.0 + 1e-5))).astype(np.float32)),
       ("wn", f32([[[[-2.0]]]]))],
      [const("conv.weight", f32([[[[2.0]]]])), const("bn.weight", f32([3.0])),
       const("bn.bias", f32([0.0])), const("bn.running_mean", f32([0.0])),
       const("bn.running_var", f32([1.0]))], inputs=[("x", x)])

# conv-bn with a Gemm whose C is one value per row ([M, 1], M = N): folded as one per column.
a = rng.standard_normal((2, 3)).astype(np.float32)
w = rng.standard_normal((3, 2)).astype(np.float32)
c_rows = f32([[1.0], [2.0]])
write("conv_bn_gemm_row_bias",
      [helper.make_node("Gemm", ["a", "fc.weight", "fc.bias"], ["g"], name="/fc/Gemm"),
       helper.make_node("BatchNormalization",
                        ["g", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"], ["y"],
                        name="/bn/BatchNormalization", epsilon=0.0)],
      [("y", (a @ w + c_rows).astype(np.float32))],
      [const("fc.weight", w), const("fc.bias", c_rows), const("bn.weight", f32([1.0, 1.0])),
       const("bn.bias", f32([0.0, 0.0])), const("bn.running_mean", f32([0.0, 0.0])),
       const("bn.running_var", f32([1.0, 1.0]))], inputs=[("a", a)])

# One module called twice (torch.onnx's /sm/ and /sm_1/ scopes) with different attributes: the
# second call ran with the first's axis.
x = rng.standard_normal((3, 4)).astype(np.float32)
def softmax(v, axis):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(np.float32)
write("module_called_twice_other_attributes",
      [helper.make_node("Softmax", ["x"], ["y0"], name="/sm/Softmax", axis=0),
       helper.make_node("Softmax", ["x"], ["y1"], name="/sm_1/Softmax", axis=1)],
      [("y0", softmax(x, 0)), ("y1", softmax(x, 1))], inputs=[("x", x)])

# quant-lower joined a float clamp to [0, 6] and an integer clamp to [10, 20] after its Q into
# one clamp to their (empty) intersection: 6 instead of 10.
def i8(value):
    return np.array(value, dtype=np.int8)
aq = i8([[-3, 0, 4, 9]])
bq = i8([[1, 2, 3, 4]])
write("quant_lower_disjoint_clamps",
      [helper.make_node("DequantizeLinear", ["aq", "s", "z"], ["da"], name="dqa"),
       helper.make_node("DequantizeLinear", ["bq", "s", "z"], ["db"], name="dqb"),
       helper.make_node("Add", ["da", "db"], ["sum"], name="add"),
       helper.make_node("Clip", ["sum", "lo_f", "hi_f"], ["r"], name="relu6"),
       helper.make_node("QuantizeLinear", ["r", "s", "z"], ["q"], name="q"),
       helper.make_node("Clip", ["q", "lo_i", "hi_i"], ["out"], name="clip_int")],
      [("out", i8([[10, 10, 10, 10]]))],
      [const("s", f32(1.0)), const("z", i8(0)), const("lo_f", f32(0.0)), const("hi_f", f32(6.0)),
       const("lo_i", i8(10)), const("hi_i", i8(20))], inputs=[("aq", aq), ("bq", bq)])

# quant-lower dropped Q(DQ(q)) although DQ overflows: (q - z) * 1e37 is inf for |q| >= 35, which
# Q saturates.
xq = i8([-100, -1, 0, 1, 100])
with np.errstate(over="ignore"):
    dq = xq.astype(np.float32) * np.float32(1e37)
    yq = np.clip(np.rint(dq / np.float32(1e37)), -128, 127).astype(np.int8)
write("quant_lower_round_trip_overflow",
      [helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["dx"], name="dq"),
       helper.make_node("QuantizeLinear", ["dx", "s", "z"], ["y"], name="q")],
      [("y", yq)], [const("s", f32(1e37)), const("z", i8(0))], inputs=[("xq", xq)])

# Recognition (a second audit, of recognize.cpp, export and codegen), numpy's values as oracle.
# HardSigmoid with its α left out (ONNX's default 0.2) times x was recognized as Hardswish (α 1/6).
x = np.linspace(-4, 4, 16).astype(np.float32).reshape(2, 8)
write("hardsigmoid_default_alpha_gate",
      [helper.make_node("HardSigmoid", ["x"], ["s"], name="/act/HardSigmoid"),
       helper.make_node("Mul", ["x", "s"], ["y"], name="/act/Mul")],
      [("y", (x * np.clip(np.float32(0.2) * x + np.float32(0.5), 0, 1)).astype(np.float32))],
      inputs=[("x", x)])


def gelu_nodes(out):
    return [helper.make_node("Div", ["x", "sqrt2"], ["a"], name="/g/Div"),
            helper.make_node("Erf", ["a"], ["b"], name="/g/Erf"),
            helper.make_node("Add", ["b", "one"], ["c"], name="/g/Add"),
            helper.make_node("Mul", ["x", "c"], ["d"], name="/g/Mul"),
            helper.make_node("Mul", ["d", "half"], [out], name="/g/Mul_1")]


def gelu(v):
    return (v * (np.vectorize(math.erf)(v / np.sqrt(2.0)) + 1.0) * 0.5).astype(np.float32)


sqrt2 = f32(np.sqrt(2.0))
# GELU's ½ of shape [1, 1, 1]: it broadcasts the result to rank 3 (recognized, it was rank 2),
# which a Softmax over axis 0 then shows (all ones).
write("gelu_broadcasting_constant",
      gelu_nodes("g") + [helper.make_node("Softmax", ["g"], ["y"], name="sm", axis=0)],
      [("y", np.ones((1, 2, 8), dtype=np.float32))],
      [const("sqrt2", sqrt2), const("one", f32(1.0)), const("half", np.full((1, 1, 1), 0.5, np.float32))],
      inputs=[("x", x)])
# An If's branch reads a value inside the GELU group: the group is not closed (recognized, the
# value was freed while the branch still read it: a crash).
then_branch = helper.make_graph([helper.make_node("Identity", ["b"], ["t"])], "then", [],
                                [helper.make_tensor_value_info("t", onnx.TensorProto.FLOAT, [2, 8])])
else_branch = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                                [helper.make_tensor_value_info("e", onnx.TensorProto.FLOAT, [2, 8])])
erf_b = np.vectorize(math.erf)(x / np.sqrt(2.0)).astype(np.float32)
write("gelu_inner_value_read_by_if",
      gelu_nodes("g") + [helper.make_node("If", ["cond"], ["z"], name="if", then_branch=then_branch,
                                          else_branch=else_branch),
                         helper.make_node("Add", ["g", "z"], ["y"], name="add")],
      [("y", (gelu(x) + erf_b).astype(np.float32))],
      [const("sqrt2", sqrt2), const("one", f32(1.0)), const("half", f32(0.5)),
       const("cond", np.array(True))], inputs=[("x", x)])
