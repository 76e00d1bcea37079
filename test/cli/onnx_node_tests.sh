#!/usr/bin/env bash
# Every model of ONNX's backend test data (Debian's libonnx-testdata) must trace and lint.
#   onnx_node_tests.sh FXC [DATA_DIR]
set -u
fxc=$1
data=${2:-/usr/share/libonnx-testdata/data}
if [ ! -d "$data/node" ]; then
  echo "FAIL: $data/node not found: install Debian's libonnx-testdata (scripts/setup.sh does)"
  exit 1
fi
mapfile -t models < <(find "$data/node" "$data/pytorch-converted" "$data/pytorch-operator" "$data/simple" \
  -name model.onnx 2>/dev/null | sort)
echo "${#models[@]} models"
[ "${#models[@]}" -gt 900 ] || { echo "FAIL: expected over 900 models"; exit 1; }
"$fxc" lint -q "${models[@]}" >/dev/null
