#!/usr/bin/env python3
"""Post-training quantization of a trained network on natural images (scripts/bench_quant.sh
--trained): a network with trained weights from npm, converted by scripts/tfjs_to_onnx.py,
calibrated on 64 crops of photographs and measured on 16 crops of other photographs.

First the conversion itself is checked against TensorFlow.js's run of the original model (no fxc
or ONNX code; fails past 1e-5 of the logits' range). Then per preset and weight granularity:
`fxc quantize` (MinMax) writes the QDQ model and reports, on the held-out crops, the SQNR in dB of
the Q/DQ model run in float and of its integer run (what `fxc run` executes) against the float
model, and of the integer run against the Q/DQ model (written with --min-sqnr 0: fxc's default of
10 dB refuses the per-tensor models). Independently of fxc's report, ONNX
Runtime runs the same QDQ file (its own int8 fusions) and fxc's integer run is compared with it;
The exact QDQ model is scripts/qdq_float64.py's: the same file computed in float64 by PyTorch from
`fxc codegen`'s package, on the same held-out crops; "float32 Q/DQ" is fxc's float32 run of the
file as written (oneDNN), the run "integer vs Q/DQ" compares with. "top-1" counts the held-out crops whose highest logit is the float model's class (for a
classifier; for an embedding it only says which component is largest).

  trained_quant.py FXC DIR NAME ORT_NODE_MODULES
DIR/NAME.onnx the converted model; DIR/NAME/ the inputs and TensorFlow.js's outputs (bench_quant.sh)
"""
import glob
import json
import os
import subprocess
import sys

import numpy as np


def sqnr(ref, got):
    noise = np.sum((ref.astype(np.float64) - got) ** 2)
    return float("inf") if noise == 0 else 10 * np.log10(np.sum(ref.astype(np.float64) ** 2) / noise)


def main(fxc, top, name, ort_modules):
    model = f"{top}/{name}.onnx"
    root = f"{top}/{name}"
    images = f"{root}/images"
    tests = sorted(glob.glob(f"{images}/test_*.npy"))
    batch = np.concatenate([np.load(f) for f in tests])
    np.save(f"{root}/test_nchw.npy", batch)
    batch.tofile(f"{root}/test_nchw.f32")
    dims = ",".join(map(str, batch.shape))

    def fxc_run(path):
        out = f"{root}/out"
        subprocess.run([fxc, "run", "-q", path, "--input", f"input={root}/test_nchw.npy",
                        "--output-dir", out], check=True, stdout=subprocess.DEVNULL)
        return np.load(f"{out}/logits.npy")

    def ort_run(path):
        subprocess.run(["node", "scripts/ort/run.js", path, f"{root}/test_nchw.f32", dims,
                        f"{root}/ort.f32"], check=True, env=dict(os.environ, NODE_PATH=ort_modules))
        return np.fromfile(f"{root}/ort.f32", dtype=np.float32).reshape(len(tests), -1)

    float_logits = fxc_run(model)
    tfjs = np.fromfile(f"{root}/tfjs_logits.f32", dtype=np.float32).reshape(
        float_logits.shape)
    error = np.abs(float_logits - tfjs).max() / np.abs(tfjs).max()
    print(f"conversion: fxc's float run against TensorFlow.js's run of the original model, max abs "
          f"error / range {error:.2g} over {len(tests)} held-out crops")
    if not error <= 1e-5:
        sys.exit("trained_quant.py: the converted model does not compute the original's logits")
    top1 = float_logits.argmax(1)

    def exact(qdq):  # SQNR of fxc's integer and float32 (oneDNN) runs against float64
        line = subprocess.run([sys.executable, "scripts/qdq_float64.py", fxc, qdq, "--input",
                               f"{root}/test_nchw.npy"], check=True, capture_output=True,
                              text=True).stdout
        values = dict(part.strip().split(": ") for part in line.strip().split(";"))
        return float(values["integer"].split()[0]), float(values["float32 oneDNN"].split()[0])

    print(f"{'preset':8} {'weights':12} {'Q/DQ vs float':>14} {'integer vs float':>17} "
          f"{'ORT int8 vs float':>18} {'integer vs Q/DQ':>16} {'integer vs ORT':>15} "
          f"{'integer vs exact':>17} {'Q/DQ vs exact':>14} {'top-1 (fxc / ORT)':>18}")
    for preset in ("trt", "ort-cpu"):
        for weights in ("per-channel", "per-tensor"):
            qdq = f"{top}/{name}.{preset}.{weights}.onnx"
            flag = ["--per-tensor"] if weights == "per-tensor" else []
            report = json.loads(subprocess.run(
                [fxc, "quantize", "-q", model, "--batch", "1", "--preset", preset, *flag,
                 "--calibration", images, "--holdout", str(len(tests)), "--format", "json",
                 "--min-sqnr", "0", "-o", qdq], check=True, capture_output=True, text=True).stdout)
            o, i = report["outputs"][0], report["integer"]["outputs"][0]
            integer, ort_int8 = fxc_run(qdq), ort_run(qdq)
            integer_exact, qdq_exact = exact(qdq)
            print(f"{preset:8} {weights:12} {o['sqnr_db']:11.2f} dB {i['sqnr_db']:14.2f} dB "
                  f"{sqnr(float_logits, ort_int8):15.2f} dB {i['sqnr_against_qdq_db']:13.2f} dB "
                  f"{sqnr(ort_int8, integer):12.2f} dB {integer_exact:14.2f} dB "
                  f"{qdq_exact:11.2f} dB "
                  f"{(integer.argmax(1) == top1).sum():>9} / {(ort_int8.argmax(1) == top1).sum()} "
                  f"of {len(tests)}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
