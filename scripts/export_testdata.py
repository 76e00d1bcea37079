#!/usr/bin/python3
"""Writes fxc's test models (testdata/models) and torch.fx's own views of them (testdata/reference).

Needs Debian's python3-torch, python3-torchvision and python3-onnx; CI does not run it, it uses the
committed outputs. Weights are random (seeded); BatchNorm statistics are made non-trivial so that
torch.onnx does not de-duplicate them.

  scripts/export_testdata.py                 # the small committed models
  scripts/export_testdata.py --big DIR       # full-size resnet18/resnet50/mobilenet_v2 for benchmarks
  scripts/export_testdata.py --big DIR --names resnet50,vit_b_16   # others from torchvision
Install them with `scripts/setup.sh torch`.
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "testdata", "models")
REFERENCE = os.path.join(ROOT, "testdata", "reference")
RECORDED = os.path.join(ROOT, "testdata", "recorded")


def randomize_batchnorm(model, torch):
    gen = torch.Generator().manual_seed(0)
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
            m.weight.data.copy_(torch.rand(m.weight.shape, generator=gen) + 0.5)
            m.bias.data.copy_(torch.randn(m.bias.shape, generator=gen) * 0.1)


def narrow(model, torch, factor):
    """Divides every conv/bn/linear width by `factor`, keeping module names and structure."""
    def shrink(c, minimum=1):
        return c if c <= 3 else max(minimum, c // factor)

    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            new = None
            if isinstance(child, torch.nn.Conv2d):
                groups = child.groups
                cin, cout = shrink(child.in_channels), shrink(child.out_channels)
                if groups > 1:
                    groups = cin if groups == child.in_channels else max(1, groups // factor)
                    cout = cin if child.out_channels == child.in_channels else cout
                new = torch.nn.Conv2d(cin, cout, child.kernel_size, child.stride, child.padding,
                                      child.dilation, groups, child.bias is not None)
            elif isinstance(child, torch.nn.BatchNorm2d):
                new = torch.nn.BatchNorm2d(shrink(child.num_features))
            elif isinstance(child, torch.nn.Linear):
                new = torch.nn.Linear(shrink(child.in_features), shrink(child.out_features),
                                      child.bias is not None)
            if new is not None:
                setattr(module, child_name, new)
    return model


def export(torch, model, path, example, input_names=("input",), output_names=("output",),
           dynamic_batch=False, opset=13, fold=False):
    axes = {name: {0: "N"} for name in (*input_names, *output_names)} if dynamic_batch else None
    torch.onnx.export(model, example, path, opset_version=opset,
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=fold,
                      input_names=list(input_names), output_names=list(output_names),
                      dynamic_axes=axes)
    onnx.checker.check_model(onnx.load(path))


def torchfx_views(torch, model, stem):
    """torch.fx's print_tabular and code for `model`, the reference fxc is compared against."""
    import contextlib
    import io
    from torch.fx import symbolic_trace
    gm = symbolic_trace(model)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        gm.graph.print_tabular()
    with open(os.path.join(REFERENCE, stem + ".torchfx.tabular.txt"), "w") as f:
        f.write(buf.getvalue())
    with open(os.path.join(REFERENCE, stem + ".torchfx.code.py"), "w") as f:
        f.write(gm.code)


def torch_models(torch, torchvision):
    torch.manual_seed(0)
    x = torch.randn(1, 3, 64, 64)
    cnns = {
        "resnet18_narrow": (torchvision.models.resnet18(), 16),
        "mobilenet_v2_narrow": (torchvision.models.mobilenet_v2(), 8),
        "mobilenet_v3_small_narrow": (torchvision.models.mobilenet_v3_small(), 8),
        "squeezenet1_1_narrow": (torchvision.models.squeezenet1_1(), 8),
    }
    for stem, (model, factor) in cnns.items():
        model = narrow(model, torch, factor).eval()
        randomize_batchnorm(model, torch)
        torchfx_views(torch, model, stem)
        with torch.no_grad():
            export(torch, model, os.path.join(MODELS, stem + ".onnx"), x)

    # The seed document's examples.
    class MyModule(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(4, 5)

        def forward(self, x):
            return torch.topk(torch.sum(self.linear(x + self.linear.weight).relu(), dim=-1), 3)

    class SeedTopk(torch.nn.Module):  # the seed's MyModule: linear → topk → relu → + ones
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(64, 64)

        def forward(self, x):
            x = self.linear(x)
            x = torch.topk(x, 10).values
            x = torch.relu(x)
            x = x + torch.ones(5, 1)
            return x

    class ThreeAdds(torch.nn.Module):  # the seed's add→mul example
        def forward(self, x, y):
            return x + y, torch.add(x, y), x.add(y)

    seed = SeedTopk().eval()
    torchfx_views(torch, seed, "seed_topk")
    export(torch, seed, os.path.join(MODELS, "seed_topk.onnx"), torch.randn(1, 64), ("x",))
    adds = ThreeAdds().eval()
    torchfx_views(torch, adds, "seed_three_adds")
    export(torch, adds, os.path.join(MODELS, "seed_three_adds.onnx"),
           (torch.randn(2, 3), torch.randn(2, 3)), ("x", "y"), ("out0", "out1", "out2"))


def dense_block_model(torch, torchvision):
    """A DenseNet of two tiny dense blocks: BatchNorm → ReLU after each concatenation (what
    quant-lower turns into one lookup table per layer)."""
    torch.manual_seed(0)
    model = torchvision.models.DenseNet(growth_rate=8, block_config=(2, 2), num_init_features=16,
                                        bn_size=2, num_classes=10).eval()
    randomize_batchnorm(model, torch)
    with torch.no_grad():
        export(torch, model, os.path.join(MODELS, "densenet_tiny.onnx"), torch.randn(1, 3, 32, 32))


def decoder_model(torch):
    """An encoder-decoder of two strided convolutions and two transposed ones (a 4×4 stride-2
    upsampling, and a 3×3 one with output_padding), each followed by a ReLU: what quant-lower
    turns into fxc.QLinearConvTranspose."""
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
        nn.Conv2d(4, 3, 1)).eval()
    with torch.no_grad():
        export(torch, model, os.path.join(MODELS, "decoder_tiny.onnx"), torch.randn(1, 3, 32, 32))


def activation_mlp_models(torch):
    """Linear layers followed by each kind of activation, for linear-act: GELU (exact and tanh),
    ReLU without a bias, SiLU as a function; a Linear read twice (not fused), a Linear and GELU on
    a rank-3 input. At opset 13 without constant folding (Transpose → MatMul → Add; GELU as
    torch.onnx writes it, Div/Erf/Add/Mul/Mul) and at opset 17 with folding (MatMul on the
    transposed weight)."""
    torch.manual_seed(3)

    class ActivationMLP(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(16, 32)
            self.act1 = torch.nn.GELU()
            self.fc2 = torch.nn.Linear(32, 32)
            self.act2 = torch.nn.GELU(approximate="tanh")
            self.fc3 = torch.nn.Linear(32, 24, bias=False)
            self.act3 = torch.nn.ReLU()
            self.fc4 = torch.nn.Linear(24, 24)
            self.fc5 = torch.nn.Linear(24, 24)
            self.fc6 = torch.nn.Linear(24, 8)

        def forward(self, x):
            h = self.act2(self.fc2(self.act1(self.fc1(x))))
            h = torch.nn.functional.silu(self.fc4(self.act3(self.fc3(h))))
            g = self.fc5(h)  # read twice: the GELU may not take it over
            return self.fc6(torch.nn.functional.gelu(g) + g)

    model = ActivationMLP().eval()
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        export(torch, model, os.path.join(MODELS, "activation_mlp.onnx"), x)
        export(torch, model, os.path.join(MODELS, "activation_mlp_folded.onnx"), x, opset=17,
               fold=True)


def qat_model(torch):
    """A PyTorch QAT model (eager torch.ao.quantization: per-channel weight fake-quantize, fused
    Conv+ReLU) exported by torch.onnx as PyTorch users export theirs: float weights behind
    QuantizeLinear→DequantizeLinear, activations through Q → Clip(0, 127) → DQ (reduced range)."""
    import torch.ao.quantization as tq
    torch.manual_seed(0)

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = tq.QuantStub()
            self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.relu1 = torch.nn.ReLU()
            self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1, stride=2)
            self.relu2 = torch.nn.ReLU()
            self.conv3 = torch.nn.Conv2d(8, 4, 1)
            self.dequant = tq.DeQuantStub()

        def forward(self, x):
            x = self.quant(x)
            x = self.relu1(self.conv1(x))
            x = self.relu2(self.conv2(x))
            return self.dequant(self.conv3(x))

    model = Net().train()
    model.qconfig = tq.QConfig(activation=tq.default_fake_quant,
                               weight=tq.default_per_channel_weight_fake_quant)
    tq.fuse_modules_qat(model, [["conv1", "relu1"], ["conv2", "relu2"]], inplace=True)
    tq.prepare_qat(model, inplace=True)
    for _ in range(4):  # the observers see data
        model(torch.randn(2, 3, 16, 16))
    model.apply(tq.disable_observer)
    model.eval()
    path = os.path.join(MODELS, "qat_torch.onnx")
    torch.onnx.export(model, torch.randn(1, 3, 16, 16), path, opset_version=13,
                      input_names=["input"], output_names=["output"])
    onnx.checker.check_model(onnx.load(path))


def f32(name, shape, seed):
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def save(model, stem, **kwargs):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(MODELS, stem + ".onnx"), **kwargs)


def dynamic_batch_model():
    """A symbolic batch N on two inputs, float and int64: y = relu(x @ W + b), z = ids + 1, with
    small exact weights, so that tests can work the outputs by hand; and a convolution with a
    symbolic batch on one input."""
    w = numpy_helper.from_array(np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], np.float32), "fc.weight")
    b = numpy_helper.from_array(np.array([0, 0.5, -1], np.float32), "fc.bias")
    one = numpy_helper.from_array(np.array(1, np.int64), "one")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "fc.weight"], ["m"], name="/fc/MatMul"),
         helper.make_node("Add", ["m", "fc.bias"], ["a"], name="/fc/Add"),
         helper.make_node("Relu", ["a"], ["y"], name="/relu/Relu"),
         helper.make_node("Add", ["ids", "one"], ["z"], name="/Add")],
        "dynamic_batch",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4]),
         helper.make_tensor_value_info("ids", TensorProto.INT64, ["N"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3]),
         helper.make_tensor_value_info("z", TensorProto.INT64, ["N"])],
        [w, b, one])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "dynamic_batch")

    # One input with a symbolic batch, for calibration data that fixes it.
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], name="/conv/Conv"),
         helper.make_node("Relu", ["c"], ["y"], name="/relu/Relu")],
        "dynamic_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 6, 6])],
        [f32("conv.weight", [4, 3, 3, 3], 3), f32("conv.bias", [4], 4)])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "dynamic_conv")


def data_shapes_model():
    """Shapes that a run proves and shapes it does not: x [2, 3]; y = reshape(x, [shape(x)[1], -1])
    (computed from x's shape: proven), z = reshape(x, [int(max(x) * 0) + 6]) (computed from x's
    values: not proven), nz = transpose(nonzero(x > 0)) (as many rows as x has positives), and
    count = shape(nonzero(x > 0)), which no fold may fix. ONNX's shape inference works out none of
    the first three."""
    c = lambda name, value: numpy_helper.from_array(np.array(value, np.int64), name)
    graph = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("Gather", ["s", "one"], ["cols"], axis=0),
         helper.make_node("Concat", ["cols", "minus_one"], ["target"], axis=0),
         helper.make_node("Reshape", ["x", "target"], ["y"]),
         helper.make_node("ReduceMax", ["x"], ["m"], keepdims=0),
         helper.make_node("Mul", ["m", "zero_f"], ["m0"]),
         helper.make_node("Cast", ["m0"], ["m0i"], to=TensorProto.INT64),
         helper.make_node("Add", ["m0i", "six"], ["n"]),
         helper.make_node("Reshape", ["x", "n"], ["z"]),
         helper.make_node("Greater", ["x", "zero_f"], ["positive"]),
         helper.make_node("NonZero", ["positive"], ["where"]),
         helper.make_node("Transpose", ["where"], ["nz"]),
         helper.make_node("Shape", ["where"], ["count"])],
        "data_shapes",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["?"] * 2),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, ["?"]),
         helper.make_tensor_value_info("nz", TensorProto.INT64, ["?"] * 2),
         helper.make_tensor_value_info("count", TensorProto.INT64, [2])],
        [c("one", [1]), c("minus_one", [-1]), c("six", [6]),
         numpy_helper.from_array(np.array(0, np.float32), "zero_f")])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "data_shapes")


def float64_model():
    """float64 computed in double: x [2, 3] float64 through arithmetic with values float32 would
    round (x + 1e-12, x / 3), moves (Transpose, Reshape, Concat, Where), a CumSum, a ReduceSum, a
    comparison and a Cast to float32; and a Relu of float64, which fxc must refuse. The outputs,
    computed by numpy in float64, go to testdata/recorded/."""
    D = TensorProto.DOUBLE
    c = lambda name, value, dtype=np.float64: numpy_helper.from_array(np.array(value, dtype), name)
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "eps"], ["sum"]),
         helper.make_node("Transpose", ["sum"], ["t"]),
         helper.make_node("Reshape", ["t", "flat"], ["r"]),
         helper.make_node("CumSum", ["r", "axis0"], ["cumsum"]),
         helper.make_node("ReduceSum", ["x", "axis1"], ["rowsum"], keepdims=0),
         helper.make_node("Div", ["x", "three"], ["third"]),
         helper.make_node("Cast", ["third"], ["as_float"], to=TensorProto.FLOAT),
         helper.make_node("Greater", ["x", "zero"], ["positive"]),
         helper.make_node("Where", ["positive", "x", "zeros"], ["kept"]),
         helper.make_node("Concat", ["x", "sum"], ["stacked"], axis=0)],
        "float64_ops",
        [helper.make_tensor_value_info("x", D, [2, 3])],
        [helper.make_tensor_value_info("cumsum", D, [6]),
         helper.make_tensor_value_info("rowsum", D, [2]),
         helper.make_tensor_value_info("third", D, [2, 3]),
         helper.make_tensor_value_info("as_float", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("positive", TensorProto.BOOL, [2, 3]),
         helper.make_tensor_value_info("kept", D, [2, 3]),
         helper.make_tensor_value_info("stacked", D, [4, 3])],
        [c("eps", [1e-12]), c("flat", [6], np.int64), c("axis0", 0, np.int64),
         c("axis1", [1], np.int64), c("three", 3.0), c("zero", 0.0), c("zeros", np.zeros((2, 3)))])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "float64_ops")
    x = np.random.default_rng(64).standard_normal((2, 3))
    s = x + 1e-12
    want = {"x": x, "cumsum": np.cumsum(s.T.reshape(6)), "rowsum": x.sum(axis=1),
            "third": x / 3.0, "as_float": (x / 3.0).astype(np.float32), "positive": x > 0,
            "kept": np.where(x > 0, x, 0.0), "stacked": np.concatenate([x, s], axis=0)}
    for name, value in want.items():
        np.save(os.path.join(RECORDED, "float64_ops." + name + ".npy"), value)
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")], "float64_refused",
        [helper.make_tensor_value_info("x", D, [2, 3])],
        [helper.make_tensor_value_info("y", D, [2, 3])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "float64_refused")


def float16_model():
    """float16 at the edges: x float16 [2, 4]; z = float(x) * w (float32), y = float16(z). fxc
    computes in float32; y and x are shown and written as float16."""
    w = numpy_helper.from_array(np.array([3, 0.1, 1, 1], np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["xf"], name="to_float", to=TensorProto.FLOAT),
         helper.make_node("Mul", ["xf", "w"], ["z"], name="mul"),
         helper.make_node("Cast", ["z"], ["y"], name="to_half", to=TensorProto.FLOAT16)],
        "float16_io", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 4]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 4])], [w])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "float16_io")


def linear_3d_model():
    """Linears without bias on a rank-3 input, as torch.onnx writes nn.Linear(bias=False) on
    [batch, tokens, features]: MatMul by B [8, 6], then by the Transpose of W [4, 6]. Quantized,
    their weights go behind a DequantizeLinear before a MatMul (Gemm takes rank 2 only)."""
    rng = np.random.default_rng(11)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "fc1.weight"], ["h"], name="/fc1/MatMul"),
         helper.make_node("Relu", ["h"], ["r"], name="/relu/Relu"),
         helper.make_node("Transpose", ["fc2.weight"], ["wt"], name="/fc2/Transpose", perm=[1, 0]),
         helper.make_node("MatMul", ["r", "wt"], ["y"], name="/fc2/MatMul")],
        "linear_3d", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])],
        [numpy_helper.from_array(rng.standard_normal((8, 6)).astype(np.float32) * 0.3, "fc1.weight"),
         numpy_helper.from_array(rng.standard_normal((4, 6)).astype(np.float32) * 0.3, "fc2.weight")])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), "linear_3d")


def hand_made_models():
    """Graphs torch.onnx does not write: functions, subgraphs, external data, aliases."""
    T = TensorProto.FLOAT
    opset = [helper.make_opsetid("", 15)]
    dynamic_batch_model()

    # A local function (the analog of fx.wrap): Swish(x) = x * sigmoid(x) * alpha, called twice.
    swish = helper.make_function(
        "custom", "Swish", ["X"], ["Y"],
        [helper.make_node("Sigmoid", ["X"], ["s"], name="sig"),
         helper.make_node("Mul", ["X", "s"], ["Y"], name="mul")],
        [helper.make_opsetid("", 15)])
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "conv.weight"], ["c"], name="/conv/Conv", pads=[1, 1, 1, 1]),
         helper.make_node("Swish", ["c"], ["s1"], name="/act/Swish", domain="custom"),
         helper.make_node("Swish", ["s1"], ["s2"], name="/act_1/Swish", domain="custom"),
         helper.make_node("Add", ["s2", "c"], ["y"], name="/Add")],
        "functions",
        [helper.make_tensor_value_info("x", T, [1, 2, 8, 8])],
        [helper.make_tensor_value_info("y", T, [1, 4, 8, 8])],
        [f32("conv.weight", [4, 2, 3, 3], 1)])
    save(helper.make_model(graph, opset_imports=opset + [helper.make_opsetid("custom", 1)],
                           functions=[swish]), "functions")

    # If with branches that read an outer value; Loop with a body.
    then_g = helper.make_graph(
        [helper.make_node("Relu", ["a"], ["t"], name="then_relu")], "then", [],
        [helper.make_tensor_value_info("t", T, [2, 3])])
    else_g = helper.make_graph(
        [helper.make_node("Neg", ["b"], ["e"], name="else_neg")], "else", [],
        [helper.make_tensor_value_info("e", T, [2, 3])])
    body = helper.make_graph(
        [helper.make_node("Add", ["acc_in", "a"], ["acc_out"], name="body_add"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body_cond")],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", T, [2, 3])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", T, [2, 3])])
    graph = helper.make_graph(
        [helper.make_node("Sigmoid", ["x"], ["a"], name="sig"),
         helper.make_node("Tanh", ["x"], ["b"], name="tanh"),
         helper.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
         helper.make_node("Greater", ["s", "zero"], ["c"], name="positive"),
         helper.make_node("If", ["c"], ["r"], name="branch", then_branch=then_g, else_branch=else_g),
         helper.make_node("Loop", ["trips", "", "r"], ["l"], name="loop", body=body)],
        "subgraphs",
        [helper.make_tensor_value_info("x", T, [2, 3])],
        [helper.make_tensor_value_info("l", T, [2, 3])],
        [numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
         numpy_helper.from_array(np.array(3, np.int64), "trips")])
    save(helper.make_model(graph, opset_imports=opset), "subgraphs")

    # Multi-output ops: Split into three, TopK with values and indices both used.
    graph = helper.make_graph(
        [helper.make_node("Split", ["x"], ["p0", "p1", "p2"], name="split", axis=1),
         helper.make_node("Add", ["p0", "p2"], ["q"], name="add"),
         helper.make_node("TopK", ["q", "k"], ["values", "indices"], name="topk"),
         helper.make_node("Cast", ["indices"], ["fi"], name="cast", to=TensorProto.FLOAT),
         helper.make_node("Mul", ["values", "fi"], ["y"], name="mul")],
        "multi_output",
        [helper.make_tensor_value_info("x", T, [2, 6])],
        [helper.make_tensor_value_info("y", T, [2, 1]), helper.make_tensor_value_info("p1", T, [2, 2])],
        [numpy_helper.from_array(np.array([1], np.int64), "k")])
    save(helper.make_model(graph, opset_imports=opset), "multi_output")

    # Shared parameters the way torch.onnx de-duplicates them: Identity of an initializer.
    graph = helper.make_graph(
        [helper.make_node("Identity", ["a.weight"], ["b.weight"], name="Identity_0"),
         helper.make_node("Conv", ["x", "a.weight"], ["ya"], name="/a/Conv"),
         helper.make_node("Conv", ["ya", "b.weight"], ["y"], name="/b/Conv")],
        "identity_alias",
        [helper.make_tensor_value_info("x", T, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", T, [1, 3, 4, 4])],
        [f32("a.weight", [3, 3, 3, 3], 2)])
    save(helper.make_model(graph, opset_imports=opset), "identity_alias")

    # No scope names (as from other exporters): modules are named after their ops.
    graph = helper.make_graph(
        [helper.make_node("Conv", ["input.1", "w0", "b0"], ["c0"], name="Conv_0", pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c0", "g", "beta", "mean", "var"], ["n0"],
                          name="BatchNormalization_1", epsilon=1e-5),
         helper.make_node("Relu", ["n0"], ["r0"], name="Relu_2"),
         helper.make_node("Conv", ["r0", "w1"], ["c1"], name="Conv_3"),
         helper.make_node("GlobalAveragePool", ["c1"], ["p"], name="GlobalAveragePool_4"),
         helper.make_node("Flatten", ["p"], ["f"], name="Flatten_5"),
         helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["out"], name="Gemm_6", transB=1)],
        "unscoped",
        [helper.make_tensor_value_info("input.1", T, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", T, [1, 5])],
        [f32("w0", [4, 3, 3, 3], 3), f32("b0", [4], 4), f32("g", [4], 5), f32("beta", [4], 6),
         f32("mean", [4], 7), numpy_helper.from_array(np.full([4], 1.5, np.float32), "var"),
         f32("w1", [6, 4, 1, 1], 8), f32("fc_w", [5, 6], 9), f32("fc_b", [5], 10)])
    save(helper.make_model(graph, opset_imports=opset), "unscoped")

    # Weights in an external data file next to the model.
    model = helper.make_model(helper.make_graph(
        [helper.make_node("MatMul", ["x", "proj.weight"], ["y"], name="/proj/MatMul")],
        "external_data",
        [helper.make_tensor_value_info("x", T, [2, 64])],
        [helper.make_tensor_value_info("y", T, [2, 32])],
        [f32("proj.weight", [64, 32], 11)]), opset_imports=opset)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(MODELS, "external_data.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="external_data.bin", size_threshold=0)


def pass_models():
    """Small graphs for the passes: each rewrite and each refusal."""
    T = TensorProto.FLOAT
    opset = [helper.make_opsetid("", 15)]

    def bn(prefix, channels, seed):
        rng = np.random.default_rng(seed)
        return [numpy_helper.from_array(rng.uniform(0.5, 1.5, channels).astype(np.float32), prefix + ".weight"),
                numpy_helper.from_array(rng.normal(0, 0.1, channels).astype(np.float32), prefix + ".bias"),
                numpy_helper.from_array(rng.normal(0, 0.1, channels).astype(np.float32), prefix + ".running_mean"),
                numpy_helper.from_array(rng.uniform(0.5, 1.5, channels).astype(np.float32), prefix + ".running_var")]

    def bn_node(prefix, x, y, **attrs):
        return helper.make_node("BatchNormalization", [x] + [prefix + s for s in
                                (".weight", ".bias", ".running_mean", ".running_var")], [y],
                                name="/" + prefix + "/BatchNormalization", **attrs)

    # ConvTranspose (grouped) + BN, and Gemm + BN (a Linear followed by BatchNorm1d).
    graph = helper.make_graph(
        [helper.make_node("ConvTranspose", ["x", "up.weight", "up.bias"], ["u"], name="/up/ConvTranspose",
                          group=2, strides=[2, 2]),
         bn_node("up_bn", "u", "v"),
         helper.make_node("GlobalAveragePool", ["v"], ["p"], name="/pool/GlobalAveragePool"),
         helper.make_node("Flatten", ["p"], ["f"], name="/Flatten"),
         helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["g"], name="/fc/Gemm", transB=1, beta=0.5),
         bn_node("fc_bn", "g", "y")],
        "deconv_linear_bn",
        [helper.make_tensor_value_info("x", T, [1, 4, 5, 5])],
        [helper.make_tensor_value_info("y", T, [1, 3])],
        [f32("up.weight", [4, 3, 3, 3], 20), f32("up.bias", [6], 21)] + bn("up_bn", 6, 22) +
        [f32("fc.weight", [3, 6], 23), f32("fc.bias", [3], 24)] + bn("fc_bn", 3, 25))
    save(helper.make_model(graph, opset_imports=opset), "deconv_linear_bn")

    # Refusals: a conv whose output has a second user, BN in training mode, a conv module with
    # shared weights; and one plain conv+bn that does fold (depthwise, no bias).
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "a.weight"], ["a"], name="/a/Conv", pads=[1, 1, 1, 1]),
         bn_node("a_bn", "a", "an"),
         helper.make_node("Add", ["an", "a"], ["s1"], name="/Add"),
         helper.make_node("Conv", ["s1", "b.weight"], ["b"], name="/b/Conv", pads=[1, 1, 1, 1], group=4),
         bn_node("b_bn", "b", "bn_out"),
         helper.make_node("Conv", ["bn_out", "c.weight"], ["c"], name="/c/Conv", pads=[1, 1, 1, 1]),
         bn_node("c_bn", "c", "cn", training_mode=1),
         helper.make_node("Conv", ["cn", "c.weight"], ["d"], name="/d/Conv", pads=[1, 1, 1, 1]),
         bn_node("d_bn", "d", "y")],
        "conv_bn_cases",
        [helper.make_tensor_value_info("x", T, [1, 4, 6, 6])],
        [helper.make_tensor_value_info("y", T, [1, 4, 6, 6])],
        [f32("a.weight", [4, 4, 3, 3], 30), f32("b.weight", [4, 1, 3, 3], 31), f32("c.weight", [4, 4, 3, 3], 32)] +
        bn("a_bn", 4, 33) + bn("b_bn", 4, 34) + bn("c_bn", 4, 35) + bn("d_bn", 4, 36))
    save(helper.make_model(graph, opset_imports=opset), "conv_bn_cases")

    # Dead code, pass-through ops and an unused initializer.
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["i"], name="id"),
         helper.make_node("Dropout", ["i"], ["d"], name="drop"),
         helper.make_node("Relu", ["d"], ["r"], name="relu"),
         helper.make_node("Sigmoid", ["r"], ["dead1"], name="dead_sigmoid"),
         helper.make_node("Mul", ["dead1", "scale"], ["dead2"], name="dead_mul"),
         helper.make_node("Add", ["r", "offset"], ["y"], name="add")],
        "dead_and_identity",
        [helper.make_tensor_value_info("x", T, [2, 3])],
        [helper.make_tensor_value_info("y", T, [2, 3])],
        [f32("scale", [3], 40), f32("offset", [3], 41), f32("unused", [3], 42)])
    save(helper.make_model(graph, opset_imports=opset), "dead_and_identity")

    # Dropouts with their ratio and training_mode inputs (opset 12+): ratio 0.0 while training and
    # ratio 0.3 at inference pass their input through; ratio 0.3 while training does not.
    scalar = lambda name, dtype, value: numpy_helper.from_array(np.array(value, dtype), name)
    graph = helper.make_graph(
        [helper.make_node("Dropout", ["x", "zero", "yes"], ["a"], name="train_ratio_0"),
         helper.make_node("Dropout", ["a", "some", "no"], ["y1"], name="inference"),
         helper.make_node("Dropout", ["x", "some", "yes"], ["y2"], name="training")],
        "dropouts",
        [helper.make_tensor_value_info("x", T, [2, 3])],
        [helper.make_tensor_value_info("y1", T, [2, 3]), helper.make_tensor_value_info("y2", T, [2, 3])],
        [scalar("zero", np.float32, 0.0), scalar("some", np.float32, 0.3), scalar("yes", np.bool_, True),
         scalar("no", np.bool_, False)])
    save(helper.make_model(graph, opset_imports=opset), "dropouts")

    # Graph outputs that are a graph input, and one value under two output names.
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"),
         helper.make_node("Identity", ["r"], ["r2"], name="id")],
        "passthrough_outputs",
        [helper.make_tensor_value_info("x", T, [2])],
        [helper.make_tensor_value_info(name, T, [2]) for name in ("x", "r", "r2")])
    save(helper.make_model(graph, opset_imports=opset), "passthrough_outputs")


def bad_models():
    """Structurally broken models: each must give one clear error line and exit 1."""
    T = TensorProto.FLOAT
    opset = [helper.make_opsetid("", 15)]
    bad = os.path.join(MODELS, "bad")
    os.makedirs(bad, exist_ok=True)
    x = [helper.make_tensor_value_info("x", T, [2])]
    y = [helper.make_tensor_value_info("y", T, [2])]

    def write(stem, nodes, initializers=(), inputs=x, extra_opsets=()):
        graph = helper.make_graph(nodes, stem, inputs, y, list(initializers))
        model = helper.make_model(graph, opset_imports=opset + list(extra_opsets))
        with open(os.path.join(bad, stem + ".onnx"), "wb") as f:
            f.write(model.SerializeToString())  # unchecked on purpose

    write("cycle", [helper.make_node("Add", ["x", "b"], ["a"], name="first"),
                    helper.make_node("Relu", ["a"], ["b"], name="second"),
                    helper.make_node("Neg", ["a"], ["y"], name="third")])
    write("undefined_input", [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add")])
    write("duplicate_value", [helper.make_node("Relu", ["x"], ["y"], name="one"),
                              helper.make_node("Neg", ["x"], ["y"], name="two")])
    write("unknown_domain", [helper.make_node("Frobnicate", ["x"], ["y"], name="frob", domain="com.example")])
    write("not_an_output", [helper.make_node("Relu", ["x"], ["z"], name="relu")])
    # Nodes ONNX's schema check refuses (ONNX Runtime does not load them): an operand too many,
    # a misspelt attribute (its default would be used: softmax over the last axis instead of 0),
    # an attribute of the wrong type.
    write("schema_arity", [helper.make_node("Relu", ["x", "x"], ["y"], name="relu")])
    write("schema_attribute_name", [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axes=0)])
    write("schema_attribute_type", [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=0.0)])
    tensor = f32("w", [2], 12)
    tensor.ClearField("float_data")
    tensor.data_location = TensorProto.EXTERNAL
    entry = tensor.external_data.add()
    entry.key, entry.value = "location", "missing_weights.bin"
    with open(os.path.join(MODELS, "resnet18_narrow.onnx"), "rb") as f:
        truncated = f.read(4000)
    with open(os.path.join(bad, "truncated.onnx"), "wb") as f:
        f.write(truncated)
    write("missing_external", [helper.make_node("Add", ["x", "w"], ["y"], name="add")], [tensor])


def limit_models():
    """Models past a resource limit, each refused in bounded time and memory (test/cli/limits.sh):
    an initializer, an input and a ConstantOfShape of 10^12 elements, and a cycle through a
    subgraph (an If branch reads the value the If's own output feeds)."""
    T = TensorProto.FLOAT
    opset = [helper.make_opsetid("", 13)]
    limits = os.path.join(MODELS, "limits")
    os.makedirs(limits, exist_ok=True)
    y = helper.make_tensor_value_info("y", T, [1000000, 1000000])

    def write(stem, nodes, inputs, initializers=(), outputs=(y,)):
        graph = helper.make_graph(nodes, stem, inputs, list(outputs), list(initializers))
        model = helper.make_model(graph, opset_imports=opset)
        with open(os.path.join(limits, stem + ".onnx"), "wb") as f:
            f.write(model.SerializeToString())  # unchecked on purpose

    w = TensorProto(name="w", data_type=T, dims=[1000000, 1000000], raw_data=b"\0\0\0\0")
    write("huge_initializer", [helper.make_node("Add", ["x", "w"], ["y"], name="add")],
          [helper.make_tensor_value_info("x", T, [1])], [w])
    write("huge_input", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
          [helper.make_tensor_value_info("x", T, [1000000, 1000000])])
    write("huge_constant_of_shape", [helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")], [],
          [numpy_helper.from_array(np.array([1000000, 1000000], np.int64), "s")])
    then_branch = helper.make_graph([helper.make_node("Identity", ["z"], ["t"])], "then", [],
                                    [helper.make_tensor_value_info("t", T, [1])])
    else_branch = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                                    [helper.make_tensor_value_info("e", T, [1])])
    write("subgraph_cycle",
          [helper.make_node("If", ["c"], ["r"], name="branch", then_branch=then_branch, else_branch=else_branch),
           helper.make_node("Neg", ["r"], ["z"], name="neg")],
          [helper.make_tensor_value_info("c", TensorProto.BOOL, []), helper.make_tensor_value_info("x", T, [1])],
          outputs=[helper.make_tensor_value_info("z", T, [1])])
    # A Loop without end on constant inputs (no trip count; the body passes cond = true on):
    # optimizing it must not run it.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["v_in", "one"], ["v_out"])], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", T, [1])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", T, [1])],
        [numpy_helper.from_array(np.array([1], np.float32), "one")])
    write("endless_loop",
          [helper.make_node("Loop", ["", "c", "v0"], ["z"], name="forever", body=body)], [],
          [numpy_helper.from_array(np.array(True), "c"),
           numpy_helper.from_array(np.array([0], np.float32), "v0")],
          outputs=[helper.make_tensor_value_info("z", T, [1])])


def big_models(directory, names):
    import torch
    import torchvision
    os.makedirs(directory, exist_ok=True)
    x = torch.randn(1, 3, 224, 224)
    for name in names:
        model = getattr(torchvision.models, name)().eval()
        randomize_batchnorm(model, torch)
        # Grad enabled: under no_grad, nn.MultiheadAttention takes a fused path torch.onnx cannot export.
        export(torch, model, os.path.join(directory, name + ".onnx"), x, dynamic_batch=True)
        torchfx_views(torch, model, name) if directory == REFERENCE else None
        print(os.path.join(directory, name + ".onnx"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--big", metavar="DIR", help="write full-size resnet18/resnet50/mobilenet_v2 to DIR")
    parser.add_argument("--names", default="resnet18,resnet50,mobilenet_v2",
                        help="with --big: the torchvision models to write (default %(default)s)")
    args = parser.parse_args()
    if args.big:
        big_models(args.big, args.names.split(","))
        return
    os.makedirs(MODELS, exist_ok=True)
    os.makedirs(REFERENCE, exist_ok=True)
    import torch
    import torchvision
    torch_models(torch, torchvision)
    activation_mlp_models(torch)
    dense_block_model(torch, torchvision)
    decoder_model(torch)
    qat_model(torch)
    hand_made_models()
    data_shapes_model()
    float64_model()
    float16_model()
    linear_3d_model()
    limit_models()
    pass_models()
    bad_models()


if __name__ == "__main__":
    sys.exit(main())
