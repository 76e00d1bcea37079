#!/usr/bin/env bash
# fxc against ONNX Runtime and PyTorch eager on the model zoo (scripts/zoo.py's torch.onnx default
# exports, build/zoo/NAME.fold.onnx, and at batch 8 NAME.fold.b8.onnx): the classification families
# and the transformer stacks, batch 1 and 8, one thread and all threads, all in this one script on
# this machine. fxc runs after its
# default execution pipeline (`fxc bench --optimized-only`: that graph alone, run after run, as
# ONNX Runtime's session is; until session 16 the "fused" runs alternated with runs of the graph
# as written, which evicted their caches), ONNX Runtime 1.30
# (npm onnxruntime-node) with all graph optimizations, PyTorch in eager mode on the zoo's own
# module (same random weights as the export). Prints one row per model and thread count with the
# medians, fxc/ORT and fxc/PyTorch, and the peak resident memory of a process that loads the model
# and runs it once for each (fxc run; node with ONNX Runtime; python with torch: each includes
# its runtime's own footprint); then the geometric mean of fxc/ORT per batch and thread count.
# The exports have a fixed batch, so each batch is its own export (zoo.py --batch 8). PyTorch runs
# --torch-runs times (default 3): Debian's eager torch is 10-40x slower than the others here;
# --no-torch leaves its columns out (at batch 8 its transformers take minutes a run).
# fxc and ONNX Runtime each time at least --runs runs (default 10) and at least --seconds seconds
# (default 1) after 3 warm-ups: a 0.1 ms model's median is then one of thousands of runs, not of
# ten. One-thread rows run on CPU 0 (bench_common.sh's `pinned`). Each row is --rounds (default 2)
# such timings of each side, in the order fxc, ORT, ORT, fxc, ..., averaged: the machine's speed
# drifts by a quarter within minutes, and one side timed after the other took the drift as a ratio.
#   scripts/bench_zoo.sh [--runs N] [--seconds S] [--rounds N] [--torch-runs N | --no-torch]
#                        [--models "vit_b_16 swin_t ..."]
#                        [--threads "1 N"] [--batches "1 8"]
# Needs torch + torchvision (zoo.py, the PyTorch column) and npm (ONNX Runtime); not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10
seconds=1
rounds=2
torch_runs=3
with_torch=1
batches="1 8"
all=$(nproc)
threads_list="1 $all"
models="resnet18 resnext50_32x4d wide_resnet50_2 mobilenet_v2 mobilenet_v3_large efficientnet_b0
efficientnet_v2_s regnet_y_400mf mnasnet0_5 shufflenet_v2_x0_5 squeezenet1_1 densenet121 googlenet
inception_v3 convnext_tiny vit_b_16 swin_t transformer_encoder transformer_encoder_norm_first
transformer_decoder transformer_decoder_norm_first transformer_encoder_long yolov8n_like
lraspp_mobilenet_v3_large deeplabv3_mobilenet_v3_large fcn_resnet50"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --torch-runs) torch_runs="$2"; shift 2 ;;
    --no-torch) with_torch=0; shift ;;
    --batches) batches="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --threads) threads_list="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--seconds S] [--rounds N] [--torch-runs N | --no-torch] [--models LIST] [--threads LIST] [--batches LIST]" >&2
       exit 2 ;;
  esac
done
./scripts/setup.sh torch node
./scripts/build.sh build
python=/usr/bin/python3
zoo=build/zoo
file_of() { [ "$2" = 1 ] && echo "$zoo/$1.fold.onnx" || echo "$zoo/$1.fold.b$2.onnx"; }  # MODEL BATCH
for model in $models; do
  for batch in $batches; do
    [ -f "$(file_of "$model" "$batch")" ] ||
      "$python" scripts/zoo.py --only "$model" --modes fold --batch "$batch" >/dev/null
  done
done
ort=build/ort
./scripts/ort/install.sh "$ort"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/torch_time.py" <<'PY'
import json, statistics, sys, time
import warnings
warnings.filterwarnings("ignore")  # torchvision's notes on weight initialization
sys.path.insert(0, "scripts")  # run from the repository root
import torch
import zoo
name, threads, runs, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.set_num_threads(threads)
model, inputs = zoo.MODELS[name]()
inputs = zoo.batched(name, inputs, batch)
model.eval()
ms = []
with torch.inference_mode():
    for k in range(1 + runs):
        t = time.perf_counter()
        model(*inputs)
        if k >= 1:
            ms.append((time.perf_counter() - t) * 1e3)
print(json.dumps({"median_ms": statistics.median(ms), "min_ms": min(ms)}))
PY
. scripts/bench_common.sh  # pinned, field
peak_mb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1 / 1024}'; }

printf '%-31s %5s %3s | %10s %10s %10s | %7s %7s | %8s %8s %8s\n' model batch thr "fxc ms" "ORT ms" \
  "PyTorch" "fxc/ORT" "fxc/PT" "fxc MB" "ORT MB" "PT MB"
# One timing of the current row ($file, $batch, $threads) by each side: its median in ms.
fxc_time() {
  pinned "$threads" ./build/fxc bench -q "$file" --threads "$threads" --runs "$runs" \
    --duration "$seconds" --warmup 3 --optimized-only --format json | field 'fused["median_ms"]' 4
}
ort_time() {
  NODE_PATH="$ort/node_modules" pinned "$threads" node scripts/ort/time.js "$file" "$batch" \
    "$threads" "$runs" "$seconds" | field median_ms 4
}
declare -A logsum=() count=()
for model in $models; do
  for batch in $batches; do
    file=$(file_of "$model" "$batch")
    for threads in $threads_list; do
      # Rounds in the order fxc, ORT, ORT, fxc, ...: the mean of each side's medians cancels a
      # drift of the machine's speed that is linear over the row.
      declare -A sum=([fxc]=0 [ort]=0)
      for ((round = 0; round < rounds; round++)); do
        sides="fxc ort"
        ((round % 2 == 0)) || sides="ort fxc"
        for side in $sides; do
          ms=$("${side}_time")
          sum[$side]=$(awk "BEGIN {print ${sum[$side]} + $ms}")
        done
      done
      # Three decimals: the transformer layers take 0.1 ms, and the ratio is of these values.
      fxc_ms=$(awk "BEGIN {printf \"%.3f\", ${sum[fxc]} / $rounds}")
      ort_ms=$(awk "BEGIN {printf \"%.3f\", ${sum[ort]} / $rounds}")
      torch_ms=- torch_mb=- torch_ratio=-
      if [ "$with_torch" = 1 ]; then
        torch_ms=$(OMP_NUM_THREADS=$threads pinned "$threads" "$python" "$work/torch_time.py" \
          "$model" "$threads" "$torch_runs" "$batch" | field median_ms)
        torch_mb=$(OMP_NUM_THREADS=$threads peak_mb "$python" "$work/torch_time.py" "$model" \
          "$threads" 1 "$batch")
        torch_ratio=$(awk "BEGIN {printf \"%.2fx\", $fxc_ms / $torch_ms}")
      fi
      fxc_mb=$(peak_mb ./build/fxc run -q "$file" --threads "$threads")
      ort_mb=$(NODE_PATH="$ort/node_modules" peak_mb node scripts/ort/time.js "$file" "$batch" \
        "$threads" 1)
      ratio=$(awk "BEGIN {print $fxc_ms / $ort_ms}")
      printf '%-31s %5s %3s | %10s %10s %10s | %6.2fx %7s | %8s %8s %8s\n' "$model" "$batch" \
        "$threads" "$fxc_ms" "$ort_ms" "$torch_ms" "$ratio" "$torch_ratio" \
        "$fxc_mb" "$ort_mb" "$torch_mb"
      key="$batch/$threads"
      logsum[$key]=$(awk "BEGIN {print ${logsum[$key]:-0} + log($ratio)}")
      count[$key]=$(( ${count[$key]:-0} + 1 ))
    done
  done
done
for batch in $batches; do
  for threads in $threads_list; do
    key="$batch/$threads"
    echo "geometric mean fxc/ORT, batch $batch, $threads thread(s): $(awk "BEGIN {printf \"%.2f\", exp(${logsum[$key]} / ${count[$key]})}")x over ${count[$key]} models"
  done
done
