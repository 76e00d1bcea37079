#!/usr/bin/env bash
# Coverage-guided fuzzing of fxc's entry points (test/fuzz/README.md): builds the libFuzzer
# harnesses with clang, AddressSanitizer and UBSan in build-fuzz/, runs each for SECONDS (default
# 60) with ONNX's and fxc's test files as seeds, and reports executions, coverage, corpus size and
# what it found. Limits per input: 2 s, 2 GB. Crashes are kept in build-fuzz/artifacts/NAME/;
# copy each into test/fuzz/regressions/NAME/ once fixed, and ctest replays it forever after.
#   scripts/fuzz.sh [--runs N] [SECONDS] [HARNESS...]   (harnesses: model passes quantize npy options)
# --runs N ends a harness's run after N executions too (whichever comes first: the target of
# 10^6 executions without a finding is `scripts/fuzz.sh --runs 1000000 7200`).
# Exit 1 when a harness found a crash, leak, sanitizer report, timeout or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=-1
if [ "${1:-}" = --runs ]; then
  runs=$2
  shift 2
fi
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(model passes quantize npy options)
./scripts/setup.sh fuzz
build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DFXC_FUZZ=ON -DFXC_CUDNN=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
targets=()
for name in "${harnesses[@]}"; do targets+=("fxc-fuzz-$name"); done
ninja -C "$build" -j"$(nproc)" "${targets[@]}" >/dev/null

node_tests=/usr/share/libonnx-testdata/data
# Seeds: every model fxc's tests use and ONNX's node tests' models (model harnesses); the .npy
# files of the calibration tests and ONNX's test data as .npy where fxc wrote them (npy).
seeds_for() {
  case "$1" in
    model | passes | quantize) echo testdata/models "$node_tests/node" "$node_tests/pytorch-converted" ;;
    npy) echo testdata/calibration test/fuzz/regressions/npy ;;
    options) echo test/fuzz/seeds/options ;;
  esac
}
dict_for() {
  case "$1" in
    model | passes | quantize) echo test/fuzz/onnx.dict ;;
    npy) echo test/fuzz/npy.dict ;;
    options) echo "" ;;
  esac
}
# Only the model files of ONNX's test folders (not their .pb test data).
seed_files() {
  for dir in "$@"; do
    [ -e "$dir" ] || continue
    find "$dir" -type f \( -name '*.onnx' -o -name '*.npy' -o -path '*/seeds/*' -o -path '*/regressions/*' \)
  done
}

# ASan's quarantine (freed memory held back to catch use after free) at 16 MB instead of 256: on
# these VMs recycling the large one stalled a harness past the 2 s limit now and then (inputs that
# replay in 1-50 ms, the stack in QuarantineCallback::Recycle), and the harnesses ran slower.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16}
printf '%-9s %10s %8s %8s %8s  %s\n' harness executions exec/s cov corpus found
status=0
for name in "${harnesses[@]}"; do
  corpus=$build/corpus/$name
  artifacts=$build/artifacts/$name
  mkdir -p "$corpus" "$artifacts"
  # Seed the corpus once (libFuzzer keeps what it finds there between runs).
  if [ -z "$(ls -A "$corpus")" ]; then
    # shellcheck disable=SC2046
    seed_files $(seeds_for "$name") | while read -r file; do
      cp "$file" "$corpus/$(echo "$file" | md5sum | cut -c1-16)"
    done
  fi
  dict=$(dict_for "$name")
  log=$build/fuzz-$name.log
  before=$(ls -p "$artifacts" | grep -vc / || true)
  set +e
  "$build/fuzz/fxc-fuzz-$name" "$corpus" -max_total_time="$seconds" -runs="$runs" -timeout=2 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    ${dict:+-dict="$dict"} >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  size=$(ls "$corpus" | wc -l)
  found=$(($(ls -p "$artifacts" | grep -vc / || true) - before))
  what="none"
  if [ "$rc" != 0 ]; then
    status=1
    # The last report is the harness's: earlier ones may come from the shape-inference worker,
    # whose crashes (ONNX's) fxc survives.
    what=$(grep -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z-]+|runtime error: .*|fxc fuzz: .*' "$log" | tail -1)
    what=${what:-exit $rc}
    what="$what (log: $log; inputs: $artifacts)"
  elif [ "$found" -gt 0 ]; then
    status=1
    what="$found inputs in $artifacts"
  fi
  printf '%-9s %10s %8s %8s %8s  %s\n' "$name" "$execs" "$rate" "$cov" "$size" "$what"
done
exit $status
