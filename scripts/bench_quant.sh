#!/usr/bin/env bash
# Post-training quantization accuracy on full-size networks (random weights, BatchNorm statistics
# randomized by scripts/export_testdata.py --big): fxc quantize with 32 random calibration samples
# and MinMax, per preset, per-channel and per-tensor weights; output SQNR, cosine similarity and max
# abs error against the float model on 8 held-out random inputs, and the time the whole command
# takes (load, fold, observe, calibrate, convert, report).
#   scripts/bench_quant.sh [--models "resnet18 mobilenet_v2"]
# Needs torch + torchvision to export the models (not needed by the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
models="resnet18 mobilenet_v2"
[ "${1:-}" = "--models" ] && models="$2"
./scripts/setup.sh torch  # the models come from torch.onnx; JSON is read with python3
./scripts/build.sh build
for model in $models; do
  [ -f "build/big/$model.onnx" ] || /usr/bin/python3 scripts/export_testdata.py --big build/big >/dev/null
done
printf '%-13s %-8s %-12s %10s %10s %12s %8s\n' model preset weights "SQNR (dB)" cosine "max abs err" time
for model in $models; do
  for preset in trt ort-cpu; do
    for weights in per-channel per-tensor; do
      flag=""
      [ "$weights" = per-tensor ] && flag=--per-tensor
      start=$(date +%s.%N)
      json=$(./build/fxc quantize -q "build/big/$model.onnx" --batch 1 --preset "$preset" \
        --calibration random:32 $flag --format json)
      end=$(date +%s.%N)
      line=$(echo "$json" | /usr/bin/python3 -c '
import json, sys
o = json.load(sys.stdin)["outputs"][0]
print("%.2f %.6f %.4g" % (o["sqnr_db"], o["cosine"], o["max_abs_error"]))')
      read -r sqnr cosine err <<<"$line"
      printf '%-13s %-8s %-12s %10s %10s %12s %7.2fs\n' "$model" "$preset" "$weights" "$sqnr" \
        "$cosine" "$err" "$(echo "$end - $start" | awk '{print $1 - $3}')"
    done
  done
done
