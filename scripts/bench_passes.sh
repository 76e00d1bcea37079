#!/usr/bin/env bash
# How fast passes and export are: `fxc fuse --pass conv-bn --pass dce -o out.onnx` on resnet50
# (exported by scripts/export_testdata.py when torch is installed) against `cp` of the same file
# in the same run (target: within 6x), and conv-bn + dce + export on synthetic graphs of 100k
# and 1M nodes (linear growth: the 1M/100k ratio should stay near 10). Best of 3 runs.
#   scripts/bench_passes.sh [--quick]        --quick: skip the 1M-node graph
#   scripts/bench_passes.sh --simplify DIR   node counts after `--pass simplify` on every model in
#                                            DIR (scripts/zoo.py writes build/zoo) against ONNX
#                                            Runtime's basic level, and the outputs compared
if [ "${1:-}" = "--simplify" ]; then
  dir=${2:?usage: bench_passes.sh --simplify DIR}
  cd "$(dirname "$0")/.."
  ./scripts/setup.sh node
  ./scripts/build.sh build
  mkdir -p build/ort
  [ -d build/ort/node_modules/onnxruntime-node ] ||
    (cd build/ort && npm install --ignore-scripts --silent onnxruntime-node >/dev/null)
  cat >build/ort/optimize.js <<'JS'
const ort = require('onnxruntime-node');
ort.env.logLevel = 'error';
ort.InferenceSession.create(process.argv[2], {graphOptimizationLevel: 'basic', optimizedModelFilePath: process.argv[3]})
  .catch(e => { console.log('ERROR ' + e.message.split('\n')[0]); process.exit(1); });
JS
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  # Ops of a model as fxc counts them: calls, with Constant nodes as the tensors they are.
  ops() { ./build/fxc trace -q --no-recognize "$1" | grep -cE '^call_(function|module) ' ; }
  echo "| model | ops | fxc simplify | ONNX Runtime basic | simplify / ORT | outputs (fxc compare) |"
  echo "| --- | ---: | ---: | ---: | ---: | --- |"
  for f in "$dir"/*.onnx; do
    name=$(basename "$f" .onnx)
    ./build/fxc fuse -q "$f" --pass simplify -o "$out/s.onnx" --check || { echo "| $name | simplify failed |"; continue; }
    node build/ort/optimize.js "$f" "$out/ort.onnx" >/dev/null || { echo "| $name | ONNX Runtime failed |"; continue; }
    a=$(ops "$f"); b=$(ops "$out/s.onnx"); c=$(ops "$out/ort.onnx")
    # Equal within 1e-5 + 1e-4·|y| element by element; folding a BatchNorm rounds the weights
    # differently, which a deep network's large outputs can show beyond that: then the SQNR says
    # whether it is rounding (above 100 dB) or a different function.
    verdict=$(./build/fxc compare -q "$f" "$out/s.onnx" --format json 2>/dev/null |
      /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin); db = min(o["sqnr_db"] for o in d["outputs"])
print("equal" if d["within"] else ("rounding, SQNR %.0f dB" if db >= 100 else "DIFFER, SQNR %.1f dB") % db)' ||
      echo "compare failed")
    printf "| %s | %s | %s | %s | %.2f | %s |\n" "$name" "$a" "$b" "$c" "$(awk "BEGIN{print $b / $c}")" "$verdict"
  done
  exit 0
fi
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh  # resnet50 needs `scripts/setup.sh torch` (skipped without it)
./scripts/build.sh build
dir=build/bench
mkdir -p "$dir"
sizes=(100000 1000000)
[ "${1:-}" = "--quick" ] && sizes=(100000)
for n in "${sizes[@]}"; do
  [ -f "$dir/dag_$n.onnx" ] || ./build/fxc-make-synthetic dag "$n" "$dir/dag_$n.onnx"
done
if [ ! -f "$dir/resnet50.onnx" ] && /usr/bin/python3 -c "import torch, torchvision" 2>/dev/null; then
  ./scripts/export_testdata.py --big "$dir" >/dev/null 2>&1 || true
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

best_seconds() {
  local best="" start end t
  for _ in 1 2 3; do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    t=$((end - start))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  awk "BEGIN{printf \"%.3f\", $best / 1e9}"
}

echo "| model | nodes | cp (s) | fuse conv-bn + dce -o (s) | ratio |"
echo "| --- | ---: | ---: | ---: | ---: |"
declare -A fuse
for f in "$dir"/resnet50.onnx "${sizes[@]/#/$dir/dag_}"; do
  f=${f%.onnx}.onnx
  [ -f "$f" ] || continue
  cat "$f" >/dev/null
  c=$(best_seconds cp "$f" "$out/copy.onnx")
  t=$(best_seconds ./build/fxc fuse -q "$f" --pass conv-bn --pass dce -o "$out/fused.onnx")
  nodes=$(./build/fxc lint "$f" | sed 's/.*(\([0-9]*\) nodes)/\1/')
  fuse[$(basename "$f" .onnx)]=$t
  printf "| %s | %s | %s | %s | %.1fx |\n" "$(basename "$f" .onnx)" "$nodes" "$c" "$t" "$(awk "BEGIN{print $t / $c}")"
done
if [ -n "${fuse[dag_1000000]:-}" ]; then
  echo
  echo "dag: 1M/100k time ratio $(awk "BEGIN{printf \"%.1f\", ${fuse[dag_1000000]} / ${fuse[dag_100000]}}")"
fi
