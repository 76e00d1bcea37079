#!/usr/bin/env bash
# trace → export → trace must show the same graph, through the CLI, for the repository's models;
# and what -o writes passes the ONNX checker (--check). ONNX's backend test models (1,072) make
# the same round trip in one process, in test/unit/export_test.cpp (three fxc runs a model took
# 1.1 s each under ASan).
#   round_trip.sh FXC
set -u
fxc=$1
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
echo "$count models, $failures failed"
[ "$count" -gt 20 ] && [ "$failures" -eq 0 ]
