#!/usr/bin/env bash
# trace → export → trace must show the same graph: for the repository's models and for every
# model of ONNX's backend test data. Also what -o writes passes the ONNX checker where the input
# did (--check on the repository's models).
#   round_trip.sh FXC [DATA_DIR]
set -u
fxc=$1
data=${2:-/usr/share/libonnx-testdata/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
count=0
check() {  # $1 model, $2 extra flags for the export
  local model=$1
  count=$((count + 1))
  if ! "$fxc" trace "$model" -o "$work/out.onnx" $2 2>"$work/err"; then
    echo "FAIL export $model: $(cat "$work/err")"
    failures=$((failures + 1))
    return
  fi
  "$fxc" trace "$model" --graph >"$work/a.txt" 2>&1
  "$fxc" trace "$work/out.onnx" --graph >"$work/b.txt" 2>&1
  if ! cmp -s "$work/a.txt" "$work/b.txt"; then
    echo "FAIL round trip $model:"
    diff "$work/a.txt" "$work/b.txt" | head -5
    failures=$((failures + 1))
  fi
}
for model in testdata/models/*.onnx; do check "$model" --check; done
for model in $(find "$data/node" "$data/pytorch-converted" "$data/pytorch-operator" "$data/simple" \
                 -name model.onnx 2>/dev/null | sort); do
  check "$model" ""
done
echo "$count models, $failures failed"
[ "$count" -gt 900 ] && [ "$failures" -eq 0 ]
