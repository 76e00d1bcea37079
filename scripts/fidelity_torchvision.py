#!/usr/bin/python3
"""Checks fxc's module recovery on torchvision CNNs beyond the committed ones (needs torch).

For each model: export with torch.onnx (opset 13, BatchNorm kept), trace with fxc, and compare
with torch.fx's symbolic_trace of the same model, row by row (name, target, order): the
call_module rows, then the call_function rows (torch.fx's call_method `x.permute` as
`torch.permute`, `_operator.add` as `operator.add`, F.relu as torch.relu). Modules and functions
an ONNX export cannot contain (Dropout, Identity, stochastic_depth: identities in eval mode) are
left out of the reference. Prints one line per model; exit 1 if any differs.

  scripts/fidelity_torchvision.py [MODEL...]      (default: 17 torchvision CNNs)
Needs `scripts/setup.sh torch` (Debian python3-torch, python3-torchvision, python3-onnx).
"""
import os
import subprocess
import sys
import tempfile

import torch
import torchvision
from torch.fx import symbolic_trace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FXC = os.path.join(ROOT, "build", "fxc")
DEFAULT = ["resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v2",
           "mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "squeezenet1_1",
           "shufflenet_v2_x0_5", "mnasnet0_5", "regnet_y_400mf", "densenet121", "vgg11", "alexnet",
           "googlenet", "convnext_tiny"]
INVISIBLE = (torch.nn.Dropout, torch.nn.Identity)
INVISIBLE_FUNCTIONS = {"torchvision.ops.stochastic_depth.stochastic_depth"}
SAME_FUNCTION = {"torch.nn.functional.relu": "torch.relu"}


def function_name(node):
    if node.op == "call_method":
        return "torch." + node.target
    target = node.target
    name = getattr(target, "__module__", "") + "." + getattr(target, "__name__", str(target))
    name = name.replace("_operator.", "operator.", 1)
    return SAME_FUNCTION.get(name, name)


def reference_rows(model):
    """(call_module rows, call_function rows) of torch.fx's trace."""
    gm = symbolic_trace(model)
    modules = dict(gm.named_modules())
    module_rows = [(n.name, n.target) for n in gm.graph.nodes
                   if n.op == "call_module" and not isinstance(modules[n.target], INVISIBLE)]
    function_rows = [(n.name, function_name(n)) for n in gm.graph.nodes
                     if n.op in ("call_function", "call_method") and function_name(n) not in INVISIBLE_FUNCTIONS]
    return module_rows, function_rows


def fxc_rows(path):
    out = subprocess.run([FXC, "trace", path, "--format", "json"], check=True, capture_output=True, text=True).stdout
    import json
    nodes = json.loads(out)["nodes"]
    return ([(n["name"], n["target"]) for n in nodes if n["op"] == "call_module"],
            [(n["name"], n["target"]) for n in nodes if n["op"] == "call_function"])


def difference(kind, want, got):
    """None when equal, else where the rows first differ."""
    if want == got:
        return None
    first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    return (f"{kind}: torch.fx {len(want)} rows, fxc {len(got)}; first difference at row {first}: "
            f"{want[first] if first < len(want) else None} vs {got[first] if first < len(got) else None}")


def main():
    names = sys.argv[1:] or DEFAULT
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            kwargs = {"aux_logits": False, "init_weights": False} if name == "googlenet" else {}
            model = getattr(torchvision.models, name)(**kwargs).eval()
            path = os.path.join(tmp, name + ".onnx")
            with torch.no_grad():
                torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=13,
                                  training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
            try:
                want = reference_rows(model)
            except Exception as error:  # torch.fx's own limits (data-dependent control flow)
                print(f"{name:22s} skip  torch.fx cannot trace it: {type(error).__name__}")
                continue
            got = fxc_rows(path)
            diffs = [d for d in (difference("call_module", want[0], got[0]),
                                 difference("call_function", want[1], got[1])) if d]
            if not diffs:
                print(f"{name:22s} ok    {len(want[0])} call_module and {len(want[1])} call_function rows match torch.fx")
                continue
            failed += 1
            print(f"{name:22s} DIFF  " + "; ".join(diffs))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
