#!/usr/bin/env bash
# fxc bench: unfused and fused timings with median ≤ max and min ≤ median, and the speedup,
# as text and as JSON.
#   bench.sh FXC
set -u
fxc=$1
fail() { echo "FAIL: $*"; exit 1; }
json=$("$fxc" bench -q testdata/models/resnet18_narrow.onnx --pass conv-bn --runs 3 --warmup 1 --format json) ||
  fail "bench failed"
for key in '"unfused"' '"fused"' '"median_ms"' '"min_ms"' '"max_ms"' '"speedup"'; do
  grep -q "$key" <<<"$json" || fail "no $key in $json"
done
text=$("$fxc" bench -q testdata/models/resnet18_narrow.onnx --runs 3 --batch 2) || fail "bench without passes failed"
grep -q '^unfused  median [0-9.]* ms  min [0-9.]* ms  max [0-9.]* ms$' <<<"$text" || fail "unexpected text: $text"
grep -q '^fused' <<<"$text" && fail "fused timing without --pass"
awk '/^unfused/ { if (!($6 <= $3 && $3 <= $9)) exit 1 }' <<<"$text" || fail "min <= median <= max does not hold"
echo ok
