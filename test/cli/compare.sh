#!/usr/bin/env bash
# fxc compare A B: both models on the same inputs, every output element within atol + rtol·|A|.
# Worked by hand: seed_three_adds computes x + y three times; its add-to-mul rewrite computes
# x · y. With x = y = 1 everywhere, A gives 2 and B gives 1: max abs error 1, max rel error 0.5,
# SQNR 10·log10(Σ 2² / Σ 1²) = 6.02 dB, cosine 1.
#   compare.sh FXC
set -u
fxc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# ones.npy: float32 [2, 3], all 1.0 (numpy's own header, padded to 128 bytes).
header="{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
pad=$((128 - 10 - ${#header} - 1))
{ printf '\x93NUMPY\x01\x00\x76\x00'; printf '%s%*s\n' "$header" "$pad" ""
  for _ in 1 2 3 4 5 6; do printf '\x00\x00\x80\x3f'; done; } >"$work/ones.npy"
seed=testdata/models/seed_three_adds.onnx
"$fxc" fuse "$seed" --pass add-to-mul -o "$work/mul.onnx" -q || fail "add-to-mul"
"$fxc" compare "$seed" "$work/mul.onnx" --input x="$work/ones.npy" --input y="$work/ones.npy" \
  >"$work/out" 2>"$work/err"
[ $? = 1 ] || fail "outputs 1 apart passed the default tolerance"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one error line: $(cat "$work/err")"
grep -q "mul.onnx differs from $seed: output out0: max abs error 1 beyond" "$work/err" ||
  fail "error: $(cat "$work/err")"
for out in out0 out1 out2; do
  grep -Eq "^$out  +\[2, 3\] +1 +0\.5 +6\.0 +1\.0000000 +FAIL$" "$work/out" ||
    fail "row $out: $(grep "^$out" "$work/out")"
done
tail -1 "$work/out" | grep -q "within atol 1e-05 + rtol 0.0001 x |A|: no$" || fail "verdict: $(tail -1 "$work/out")"
# The same within --atol 1 (1 <= 1 + 0·|A|), and as JSON.
"$fxc" compare "$seed" "$work/mul.onnx" --input x="$work/ones.npy" --input y="$work/ones.npy" \
  --atol 1 --rtol 0 --format json >"$work/json" || fail "--atol 1 did not pass"
grep -q '"within": true' "$work/json" && grep -q '"sqnr_db": 6.0205' "$work/json" &&
  grep -q '"max_rel_error": 0.5' "$work/json" || fail "JSON: $(cat "$work/json")"
# A model and its conv-bn + conv-relu fusion agree at the defaults, on seeded inputs.
model=testdata/models/resnet18_narrow.onnx
"$fxc" fuse "$model" --pass conv-bn --pass conv-relu -o "$work/fused.onnx" -q || fail "fuse"
"$fxc" compare "$model" "$work/fused.onnx" --seed 4 >"$work/out" 2>"$work/err" ||
  fail "fused model differs: $(cat "$work/out" "$work/err")"
grep -Eq '^output +\[1, 62\] .* ok$' "$work/out" || fail "fused row: $(cat "$work/out")"
# simplify folds shapes with the declared input shapes, and only those a run proves: on inputs
# other than the seed it folded with, data_shapes.onnx still gives what it gave (nonzero's count).
"$fxc" fuse -q testdata/models/data_shapes.onnx --pass simplify -o "$work/simple.onnx" || fail "simplify"
for s in 1 2 3; do
  "$fxc" compare testdata/models/data_shapes.onnx "$work/simple.onnx" --seed $s >"$work/out" 2>&1 ||
    fail "simplified data_shapes differs at seed $s: $(cat "$work/out")"
done
# Models with other inputs: one line, exit 1, naming both.
"$fxc" compare "$model" "$seed" 2>"$work/err" >/dev/null
[ $? = 1 ] || fail "models with other inputs were compared"
grep -q "the models' inputs differ: $model has input, $seed has x, y" "$work/err" ||
  fail "inputs error: $(cat "$work/err")"
echo ok
