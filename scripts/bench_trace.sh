#!/usr/bin/env bash
# How fast fxc traces: synthetic chains and DAGs of 10k, 100k and 1M nodes, and resnet50
# (~100 MB, exported by scripts/export_testdata.py when torch is installed). For each model,
# the best of 5 runs of `fxc trace --print-tabular` and `fxc trace --code` (output to
# /dev/null), and the peak memory; for resnet50 also `cat model > /dev/null` in the same run, the
# baseline fxc is held to (target: within 4x). Prints a Markdown table.
#   scripts/bench_trace.sh [--quick]        --quick: skip the 1M-node graphs
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh  # resnet50 needs `scripts/setup.sh torch` (skipped without it)
command -v /usr/bin/time >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -qq time >/dev/null; }
./scripts/build.sh build
dir=build/bench
mkdir -p "$dir"
sizes=(10000 100000 1000000)
[ "${1:-}" = "--quick" ] && sizes=(10000 100000)
for kind in chain dag; do
  for n in "${sizes[@]}"; do
    [ -f "$dir/${kind}_$n.onnx" ] || ./build/fxc-make-synthetic "$kind" "$n" "$dir/${kind}_$n.onnx"
  done
done
if [ ! -f "$dir/resnet50.onnx" ] && /usr/bin/python3 -c "import torch, torchvision" 2>/dev/null; then
  ./scripts/export_testdata.py --big "$dir" >/dev/null 2>&1 || true
fi

# peak_mb CMD...: peak resident memory of one run, in MB.
peak_mb() {
  local out
  out=$(mktemp)
  /usr/bin/time -f "%M" -o "$out" "$@" >/dev/null 2>&1
  echo $(( $(tail -1 "$out") / 1024 ))
  rm -f "$out"
}
# best_seconds CMD...: the lowest wall time of 5 runs, in seconds.
best_seconds() {
  local best="" start end t
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    t=$(( end - start ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  awk "BEGIN{printf \"%.4f\", $best / 1e9}"
}

echo "| model | nodes | file (MB) | trace --print-tabular (s) | trace --code (s) | peak memory (MB) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
declare -A tabular
for kind in chain dag; do
  for n in "${sizes[@]}"; do
    f="$dir/${kind}_$n.onnx"
    t=$(best_seconds ./build/fxc trace "$f" --print-tabular)
    p=$(peak_mb ./build/fxc trace "$f" --print-tabular)
    c=$(best_seconds ./build/fxc trace "$f" --code)
    tabular[$kind$n]=$t
    printf "| %s | %d | %.1f | %s | %s | %d |\n" "$kind" "$n" "$(awk "BEGIN{print $(stat -c %s "$f") / 1e6}")" "$t" "$c" "$p"
  done
done
if [ -f "$dir/resnet50.onnx" ]; then
  f="$dir/resnet50.onnx"
  cat "$f" >/dev/null  # warm the page cache for both
  t=$(best_seconds ./build/fxc trace "$f" --print-tabular)
  p=$(peak_mb ./build/fxc trace "$f" --print-tabular)
  c=$(best_seconds ./build/fxc trace "$f" --code)
  nodes=$(./build/fxc trace "$f" --format json | grep -c '"op":')
  printf "| resnet50 | %d | %.1f | %s | %s | %d |\n" "$nodes" "$(awk "BEGIN{print $(stat -c %s "$f") / 1e6}")" "$t" "$c" "$p"
  catt=$(best_seconds sh -c "cat '$f' > /dev/null")
  echo
  echo "resnet50: cat model > /dev/null ${catt} s; fxc trace --print-tabular ${t} s: $(awk "BEGIN{printf \"%.2f\", $t / $catt}")x cat (target <= 4x)"
else
  echo
  echo "resnet50: skipped (needs python3-torch and python3-torchvision to export it)"
fi
if [ -n "${tabular[chain1000000]:-}" ]; then
  for kind in chain dag; do
    echo "$kind: 1M/100k time ratio $(awk "BEGIN{printf \"%.1f\", ${tabular[${kind}1000000]} / ${tabular[${kind}100000]}}") (target <= 12); 1M nodes in ${tabular[${kind}1000000]} s (target < 5 s)"
  done
fi
