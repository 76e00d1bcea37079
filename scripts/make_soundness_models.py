#!/usr/bin/env python3
"""Writes testdata/models/soundness/: models on which a pass once computed another function than
the model (a read-only audit of the passes, 2026-12-02) and whose outputs cannot be compared
with fixed expected values (random draws, string tensors, a refused domain). The CLI tests check
what the passes keep (test/CMakeLists.txt); the numeric cases live in
scripts/make_conformance_fxc.py.
  /usr/bin/python3 scripts/make_soundness_models.py"""
import os

import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
def save(name, nodes, inputs, outputs, inits=(), opset=13, extra_opsets=(), functions=(), check=True):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    ops = [h.make_opsetid("", opset)] + [h.make_opsetid(d, v) for d, v in extra_opsets]
    m = h.make_model(g, opset_imports=ops, functions=list(functions) if functions else None)
    m.ir_version = 8
    if check:
        try: onnx.checker.check_model(m)
        except Exception as e: print(name, "checker:", str(e).splitlines()[0])
    onnx.save(m, os.path.join(OUT, name + ".onnx"))
vi = h.make_tensor_value_info
f32 = lambda n, a: nh.from_array(np.array(a, dtype=np.float32), n)
i8 = lambda n, a: nh.from_array(np.array(a, dtype=np.int8), n)

OUT = os.path.join(os.path.dirname(__file__), "..", "testdata", "models", "soundness")

# identity: Dropout traced as a module (leaf scope) in training mode
save("identity_dropout_module_training",
     [h.make_node("Dropout", ["x", "ratio", "tm"], ["y"], name="/drop/Dropout")],
     [vi("x", T.FLOAT, [2, 4])], [vi("y", T.FLOAT, [2, 4])],
     [f32("ratio", 0.5), nh.from_array(np.array(True), "tm")])

# cse: two calls of a local function whose body is random
fn = h.make_function("custom", "Noise", ["X"], ["Y"],
                     [h.make_node("RandomUniformLike", ["X"], ["Y"])],
                     [h.make_opsetid("", 13)])
save("cse_random_local_function",
     [h.make_node("Noise", ["x"], ["n1"], domain="custom", name="n1"),
      h.make_node("Noise", ["x"], ["n2"], domain="custom", name="n2"),
      h.make_node("Sub", ["n1", "n2"], ["d"], name="sub")],
     [vi("x", T.FLOAT, [4])], [vi("d", T.FLOAT, [4])],
     extra_opsets=[("custom", 1)], functions=[fn])

# cse: two Constant nodes with different sparse_value
def sparse(vals, idx, dims):
    return h.make_sparse_tensor(nh.from_array(np.array(vals, np.float32), "v"),
                                nh.from_array(np.array(idx, np.int64), "i"), dims)
save("cse_sparse_constants",
     [h.make_node("Constant", [], ["c1"], name="c1", sparse_value=sparse([1.0], [0], [3])),
      h.make_node("Constant", [], ["c2"], name="c2", sparse_value=sparse([5.0], [2], [3]))],
     [], [vi("c1", T.FLOAT, [3]), vi("c2", T.FLOAT, [3])])

# cse: two ai.onnx.ml LabelEncoder-4 with different string keys_tensor (string tensor attrs)
def stens(n, vals): 
    t = T(); t.name = n; t.data_type = T.STRING; t.dims.extend([len(vals)]); t.string_data.extend([v.encode() for v in vals]); return t
save("cse_string_tensor_attr",
     [h.make_node("LabelEncoder", ["x"], ["y1"], domain="ai.onnx.ml", name="le1",
                  keys_tensor=stens("k", ["a", "b"]), values_tensor=nh.from_array(np.array([1, 2], np.int64), "v"),
                  default_tensor=nh.from_array(np.array([0], np.int64), "d")),
      h.make_node("LabelEncoder", ["x"], ["y2"], domain="ai.onnx.ml", name="le2",
                  keys_tensor=stens("k", ["c", "d"]), values_tensor=nh.from_array(np.array([1, 2], np.int64), "v"),
                  default_tensor=nh.from_array(np.array([0], np.int64), "d"))],
     [vi("x", T.STRING, [2])], [vi("y1", T.INT64, [2]), vi("y2", T.INT64, [2])],
     extra_opsets=[("ai.onnx.ml", 4)], check=False)

# target collision: custom domain "torch" op "relu" becomes target torch.relu (== ai.onnx Relu)
save("cse_domain_target_collision",
     [h.make_node("Relu", ["x"], ["a"], name="a"),
      h.make_node("relu", ["x"], ["b"], domain="torch", name="b")],
     [vi("x", T.FLOAT, [3])], [vi("a", T.FLOAT, [3]), vi("b", T.FLOAT, [3])],
     extra_opsets=[("torch", 1)], check=False)

# cse: a MaxPool read with its indices (a tuple, through getitem) and an identical one read as a
# value: merged, the Add read the tuple and the written model named an output that no node had
# (a fuzzer finding, 2026-12-02).
save("cse_tuple_and_value",
     [h.make_node("MaxPool", ["x"], ["a", "i"], kernel_shape=[2], name="p1"),
      h.make_node("MaxPool", ["x"], ["c"], kernel_shape=[2], name="p2"),
      h.make_node("Add", ["a", "c"], ["s"], name="add")],
     [vi("x", T.FLOAT, [1, 1, 6])], [vi("s", T.FLOAT, [1, 1, 5]), vi("i", T.INT64, [1, 1, 5])])

# trace: a LayerNorm decomposition whose result nobody reads, while a later op of another scope
# reads its Pow: recognized, the module replaced the ops and the later op read a freed node (a
# use after free under ASan, another node's value in Release; a fuzzer finding, 2026-12-02).
save("layernorm_inner_value_read_later",
     [h.make_node("ReduceMean", ["x"], ["m"], axes=[-1], name="/ln/ReduceMean"),
      h.make_node("Sub", ["x", "m"], ["d"], name="/ln/Sub"),
      h.make_node("Constant", [], ["two"], value=nh.from_array(np.array(2.0, np.float32)), name="/ln/Constant"),
      h.make_node("Pow", ["d", "two"], ["p"], name="/ln/Pow"),
      h.make_node("ReduceMean", ["p"], ["v"], axes=[-1], name="/ln/ReduceMean_1"),
      h.make_node("Constant", [], ["eps"], value=nh.from_array(np.array(1e-5, np.float32)), name="/ln/Constant_1"),
      h.make_node("Add", ["v", "eps"], ["ve"], name="/ln/Add"),
      h.make_node("Sqrt", ["ve"], ["s"], name="/ln/Sqrt"),
      h.make_node("Div", ["d", "s"], ["n"], name="/ln/Div"),
      h.make_node("Mul", ["n", "w"], ["nw"], name="/ln/Mul"),
      h.make_node("Add", ["nw", "b"], ["y_ln"], name="/ln/Add_1"),
      h.make_node("ReduceMean", ["p"], ["y"], axes=[-1], name="/other/ReduceMean")],
     [vi("x", T.FLOAT, [2, 4])], [vi("y", T.FLOAT, [2, 1])],
     [f32("w", [1.0, 2.0, 3.0, 4.0]), f32("b", [0.5, 0.5, 0.5, 0.5])])

# conv-bn: a BatchNormalization of opset 6 with is_test 0 is in training mode (the kernel refuses
# it): not folded.
save("conv_bn_is_test_0",
     [h.make_node("Conv", ["x", "conv.weight"], ["c"], name="/conv/Conv"),
      h.make_node("BatchNormalization", ["c", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"],
                  ["y"], name="/bn/BatchNormalization", is_test=0)],
     [vi("x", T.FLOAT, [1, 1, 2, 2])], [vi("y", T.FLOAT, [1, 1, 2, 2])],
     [f32("conv.weight", [[[[2.0]]]]), f32("bn.weight", [3.0]), f32("bn.bias", [0.0]),
      f32("bn.running_mean", [0.0]), f32("bn.running_var", [1.0])], opset=6)

# run --batch / --shape on a model exported with a static batch of 1: x.view(x.size(0), -1) and
# x.size(0) as a float. The execution pipeline's const-fold must see the run's batch, not the
# declared one (it folded Shape(x) to [1, 3, 4]: y came out [1, 24] under --batch 2). The input
# is named input.1, which fxc's placeholder calls input_1: --shape takes either name.
save("static_batch_shape",
     [h.make_node("Shape", ["input.1"], ["s"], name="shape"),
      h.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
      h.make_node("Unsqueeze", ["n", "axes"], ["n1"], name="unsqueeze"),
      h.make_node("Concat", ["n1", "minus_one"], ["target"], name="concat", axis=0),
      h.make_node("Reshape", ["input.1", "target"], ["y"], name="reshape"),
      h.make_node("Cast", ["n"], ["batch"], name="cast", to=T.FLOAT)],
     [vi("input.1", T.FLOAT, [1, 3, 4])], [vi("y", T.FLOAT, [1, 12]), vi("batch", T.FLOAT, [])],
     [nh.from_array(np.array(0, dtype=np.int64), "zero"),
      nh.from_array(np.array([0], dtype=np.int64), "axes"),
      nh.from_array(np.array([-1], dtype=np.int64), "minus_one")])

# run --output-dir: outputs "a:b" (relu) and "a_b" (neg). a_b.npy must hold "a_b": the first
# name, cleaned, took it, and a script reading a_b.npy read the relu.
save("output_names_that_clash",
     [h.make_node("Relu", ["x"], ["a:b"], name="relu"), h.make_node("Neg", ["x"], ["a_b"], name="neg")],
     [vi("x", T.FLOAT, [2, 2])], [vi("a:b", T.FLOAT, [2, 2]), vi("a_b", T.FLOAT, [2, 2])])

# Codegen (testdata/models/codegen/, ctest codegen_torch.semantics: the generated module against
# `fxc run`): ops whose PyTorch counterpart differs from ONNX's semantics unless written with care.
OUT = os.path.join(os.path.dirname(__file__), "..", "testdata", "models", "codegen")
os.makedirs(OUT, exist_ok=True)
# Before opset 13 Softmax, LogSoftmax and Hardmax flatten at axis 1 (their default) to 2-D.
for op in ("Softmax", "LogSoftmax", "Hardmax"):
    save(op.lower() + "_opset11_default_axis", [h.make_node(op, ["x"], ["y"], name="op")],
         [vi("x", T.FLOAT, [2, 3, 4])], [vi("y", T.FLOAT, [2, 3, 4])], opset=11)
# TopK of ties (floor(2x) of inputs in [-1, 1)): ONNX puts the lower index first.
save("topk_ties",
     [h.make_node("Mul", ["x", "two"], ["x2"], name="mul"),
      h.make_node("Floor", ["x2"], ["f"], name="floor"),
      h.make_node("TopK", ["f", "k"], ["values", "indices"], name="topk")],
     [vi("x", T.FLOAT, [2, 8])], [vi("values", T.FLOAT, [2, 5]), vi("indices", T.INT64, [2, 5])],
     [f32("two", 2.0), nh.from_array(np.array([5], dtype=np.int64), "k")])
# PRelu's slope broadcasts from the last axis: [3] on [1, 3, 3] is per column, not per channel.
save("prelu_slope_last_axis", [h.make_node("PRelu", ["x", "slope"], ["y"], name="prelu")],
     [vi("x", T.FLOAT, [1, 3, 3])], [vi("y", T.FLOAT, [1, 3, 3])], [f32("slope", [0.1, 0.2, 0.3])])
# BatchNormalization on an input whose rank shape inference cannot tell (Squeeze's axes behind an
# Identity): torch.nn's BatchNorm classes check the rank, so the module was written as
# BatchNorm2d, which refuses the 3-D input the model gives it.
save("batchnorm_input_rank_unknown",
     [h.make_node("Identity", ["axes"], ["axes_id"], name="axes_id"),
      h.make_node("Squeeze", ["x", "axes_id"], ["s"], name="squeeze"),
      h.make_node("BatchNormalization", ["s", "gamma", "beta", "mean", "var"], ["y"], name="bn")],
     [vi("x", T.FLOAT, [2, 3, 1, 4])], [vi("y", T.FLOAT, [2, 3, 4])],
     [nh.from_array(np.array([2], dtype=np.int64), "axes"), f32("gamma", [0.5, 1.0, 2.0]),
      f32("beta", [0.1, -0.2, 0.3]), f32("mean", [0.2, -0.1, 0.4]), f32("var", [1.5, 0.7, 2.0])])

OUT = os.path.join(os.path.dirname(__file__), "..", "testdata", "models", "soundness")
# run's .npy files: a uint64 output (a Cast) is written as '<u8', not '<i8', and read back as
# uint64 (z = x when x is that file).
save("uint64_io",
     [h.make_node("Cast", ["c"], ["y"], to=T.UINT64, name="cast"),
      h.make_node("Identity", ["x"], ["z"], name="same")],
     [vi("x", T.UINT64, [3])], [vi("y", T.UINT64, [3]), vi("z", T.UINT64, [3])],
     [f32("c", [1.5, 7.0, 3e9])])
# Models ONNX Runtime refuses and fxc ran, printing a value no definition gives (session 31's
# reviews): each is one line and exit 1 now (test/CMakeLists.txt, error.*).
# Resize given both scales and sizes (fxc took the sizes).
x4 = vi("x", T.FLOAT, [1, 1, 2, 2])
save("resize_scales_and_sizes",
     [h.make_node("Resize", ["x", "", "scales", "sizes"], ["y"], name="resize")], [x4],
     [vi("y", T.FLOAT, [1, 1, 3, 3])],
     [f32("scales", [1, 1, 2, 2]), nh.from_array(np.array([1, 1, 3, 3], np.int64), "sizes")],
     check=False)
# tf_crop_and_resize without a crop box (fxc took the whole input).
save("resize_tf_crop_without_roi",
     [h.make_node("Resize", ["x", "", "scales"], ["y"], name="resize", mode="linear",
                  coordinate_transformation_mode="tf_crop_and_resize")], [x4],
     [vi("y", T.FLOAT, [1, 1, 4, 4])],
     [f32("scales", [1, 1, 2, 2])])
# Nearest with exclude_outside whose neighbour lies past the edge: its only weight excluded,
# fxc gave 0.
save("resize_nearest_exclude_outside",
     [h.make_node("Resize", ["x", "", "scales"], ["y"], name="resize", mode="nearest",
                  coordinate_transformation_mode="asymmetric", nearest_mode="ceil",
                  exclude_outside=1)], [x4], [vi("y", T.FLOAT, [1, 1, 2, 4])],
     [f32("scales", [1, 1, 1, 2])])
# Upsample below scale 1 (its spec: at least 1).
save("upsample_downscale",
     [h.make_node("Upsample", ["x", "scales"], ["y"], name="up")], [x4],
     [vi("y", T.FLOAT, [1, 1, 1, 1])],
     [f32("scales", [1, 1, 0.5, 0.5])], opset=9)
# Split into three parts with two outputs: fxc gave the first two parts (ONNX Runtime the
# halves). The sizes as an attribute (refused by the trace) and as a constant operand (by the
# kernel).
xs = vi("x", T.FLOAT, [2, 6])
save("split_attribute_parts",
     [h.make_node("Split", ["x"], ["a", "b"], name="split", axis=1, split=[2, 2, 2])],
     [xs], [vi("a", T.FLOAT, None), vi("b", T.FLOAT, None)], opset=11, check=False)
save("split_operand_parts",
     [h.make_node("Split", ["x", "sizes"], ["a", "b"], name="split", axis=1)],
     [xs], [vi("a", T.FLOAT, None), vi("b", T.FLOAT, None)],
     [nh.from_array(np.array([2, 2, 2], np.int64), "sizes")], check=False)
# Reflect padding of an axis cropped by its other pad: [0, 1, 2, 3] with pads (-1, 3) mirrored
# the uncropped axis and printed the cropped 0 ([1, 2, 3, 2, 1, 0]); ONNX Runtime, ONNX's
# reference and PyTorch refuse a reflection longer than the cropped axis less one.
save("pad_reflect_cropped",
     [h.make_node("Pad", ["x", "pads"], ["y"], name="pad", mode="reflect")],
     [vi("x", T.FLOAT, [2, 4])], [vi("y", T.FLOAT, [2, 6])],
     [nh.from_array(np.array([0, -1, 0, 3], np.int64), "pads")])

OUT = os.path.join(os.path.dirname(__file__), "..", "testdata", "models", "codegen")
# nn.Upsample as torch.onnx writes it (a Resize in its own scope with its scales a Constant
# there: an Upsample module), nearest and bilinear: written as torch.nn.Upsample, which must
# compute what the Resize does. A Resize whose scales are not whole numbers is refused.
scales = h.make_tensor("value", T.FLOAT, [4], [1, 1, 2, 3])
save("upsample_modules",
     [h.make_node("Constant", [], ["/up/scales"], name="/up/Constant", value=scales),
      h.make_node("Resize", ["x", "", "/up/scales"], ["y"], name="/up/Resize", mode="nearest",
                  coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
      h.make_node("Constant", [], ["/up_1/scales"], name="/up_1/Constant", value=scales),
      h.make_node("Resize", ["x", "", "/up_1/scales"], ["z"], name="/up_1/Resize", mode="linear",
                  coordinate_transformation_mode="pytorch_half_pixel")],
     [vi("x", T.FLOAT, [1, 2, 5, 4])], [vi("y", T.FLOAT, [1, 2, 10, 12]), vi("z", T.FLOAT, [1, 2, 10, 12])])
save("upsample_fractional_scale",
     [h.make_node("Constant", [], ["/up/scales"], name="/up/Constant",
                  value=h.make_tensor("value", T.FLOAT, [4], [1, 1, 1.5, 1.5])),
      h.make_node("Resize", ["x", "", "/up/scales"], ["y"], name="/up/Resize", mode="nearest",
                  coordinate_transformation_mode="asymmetric", nearest_mode="floor")],
     [vi("x", T.FLOAT, [1, 2, 4, 4])], [vi("y", T.FLOAT, [1, 2, 6, 6])])
# ONNX semantics PyTorch's same-named calls lack (session 31's codegen review; the package gave
# another value or type than fxc run and ONNX Runtime): Sign keeps a NaN (torch.sign gives 0);
# CumSum and the integer reductions keep int32 (PyTorch sums into int64); an exclusive CumSum
# of infinities is the shifted sum (out - x gave inf - inf = NaN). NaN and inf come from the
# random input itself: log of the negative values, a division by zero.
i64 = lambda n, a: nh.from_array(np.array(a, dtype=np.int64), n)
save("onnx_semantics_13",
     [h.make_node("Log", ["x"], ["l"]), h.make_node("Sign", ["l"], ["sign"]),
      h.make_node("Div", ["x", "zero"], ["inf"]),
      h.make_node("CumSum", ["inf", "axis"], ["cumsum"], exclusive=1),
      h.make_node("Mul", ["x", "ten"], ["x10"]), h.make_node("Cast", ["x10"], ["xi"], to=T.INT32),
      h.make_node("CumSum", ["xi", "axis"], ["cumsum_int"]),
      h.make_node("ReduceSum", ["xi", "axes"], ["sum_int"], keepdims=0)],
     [vi("x", T.FLOAT, [2, 6])],
     [vi("sign", T.FLOAT, [2, 6]), vi("cumsum", T.FLOAT, [2, 6]),
      vi("cumsum_int", T.INT32, [2, 6]), vi("sum_int", T.INT32, [2])],
     [f32("zero", 0.0), f32("ten", 10.0), i64("axis", 1), i64("axes", [1])])
# Before opset 13 a ReduceSum of int32 (axes an attribute) printed as torch.sum, int64; and a
# nearest Resize with tf_half_pixel_for_nn and a ceiling rounding read the next channel along
# the channel axis of scale 1 (x + 0.5 rounded up) in fxc run, the same channel in the package
# and in ONNX Runtime, which keeps every axis of scale 1 with nearest.
save("onnx_semantics_11",
     [h.make_node("Mul", ["x", "ten"], ["x10"]), h.make_node("Cast", ["x10"], ["xi"], to=T.INT32),
      h.make_node("ReduceSum", ["xi"], ["sum_int"], axes=[1], keepdims=0),
      h.make_node("Resize", ["x4", "roi", "scales"], ["resized"], mode="nearest",
                  coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="ceil")],
     [vi("x", T.FLOAT, [2, 6]), vi("x4", T.FLOAT, [1, 3, 4, 5])],
     [vi("sum_int", T.INT32, [2]), vi("resized", T.FLOAT, [1, 3, 8, 5])],
     [f32("ten", 10.0), f32("roi", []), f32("scales", [1, 1, 2, 1])], opset=11)
# A Range whose delta points away from its limit is empty in ONNX (torch.arange raised); TopK-1
# takes k as an attribute of one int (the package's _ints raised on it); a Clip read as
# torch.nn.Hardtanh with min >= max (Hardtanh asserts; ONNX gives max) and torch.nn.Flatten of a
# rank-1 input (it gave [5] where ONNX gives [5, 1]) run as onnx_ops' Clip and Flatten instead;
# Clip-6's bounds are attributes (torch.nn.ReLU6 from them).
save("onnx_semantics_11_range",
     [h.make_node("Range", ["start", "limit", "delta"], ["range"]),
      h.make_node("Add", ["range", "x"], ["range_sum"])],
     [vi("x", T.FLOAT, [1])], [vi("range_sum", T.FLOAT, [0])],
     [f32("start", 5.0), f32("limit", 0.0), f32("delta", 1.0)], opset=11)
save("onnx_semantics_9",
     [h.make_node("TopK", ["x"], ["values", "indices"], name="topk", k=2),
      h.make_node("Clip", ["x"], ["clipped"], name="/act/Clip", min=1.0, max=0.5),
      h.make_node("Clip", ["x"], ["relu6"], name="/act6/Clip", min=0.0, max=6.0),
      h.make_node("Flatten", ["v"], ["flat"], name="/flat/Flatten", axis=1)],
     [vi("x", T.FLOAT, [2, 6]), vi("v", T.FLOAT, [5])],
     [vi("values", T.FLOAT, [2, 2]), vi("indices", T.INT64, [2, 2]),
      vi("clipped", T.FLOAT, [2, 6]), vi("relu6", T.FLOAT, [2, 6]), vi("flat", T.FLOAT, [5, 1])],
     opset=9)
