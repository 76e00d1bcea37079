#!/usr/bin/python3
"""The model zoo: real architectures with random weights, exported by torch.onnx in both of its
modes (its defaults, which fold constants; and training=PRESERVE with do_constant_folding=False),
each run by `fxc run` and compared with PyTorch's own output on the same input.

For each model and mode, one row: nodes in the export, whether fxc runs it, and its max abs error
relative to the output's range (target: <= 1e-4), or the one-line refusal; and module recovery:
of the modules torch.fx.symbolic_trace calls (call_module rows, Dropout and Identity left out: an
ONNX export cannot hold them), how many fxc's trace calls by the same qualified name, and whether
the two lists of calls are equal in order ("=") — or "-" where torch.fx cannot trace the model.
A row whose numbers differ is a WRONG row; the exit status is 1 if any row is wrong (a refusal is
not wrong).
Needs `scripts/setup.sh torch` (Debian's python3-torch, torchvision, onnx); not run by CI.

  scripts/zoo.py [--only NAME,...] [--modes fold,preserve] [--batch N] [--fxc build/fxc] [--dir build/zoo]

--batch N exports at batch N (random inputs of that batch: the exports have a fixed batch) as
NAME.MODE.bN.onnx; the default, 1, writes NAME.MODE.onnx.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import torchvision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def non_trivial(model):
    """Random BatchNorm statistics, and no zero-initialized layer (torchvision zeroes some heads)."""
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
        for p in model.parameters():
            if p.abs().sum() == 0:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.05)
    return model


def vision(name, size=224):
    def make():
        return non_trivial(getattr(torchvision.models, name)()), (torch.randn(1, 3, size, size),)
    return make


def transformer(kind, norm_first, tokens=16, width=64, ff=128):
    def make():
        layer_type = torch.nn.TransformerEncoderLayer if kind == "encoder" else torch.nn.TransformerDecoderLayer
        # Sequence first: torch 1.13's batch-first fast path has no ONNX export.
        layer = layer_type(width, 4, ff, dropout=0.0, norm_first=norm_first)
        if kind == "encoder":
            model = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            return non_trivial(model), (torch.randn(tokens, 2, width),)
        model = torch.nn.TransformerDecoder(layer, 2)
        return non_trivial(model), (torch.randn(16, 2, 64), torch.randn(12, 2, 64))
    return make


def detector():
    def make():
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from yolo_like import YoloLike
        return non_trivial(YoloLike()), (torch.randn(1, 3, 320, 320),)
    return make


class SegmentationOutput(torch.nn.Module):
    """torchvision's segmentation models return {"out": ...}: the tensor alone."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def segmentation(name, size=224):
    def make():
        model = getattr(torchvision.models.segmentation, name)(weights=None, weights_backbone=None)
        return non_trivial(SegmentationOutput(model)), (torch.randn(1, 3, size, size),)
    return make


def recurrent(cell, bidirectional, layers):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(torch.nn, cell)(32, 48, layers, batch_first=True,
                                               bidirectional=bidirectional)
            self.head = torch.nn.Linear(48 * (2 if bidirectional else 1), 10)

        def forward(self, x):
            y, _ = self.rnn(x)
            return self.head(y)

    def make():
        return non_trivial(Net()), (torch.randn(2, 7, 32),)
    return make


MODELS = {
    "resnet18": vision("resnet18"),
    "resnext50_32x4d": vision("resnext50_32x4d"),
    "wide_resnet50_2": vision("wide_resnet50_2"),
    "mobilenet_v2": vision("mobilenet_v2"),
    "mobilenet_v3_large": vision("mobilenet_v3_large"),
    "efficientnet_b0": vision("efficientnet_b0"),
    "efficientnet_v2_s": vision("efficientnet_v2_s"),
    "regnet_y_400mf": vision("regnet_y_400mf"),
    "mnasnet0_5": vision("mnasnet0_5"),
    "shufflenet_v2_x0_5": vision("shufflenet_v2_x0_5"),
    "squeezenet1_1": vision("squeezenet1_1"),
    "densenet121": vision("densenet121"),
    "googlenet": vision("googlenet"),
    "inception_v3": vision("inception_v3", 299),
    "convnext_tiny": vision("convnext_tiny"),
    "vit_b_16": vision("vit_b_16"),
    "swin_t": vision("swin_t"),
    # Detection and segmentation: nn.Upsample, bilinear interpolation to the image, a softmax
    # along a strided axis, split and concatenation heads.
    "yolov8n_like": detector(),
    "lraspp_mobilenet_v3_large": segmentation("lraspp_mobilenet_v3_large"),
    "deeplabv3_mobilenet_v3_large": segmentation("deeplabv3_mobilenet_v3_large"),
    "fcn_resnet50": segmentation("fcn_resnet50"),
    "transformer_encoder": transformer("encoder", False),
    "transformer_encoder_norm_first": transformer("encoder", True),
    "transformer_decoder": transformer("decoder", False),
    "transformer_decoder_norm_first": transformer("decoder", True),
    # Long sequences (1,024 tokens, 4 heads of 64): where attention's scores (4 MB a head) leave
    # the cache unless they are made a block at a time (the attention pass).
    "transformer_encoder_long": transformer("encoder", False, tokens=1024, width=256, ff=1024),
    "lstm_bidirectional_2": recurrent("LSTM", True, 2),
    "gru_bidirectional_2": recurrent("GRU", True, 2),
}


def batched(name, inputs, batch):
    """The model's inputs at `batch` (new random values): batch is the first dimension but for the
    sequence-first transformer stacks, whose second it is."""
    if batch == 1:
        return inputs
    axis = 1 if name.startswith("transformer") else 0
    gen = torch.Generator().manual_seed(batch)
    return tuple(torch.randn(x.shape[:axis] + (batch,) + x.shape[axis + 1:], generator=gen)
                 for x in inputs)


def file_name(name, mode, batch):
    return f"{name}.{mode}.onnx" if batch == 1 else f"{name}.{mode}.b{batch}.onnx"


def torchfx_modules(model):
    """The qualified names of the modules torch.fx's trace calls, in order; None if it cannot trace."""
    try:
        gm = torch.fx.symbolic_trace(model)
    except Exception:  # torch.fx's own limits (control flow on values, unsupported calls)
        return None
    modules = dict(gm.named_modules())
    return [n.target for n in gm.graph.nodes if n.op == "call_module"
            and not isinstance(modules[n.target], (torch.nn.Dropout, torch.nn.Identity))]


def fxc_modules(fxc, path):
    out = subprocess.run([fxc, "trace", "-q", path, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return [n["target"] for n in json.loads(out.stdout)["nodes"] if n["op"] == "call_module"]


def recovery(want, got):
    if want is None:
        return "-"
    if got is None:
        return "not traced"
    have = set(got)
    found = sum(1 for target in set(want) if target in have)
    return f"{found}/{len(set(want))}" + (" =" if want == got else "")


def export(model, inputs, path, mode):
    names = [f"input{k}" for k in range(len(inputs))]
    kwargs = dict(opset_version=13, input_names=names, output_names=["output"])
    if mode == "preserve":
        kwargs.update(training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
    torch.onnx.export(model, inputs, path, **kwargs)
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--modes", default="fold,preserve")
    parser.add_argument("--fxc", default=os.path.join(ROOT, "build", "fxc"))
    parser.add_argument("--dir", default=os.path.join(ROOT, "build", "zoo"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--batch", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    torch.manual_seed(0)
    wrong = 0
    print("| model | export | nodes | fxc | max abs error / range | modules as torch.fx |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        for mode in args.modes.split(","):
            torch.manual_seed(0)
            model, inputs = MODELS[name]()
            inputs = batched(name, inputs, args.batch)
            model.eval()
            want_modules = torchfx_modules(model)
            path = os.path.join(args.dir, file_name(name, mode, args.batch))
            with torch.no_grad():
                want = model(*inputs)
                want = (want[0] if isinstance(want, tuple) else want).numpy()
            try:  # outside no_grad: there torch 1.13 takes fast paths that have no export
                input_names = export(model, inputs, path, mode)
            except Exception as error:  # torch.onnx cannot: not fxc's row to judge
                print(f"| {name} | {mode} | - | not exported | {str(error).splitlines()[0][:100]} | - |")
                continue
            nodes = len(onnx.load(path, load_external_data=False).graph.node)
            with tempfile.TemporaryDirectory() as work:
                command = [args.fxc, "run", "-q", path, "--output-dir", work]
                for k, (input_name, value) in enumerate(zip(input_names, inputs)):
                    np.save(os.path.join(work, f"in{k}.npy"), value.numpy())
                    command += ["--input", f"{input_name}={os.path.join(work, f'in{k}.npy')}"]
                run = subprocess.run(command, capture_output=True, text=True)
                if run.returncode != 0:
                    lines = run.stderr.strip().splitlines() or [f"exit status {run.returncode}"]
                    status, error = "refused", lines[-1].replace(path + ": ", "")[:120]
                else:
                    got = np.load(os.path.join(work, "output.npy"))
                    span = float(want.max() - want.min()) or 1.0
                    relative = float(np.abs(got.astype(np.float64) - want).max()) / span \
                        if got.shape == want.shape else float("inf")
                    status = "runs" if relative <= args.tolerance else "WRONG"
                    error = f"{relative:.2g}"
                    wrong += status == "WRONG"
            modules = recovery(want_modules, fxc_modules(args.fxc, path))
            print(f"| {name} | {mode} | {nodes} | {status} | {error} | {modules} |", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
