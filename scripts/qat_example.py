#!/usr/bin/python3
"""The founding document's workflow, end to end: trace, rewrite, calibrate, fine-tune, deploy.

    scripts/qat_example.py FXC MODEL WORK_DIR [--steps N]

1. `fxc quantize MODEL --qat --codegen WORK_DIR/qat` writes the fake-quantized model as a PyTorch
   package: torch.ao.quantization.FakeQuantize modules initialized from fxc's calibration.
2. PyTorch fine-tunes it for a few steps on synthetic data (seeded random inputs; the float
   model's outputs, run by fxc, as targets), its observers following the ranges.
3. torch.onnx exports the result (FakeQuantize → QuantizeLinear/DequantizeLinear).
4. `fxc quantize --convert` folds the weights to int8 and `fxc run` runs it; its outputs are
   compared with the fine-tuned PyTorch module's (SQNR, printed; the script fails below 25 dB).
Needs Debian's python3-torch and python3-numpy only.
"""
import argparse
import importlib
import os
import re
import subprocess
import sys

import numpy
import torch


def run(*command):
    subprocess.run([str(c) for c in command], check=True, stdout=subprocess.DEVNULL)


def npy(directory, name):
    return os.path.join(directory, re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".npy")


def sqnr(want, got):
    noise = float(((want - got) ** 2).sum())
    return float("inf") if noise == 0 else 10 * numpy.log10(float((want ** 2).sum()) / noise)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fxc")
    parser.add_argument("model")
    parser.add_argument("work")
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)

    # 1. Calibrate and write the QAT model as PyTorch.
    qat_onnx = os.path.join(work, "qat.onnx")
    run(args.fxc, "quantize", "-q", args.model, "--qat", "--calibration", "random:16",
        "--codegen", os.path.join(work, "qat"), "--force", "-o", qat_onnx)
    sys.path.insert(0, work)
    module = importlib.import_module("qat").load()
    fx = sys.modules["qat.module"].FxModule

    # Synthetic data: seeded inputs drawn by fxc, the float model's outputs as targets.
    data, targets = os.path.join(work, "data"), os.path.join(work, "targets")
    run(args.fxc, "run", "-q", args.model, "--batch", "8", "--seed", "7", "--save-inputs", data,
        "--output-dir", targets)
    inputs = [torch.from_numpy(numpy.load(npy(data, n))) for n in fx.onnx_inputs]
    wanted = [torch.from_numpy(numpy.load(npy(targets, n))) for n in fx.onnx_outputs]

    # The package computes what fxc's QAT model computes as written (-O0: float fake
    # quantization, not the integer arithmetic fxc run lowers Q/DQ to), observers off.
    module.apply(torch.ao.quantization.disable_observer)
    before = os.path.join(work, "qat_outputs")
    command = [args.fxc, "run", "-q", "-O0", qat_onnx, "--batch", "8", "--output-dir", before]
    for name in fx.onnx_inputs:
        command += ["--input", f"{name}={npy(data, name)}"]
    run(*command)
    with torch.no_grad():
        outputs = module(*inputs)
    for name, got in zip(fx.onnx_outputs, outputs if isinstance(outputs, tuple) else (outputs,)):
        want = numpy.load(npy(before, name))
        error = float(numpy.abs(got.numpy() - want).max())
        scale = float(numpy.abs(want).max())
        print(f"{name}: the package against fxc run of the QAT model: max error {error:.2e} "
              f"of {scale:.2e}")
        if error > 1e-5 * scale:
            return 1
    module.apply(torch.ao.quantization.enable_observer)
    start = [p.detach().clone() for p in module.parameters()]

    # 2. Fine-tune: observers on, fake quantization on, gradients through the straight-through
    # estimator into the float weights.
    module.train()
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-4)

    def loss_of():
        outputs = module(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        return sum(torch.nn.functional.mse_loss(o, w) for o, w in zip(outputs, wanted))

    for step in range(args.steps):
        optimizer.zero_grad()
        loss = loss_of()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4e}")

    moved = max(float((p.detach() - s).abs().max()) for p, s in zip(module.parameters(), start))
    print(f"fine-tuned: weights moved by up to {moved:.2e}")
    if not moved > 0:
        return 1

    # 3. Export. ONNX's int8 Q/DQ range is [-128, 127]: the weights' symmetric scales keep them
    # within ±127 steps, so the narrow range of the calibration is unchanged in effect.
    module.eval()
    module.apply(torch.ao.quantization.disable_observer)
    for fake in module.modules():
        if isinstance(fake, torch.ao.quantization.FakeQuantize) and fake.quant_min == -127:
            fake.quant_min = fake.activation_post_process.quant_min = -128
    with torch.no_grad():
        tuned = module(*inputs)
    tuned = [t.numpy() for t in (tuned if isinstance(tuned, tuple) else (tuned,))]
    exported = os.path.join(work, "finetuned.onnx")
    torch.onnx.export(module, tuple(inputs), exported, opset_version=13,
                      input_names=list(fx.onnx_inputs), output_names=list(fx.onnx_outputs))

    # 4. Deploy: int8 weights, run by fxc.
    int8 = os.path.join(work, "finetuned.int8.onnx")
    run(args.fxc, "quantize", "-q", exported, "--convert", "-o", int8)
    outputs = os.path.join(work, "int8_outputs")
    command = [args.fxc, "run", "-q", int8, "--output-dir", outputs]
    for name in fx.onnx_inputs:
        command += ["--input", f"{name}={npy(data, name)}"]
    run(*command)
    worst = float("inf")
    for name, want in zip(fx.onnx_outputs, tuned):
        got = numpy.load(npy(outputs, name))
        db = sqnr(want, got)
        worst = min(worst, db)
        print(f"{name}: fxc run of the int8 model against the fine-tuned PyTorch module: "
              f"SQNR {db:.1f} dB")
    return 0 if worst >= 25 else 1


if __name__ == "__main__":
    sys.exit(main())
