#!/usr/bin/env bash
# Runs every node test of ONNX's backend test data (Debian libonnx-testdata) on fxc's CPU
# interpreter and compares with the expected outputs at ONNX's tolerances. Prints
# "N passed, N failed, N unsupported" per set; with -v also the unsupported ops. Exit 1 on any
# wrong answer.
#   scripts/conformance.sh [-v]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh build
data=/usr/share/libonnx-testdata/data
status=0
for set in node pytorch-converted pytorch-operator simple; do
  printf '%-18s ' "$set:"
  ./build/fxc-conformance "$@" "$data/$set" || status=1
done
exit $status
