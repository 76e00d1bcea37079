#!/usr/bin/env bash
# Quantized models: accuracy and speed, measured in this one script on this machine.
#
# Accuracy (--accuracy): post-training quantization of full-size networks (random weights,
# BatchNorm statistics randomized by scripts/export_testdata.py --big): fxc quantize with 32
# random calibration samples and MinMax, per preset, per-channel and per-tensor weights; output
# SQNR, cosine similarity and max abs error against the float model on 8 held-out random inputs
# (the Q/DQ model run in float, and its integer run: what fxc run executes; and the integer run
# against the Q/DQ model run in float), and the time the whole
# command takes (load, fold, observe, calibrate, convert, report).
#
# Float64 (--float64): the same QDQ files (per-channel weights, 32 random calibration samples)
# against the QDQ model computed in float64 by PyTorch from `fxc codegen`'s package
# (scripts/qdq_float64.py): fxc's integer run and its two float32 runs of the graph as written
# (reference kernels, oneDNN), SQNR over 4 random inputs. The float32 runs round every sum of a
# convolution to float32 (the QDQ graph's own arithmetic, in an order ONNX leaves open); the
# integer run's accumulators are exact. What "integer vs Q/DQ" above measures is their distance.
#
# Trained (--trained, not part of the default run): trained networks on natural images, as
# random weights cannot show whether quantization keeps a network's function. From npm, weights
# stored as 8-bit per-tensor codes that TensorFlow.js expands to float32: nsfwjs's Keras
# MobileNet-V2 and Inception-v3 (five-class heads) and face-api's FaceRecognitionNet (dlib's
# ResNet-34, a 128-value face embedding), converted to ONNX by scripts/tfjs_to_onnx.py and checked against
# the packages' own TensorFlow.js runs; calibration on 64 crops of scikit-image's photographs,
# measured on 16 crops of other photographs (scripts/natural_inputs.py,
# scripts/trained_quant.py: fxc's report, ONNX Runtime's int8 run of the same QDQ file, the QDQ
# model computed exactly in float64, top-1 agreement); then the speed rows for them.
#
# Speed (--speed): the float model (fxc after its execution pipeline), fxc's int8 run of the QDQ
# model fxc quantize wrote (the pipeline's quant-lower: integer kernels) and ONNX Runtime's run of
# the same QDQ file (npm onnxruntime-node, all graph optimizations: its own QDQ fusions), median
# ms (fxc's with `bench --optimized-only`: the executed graph alone, run after run, as ONNX
# Runtime's session is); per model, preset, batch (1, 8) and threads (1, all). Ratios: fxc int8 over ONNX Runtime
# int8 (with their geometric mean and maximum), fxc int8 over fxc float32.
#   scripts/bench_quant.sh [--accuracy|--float64|--speed|--trained] [--models "resnet18 resnet50 mobilenet_v2"]
#                          [--batches "1 8"] [--runs N]
# Needs torch + torchvision to export the models, npm for ONNX Runtime (not needed by the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
models="resnet18 resnet50 mobilenet_v2"
batches="1 8"
runs=10
parts="accuracy float64 speed"
while [ $# -gt 0 ]; do
  case "$1" in
    --accuracy) parts=accuracy; shift ;;
    --speed) parts=speed; shift ;;
    --float64) parts=float64; shift ;;
    --trained) parts=trained; shift ;;
    --models) models="$2"; shift 2 ;;
    --batches) batches="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: $0 [--accuracy|--float64|--speed|--trained] [--models LIST] [--batches LIST] [--runs N]" >&2
       exit 2 ;;
  esac
done
./scripts/setup.sh torch node  # the models come from torch.onnx; ONNX Runtime from npm
./scripts/build.sh build
python=/usr/bin/python3
[ "$parts" = trained ] && models=""  # the trained model is converted, not exported
for model in $models; do
  [ -f "build/big/$model.onnx" ] ||
    "$python" scripts/export_testdata.py --big build/big --names "$model" >/dev/null
done
. scripts/bench_common.sh  # pinned, field

accuracy() {
  printf '%-13s %-8s %-12s %10s %10s %12s %12s %12s %8s\n' model preset weights "SQNR (dB)" cosine \
    "max abs err" "integer (dB)" "int vs Q/DQ" time
  for model in $models; do
    for preset in trt ort-cpu; do
      for weights in per-channel per-tensor; do
        flag=""
        [ "$weights" = per-tensor ] && flag=--per-tensor
        start=$(date +%s.%N)
        json=$(./build/fxc quantize -q "build/big/$model.onnx" --batch 1 --preset "$preset" \
          --calibration random:32 $flag --format json)
        end=$(date +%s.%N)
        line=$(echo "$json" | "$python" -c '
import json, sys
d = json.load(sys.stdin)
o, i = d["outputs"][0], d["integer"]["outputs"][0]
q = i["sqnr_against_qdq_db"]
print("%.2f %.6f %.4g %.2f %s" % (o["sqnr_db"], o["cosine"], o["max_abs_error"], i["sqnr_db"],
                                  "inf" if q is None else "%.2f" % q))')
        read -r sqnr cosine err integer vs_qdq <<<"$line"
        printf '%-13s %-8s %-12s %10s %10s %12s %12s %12s %7.2fs\n' "$model" "$preset" "$weights" \
          "$sqnr" "$cosine" "$err" "$integer" "$vs_qdq" "$(echo "$end - $start" | awk '{print $1 - $3}')"
      done
    done
  done
}

quantized() {  # the QDQ files of --float64 and --speed, written once
  mkdir -p build/quant
  for model in $models; do
    for preset in trt ort-cpu; do
      [ -f "build/quant/$model.$preset.onnx" ] ||
        ./build/fxc quantize -q "build/big/$model.onnx" --batch 1 --preset "$preset" \
          -o "build/quant/$model.$preset.onnx"
    done
  done
}

float64() {
  quantized
  for model in $models; do
    for preset in trt ort-cpu; do
      printf '%-13s %-8s against float64: %s\n' "$model" "$preset" \
        "$("$python" scripts/qdq_float64.py build/fxc "build/quant/$model.$preset.onnx")"
    done
  done
}

ratios=()
# speed_row NAME PRESET FLOAT.onnx QDQ.onnx BATCH THREADS: one row of the speed table.
speed_row() {
  local name=$1 preset=$2 float=$3 file=$4 batch=$5 threads=$6 fp32 int8 ort_ms ratio
  fp32=$(pinned "$threads" ./build/fxc bench -q "$float" --batch "$batch" --threads "$threads" \
    --runs "$runs" --warmup 2 --optimized-only --format json | field 'fused["median_ms"]' 3)
  int8=$(pinned "$threads" ./build/fxc bench -q "$file" --batch "$batch" --threads "$threads" --runs "$runs" \
    --warmup 2 --optimized-only --format json | field 'fused["median_ms"]' 3)
  ort_ms=$(NODE_PATH=build/ort/node_modules pinned "$threads" node scripts/ort/time.js "$file" "$batch" \
    "$threads" "$runs" | field median_ms 3)
  ratio=$(awk "BEGIN {print $int8 / $ort_ms}")
  ratios+=("$ratio")
  printf '%-13s %-8s %5s %7s | %7.2f ms %7.2f ms %7.2f ms | %7.2fx %8.2fx\n' "$name" \
    "$preset" "$batch" "$threads" "$fp32" "$int8" "$ort_ms" "$ratio" \
    "$(awk "BEGIN {print $int8 / $fp32}")"
}

speed_header() {
  printf '%-13s %-8s %5s %7s | %10s %10s %10s | %8s %9s\n' model preset batch threads \
    "fxc fp32" "fxc int8" "ORT int8" "fxc/ORT" "int8/fp32"
}

speed() {
  ./scripts/ort/install.sh build/ort
  quantized
  speed_header
  ratios=()
  for model in $models; do
    for batch in $batches; do
      for threads in 1 "$(nproc)"; do
        for preset in trt ort-cpu; do
          speed_row "$model" "$preset" "build/big/$model.onnx" "build/quant/$model.$preset.onnx" \
            "$batch" "$threads"
        done
      done
    done
  done
  printf '%s\n' "${ratios[@]}" | awk '{ s += log($1); if ($1 > m) m = $1; n++ }
    END { printf "fxc int8 / ONNX Runtime int8: geometric mean %.2fx, max %.2fx over %d runs\n", exp(s / n), m, n }'
}

trained() {
  ./scripts/setup.sh images
  ./scripts/ort/install.sh build/ort
  local dir=build/trained npm=build/trained/npm
  if [ ! -d "$npm/node_modules/@vladmandic/face-api" ]; then
    mkdir -p "$npm"
    (cd "$npm" && npm install --silent --ignore-scripts nsfwjs@4.4.0 @vladmandic/face-api@1.7.15 \
      @tensorflow/tfjs@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0 >/dev/null)
  fi
  local modules=$npm/node_modules
  # name, kind, input size, weights directory
  local networks=("mobilenet_v2 keras 224 $modules/nsfwjs/dist/models/mobilenet_v2"
                  "faceres faceapi 150 $modules/@vladmandic/face-api/model"
                  "inception_v3 keras 299 $modules/nsfwjs/dist/models/inception_v3")
  for network in "${networks[@]}"; do
    read -r name kind size weights <<<"$network"
    echo "== $name (trained: $kind)"
    "$python" scripts/natural_inputs.py "$dir/$name" "$size"
    NODE_PATH="$modules" node scripts/tfjs_model.js "$kind" "$weights" "$dir/$name" \
      "$dir/$name/test_nhwc.f32" 16 2>/dev/null
    "$python" scripts/tfjs_to_onnx.py "$dir/$name" "$dir/$name.onnx"
    "$python" scripts/trained_quant.py build/fxc "$dir" "$name" build/ort/node_modules
    echo
  done
  speed_header
  for network in "${networks[@]}"; do
    read -r name _ <<<"$network"
    for batch in $batches; do
      for threads in 1 "$(nproc)"; do
        for preset in trt ort-cpu; do
          speed_row "$name*" "$preset" "$dir/$name.onnx" "$dir/$name.$preset.per-channel.onnx" \
            "$batch" "$threads"
        done
      done
    done
  done
  echo "* trained weights: nsfwjs's MobileNet-V2 and Inception-v3, face-api's ResNet-34 (faceres)"
}

for part in $parts; do
  "$part"
  echo
done
