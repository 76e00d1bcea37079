#!/usr/bin/env python3
"""A QDQ model's runs against the same QDQ model computed in float64.

fxc's integer run of a QDQ model (`fxc run`, quant-lower's integer kernels) and its float32 runs
of the graph as written (`-O0`: the reference kernels, and oneDNN's) are each compared with the
QDQ graph computed in float64 by PyTorch, from the package `fxc codegen` writes (QuantizeLinear
and DequantizeLinear as their arithmetic in onnx_ops.py, the module cast to double): an oracle
that shares no kernel with fxc, and whose convolutions do not round their sums to float32.
Prints one line: SQNR in dB of each run against float64, the mean over the inputs.

  qdq_float64.py FXC MODEL.onnx [--inputs N] [--batch B] [--input FILE.npy]
--input: one run on the samples in FILE (the model's one input, a batch) instead of N random ones.

Needs torch (Debian's python3-torch) and numpy.
"""
import argparse
import importlib
import os
import sys
import tempfile

import numpy as np
import torch

from qat_example import npy, run, sqnr  # fxc's .npy names, a quiet checked command, SQNR


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fxc")
    parser.add_argument("model")
    parser.add_argument("--inputs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--input", help="a .npy of samples for the model's one input")
    args = parser.parse_args()
    runs = {"integer": [], "float32 reference": [], "float32 oneDNN": []}
    with tempfile.TemporaryDirectory() as work:
        package = os.path.join(work, "qdq_package")
        run(args.fxc, "codegen", args.model, "-o", package, "-q")
        sys.path.insert(0, work)
        module = importlib.import_module("qdq_package").load().double().eval()
        for seed in range(1, 2 if args.input else args.inputs + 1):
            feed = (["--input", f"{module.onnx_inputs[0]}={args.input}"] if args.input else
                    ["--batch", str(args.batch), "--seed", str(seed)])
            common = [args.fxc, "run", args.model, *feed, "-q"]
            inputs = os.path.join(work, f"in{seed}")
            dirs = {name: os.path.join(work, f"{k}_{seed}") for k, name in enumerate(runs)}
            run(*common, "--save-inputs", inputs, "--output-dir", dirs["integer"])
            run(*common, "-O0", "--backend", "reference", "--output-dir", dirs["float32 reference"])
            run(*common, "-O0", "--output-dir", dirs["float32 oneDNN"])
            feeds = [torch.from_numpy(np.load(npy(inputs, name))).double()
                     for name in module.onnx_inputs]
            with torch.inference_mode():
                want = module(*feeds)
            if isinstance(want, torch.Tensor):
                want = (want,)
            for name, run_dir in dirs.items():
                values = [sqnr(w.numpy(), np.load(npy(run_dir, out)).astype(np.float64))
                          for w, out in zip(want, module.onnx_outputs)]
                runs[name].append(min(values))
    print(" ".join(f"{name}: {np.mean(v):.2f} dB;" for name, v in runs.items()).rstrip(";"))


if __name__ == "__main__":
    main()
