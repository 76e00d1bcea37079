#!/usr/bin/env bash
# Each model, run on seeded inputs by the CPU backend (oneDNN, its plans kept between runs of a
# node) and by the reference kernels: every output equal within 1e-5 + 1e-5·|ref|.
#   backends_agree.sh FXC NPY_COMPARE MODEL...
set -u
fxc=$1
compare=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for model in "$@"; do
  for backend in cpu reference; do
    rm -rf "$work/$backend"
    "$fxc" run -q "$model" --seed 3 --output-dir "$work/$backend" --backend "$backend" >/dev/null ||
      { echo "FAIL: $model does not run on $backend"; status=1; continue 2; }
  done
  for out in "$work"/reference/*.npy; do
    "$compare" "$work/cpu/$(basename "$out")" "$out" 1e-5 1e-5 >/dev/null ||
      { echo "FAIL: $model: $(basename "$out") differs between the backends"; status=1; }
  done
done
exit $status
