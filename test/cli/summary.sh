#!/usr/bin/env bash
# fxc summary against numbers worked by hand, on testdata/models/dynamic_conv.onnx (Conv 3 → 4
# channels, 3×3, no padding, on x [N, 3, 8, 8]; then Relu): parameters 4·3·3·3 + 4 = 112; MACs
# per sample: 4·6·6 outputs × 3·3·3 = 3,888, twice that at batch 2; peak activation memory at
# batch 2: x (2·3·8·8·4 = 1,536 B) and the conv's output (2·4·6·6·4 = 1,152 B) while the conv
# runs = 2,688 B (x is freed after it; the Relu's output then lives with the conv's: 2,304 B).
# JSON carries the same numbers as numbers.
#   summary.sh FXC
set -u
fxc=$1
fail() { echo "FAIL: $*"; exit 1; }
model=testdata/models/dynamic_conv.onnx
text=$("$fxc" summary "$model" --batch 1) || fail "summary failed"
grep -q '^parameters: 112 ' <<<"$text" || fail "parameters: $text"
grep -q '^weight bytes: 448 B$' <<<"$text" || fail "weight bytes: $text"
grep -q '^MACs: 3,888 ' <<<"$text" || fail "MACs at batch 1: $text"
grep -q '^conv  *Conv2d  *\[1, 4, 6, 6\]  *112  *3,888$' <<<"$text" || fail "the conv row: $text"
json=$("$fxc" summary "$model" --batch 2 --format json) || fail "summary --format json failed"
grep -q '"macs": 7776,' <<<"$json" || fail "MACs at batch 2: $json"
grep -q '"parameters": 112,' <<<"$json" || fail "parameters in JSON: $json"
grep -q '"peak_activation_bytes": 2688,' <<<"$json" || fail "peak activation memory: $json"
grep -q '"weight_bytes": 448' <<<"$json" || fail "weight bytes: $json"
echo ok
