#!/usr/bin/env bash
# On demand (needs Debian's torch and libonnx-testdata): fxc codegen on every ONNX node test fxc
# passes (testdata/conformance/node.passing.txt), each generated module run by PyTorch against
# fxc run on seeded random inputs (test/cli/codegen_torch.sh). Ops codegen does not write are
# refused (listed); a module that runs must equal fxc run; models whose random inputs fxc run
# rejects (indices out of range, ...) are reported and skipped.
#   scripts/codegen_node_tests.sh [DATA_DIR]     default: /usr/share/libonnx-testdata/data
set -u
cd "$(dirname "$0")/.."
data=${1:-/usr/share/libonnx-testdata/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r test; do
  [ -f "$data/node/$test/model.onnx" ] && cp "$data/node/$test/model.onnx" "$work/$test.onnx"
done <testdata/conformance/node.passing.txt
test/cli/codegen_torch.sh build/fxc "$work"/*.onnx >"$work/log" 2>&1
echo "$(grep -c 'equal fxc run (' "$work/log") equal fxc run," \
  "$(grep -c 'codegen refused' "$work/log") refused," \
  "$(grep -c 'fxc run failed' "$work/log") not run by fxc on random inputs," \
  "$(grep -c 'differs from fxc run' "$work/log") differ"
grep 'differs from fxc run' "$work/log"
! grep -q 'differs from fxc run' "$work/log"
