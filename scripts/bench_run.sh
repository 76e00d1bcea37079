#!/usr/bin/env bash
# Inference speed of `fxc run`'s CPU backend against ONNX Runtime (npm onnxruntime-node) and
# PyTorch (Debian python3-torch), measured in this one script on the same machine: resnet18 and
# resnet50 (random weights, from scripts/export_testdata.py --big), batch 1 and 8, one thread and
# all threads. fxc is timed unfused and after `--pass conv-bn --pass conv-add-relu --pass
# conv-relu` (what a deployment runs); ratios are fxc's fused median over ONNX Runtime's (which
# makes the same fusions itself, with all graph optimizations on).
#   scripts/bench_run.sh [--runs N] [--models "resnet18 resnet50"] [--batches "1 8"]
# Needs torch + torchvision (for the models and the PyTorch column) and npm (for ONNX Runtime);
# neither is needed by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20
models="resnet18 resnet50"
batches="1 8"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --batches) batches="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--models LIST] [--batches LIST]" >&2; exit 2 ;;
  esac
done
./scripts/setup.sh torch node  # models and the PyTorch column; ONNX Runtime from npm
./scripts/build.sh build
python=/usr/bin/python3
big=build/big
for model in $models; do
  [ -f "$big/$model.onnx" ] || "$python" scripts/export_testdata.py --big "$big" >/dev/null
done
ort=build/ort
./scripts/ort/install.sh "$ort"
torch_time() {  # MODEL BATCH THREADS RUNS
  "$python" - "$@" <<'PY'
import json, statistics, sys, time
import torch, torchvision
name, batch, threads, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.set_num_threads(threads)
model = getattr(torchvision.models, name)().eval()
x = torch.randn(batch, 3, 224, 224)
ms = []
with torch.inference_mode():
    for k in range(3 + runs):
        t = time.perf_counter()
        model(x)
        if k >= 3:
            ms.append((time.perf_counter() - t) * 1e3)
print(json.dumps({"median_ms": statistics.median(ms), "min_ms": min(ms)}))
PY
}
. scripts/bench_common.sh  # pinned, field

all=$(nproc)
printf '%-9s %5s %7s | %12s %12s | %12s %12s | %8s %8s\n' model batch threads \
  "fxc unfused" "fxc fused" "ORT" "PyTorch" "fxc/ORT" "fxc/PT"
for model in $models; do
  for batch in $batches; do
    for threads in 1 "$all"; do
      fxc_json=$(pinned "$threads" ./build/fxc bench "$big/$model.onnx" --pass conv-bn --pass conv-add-relu \
        --pass conv-relu --batch "$batch" \
        --threads "$threads" --runs "$runs" --warmup 3 --format json 2>/dev/null)
      unfused=$(echo "$fxc_json" | field 'unfused["median_ms"]')
      fused=$(echo "$fxc_json" | field 'fused["median_ms"]')
      ort_ms=$(NODE_PATH="$ort/node_modules" pinned "$threads" node scripts/ort/time.js "$big/$model.onnx" "$batch" "$threads" "$runs" | field median_ms)
      torch_ms=$(OMP_NUM_THREADS=$threads pinned "$threads" torch_time "$model" "$batch" "$threads" "$runs" | field median_ms)
      printf '%-9s %5s %7s | %9s ms %9s ms | %9s ms %9s ms | %7.2fx %7.2fx\n' "$model" "$batch" \
        "$threads" "$unfused" "$fused" "$ort_ms" "$torch_ms" \
        "$(awk "BEGIN {print $fused / $ort_ms}")" "$(awk "BEGIN {print $fused / $torch_ms}")"
    done
  done
done
