#!/usr/bin/env bash
# float64 is computed in double, never in float32 and relabelled: testdata/models/float64_ops.onnx
# (x + 1e-12, x / 3, moves, CumSum, ReduceSum, a comparison, a Cast to float32) against numpy's
# float64 results (scripts/export_testdata.py), bit for bit, as written, after the execution
# pipeline, on the reference kernels and after `fuse --pass simplify` wrote it back; float32 data
# widens exactly into a float64 input; an op without a double path is refused by node and op.
#   float64.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
model=testdata/models/float64_ops.onnx
outputs="cumsum rowsum third as_float positive kept stacked"
check() {  # check DIR LABEL: every output equal to numpy's
  for o in $outputs; do
    "$compare" "$1/$o.npy" testdata/recorded/float64_ops.$o.npy 0 0 >"$work/cmp.txt" ||
      fail "$2: $o differs from numpy: $(cat "$work/cmp.txt")"
  done
}
"$fxc" fuse "$model" --pass simplify -o "$work/simplified.onnx" 2>/dev/null || fail "fuse --pass simplify"
for run in "$model" "$model -O0" "$model --backend reference" "$work/simplified.onnx"; do
  rm -rf "$work/out"
  "$fxc" run $run --input x=testdata/recorded/float64_ops.x.npy --output-dir "$work/out" \
    >"$work/stdout" 2>"$work/err" || fail "run $run: $(cat "$work/err")"
  check "$work/out" "run $run"
done
grep -q "^third: float64 \[2, 3\]" "$work/stdout" || fail "float64 not printed: $(cat "$work/stdout")"
grep -q "'<f8'" "$work/out/third.npy" || fail "a float64 output not written as <f8"
# float32 data into the float64 input: widened exactly (x / 3 in double, not in float).
"$fxc" run "$model" --input x="$work/out/as_float.npy" --output-dir "$work/wide" >/dev/null 2>&1 ||
  fail "float32 .npy into a float64 input"
grep -q "'<f8'" "$work/wide/third.npy" || fail "widened input did not run in float64"
# Seeded random float64 inputs.
"$fxc" run "$model" >"$work/stdout" 2>&1 || fail "random float64 input: $(cat "$work/stdout")"
# Refused: an op that computes float32 only, with the node and the op named.
"$fxc" run testdata/models/float64_refused.onnx >"$work/stdout" 2>"$work/err"
[ $? = 1 ] || fail "Relu of float64 was not refused"
[ "$(wc -l <"$work/err")" = 1 ] || fail "more than one error line: $(cat "$work/err")"
grep -q "node 'relu': unsupported: float64 inputs to torch.relu" "$work/err" ||
  fail "unclear refusal: $(cat "$work/err")"
[ -s "$work/stdout" ] && fail "a refused run printed outputs: $(cat "$work/stdout")"
echo ok
