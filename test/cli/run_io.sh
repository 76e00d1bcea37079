#!/usr/bin/env bash
# fxc run's .npy round trip: outputs written with --output-dir are read back as inputs
# (x + y with x = y = the first run's out0 gives 2·out0), a wrong shape is refused, and
# --shape gives the random inputs their size.
#   run_io.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
model=testdata/models/seed_three_adds.onnx
"$fxc" run "$model" --seed 3 --output-dir "$work/a" >"$work/a.txt" || fail "first run"
for f in out0 out1 out2; do [ -s "$work/a/$f.npy" ] || fail "no $f.npy"; done
"$fxc" run "$model" --input x="$work/a/out0.npy" --input y="$work/a/out0.npy" --output-dir "$work/b" >"$work/b.txt" ||
  fail "second run"
# Every element: out0 of the second run is twice out0 of the first (exactly, in float32).
"$compare" "$work/b/out0.npy" "$work/a/out0.npy" 0 0 2 >"$work/cmp.txt" ||
  fail "x + y with x = y = out0 is not 2 * out0: $(cat "$work/cmp.txt")"
# --save-inputs writes the seeded inputs under their ONNX names; fed back with --input they give
# the same outputs, bit for bit.
"$fxc" run "$model" --seed 9 --save-inputs "$work/saved/in" --output-dir "$work/c" >/dev/null 2>&1 ||
  fail "--save-inputs run"
[ -s "$work/saved/in/x.npy" ] && [ -s "$work/saved/in/y.npy" ] || fail "--save-inputs wrote $(ls "$work/saved/in")"
"$fxc" run "$model" --input x="$work/saved/in/x.npy" --input y="$work/saved/in/y.npy" \
  --output-dir "$work/d" >/dev/null 2>&1 || fail "replay of the saved inputs"
for f in out0 out1 out2; do
  "$compare" "$work/d/$f.npy" "$work/c/$f.npy" 0 0 >"$work/cmp.txt" ||
    fail "replayed $f differs: $(cat "$work/cmp.txt")"
done
"$fxc" run testdata/models/resnet18_narrow.onnx --input input="$work/a/out0.npy" 2>"$work/err"
[ $? = 1 ] || fail "a wrong shape was accepted"
grep -q "has shape \[2, 3\], the model declares \[1, 3, 64, 64\]" "$work/err" || fail "unclear shape error: $(cat "$work/err")"
"$fxc" run "$model" --shape x=4,3 --shape y=4,3 | grep -q "out0: float32 \[4, 3\]" || fail "--shape was not applied"
# An integer .npy where the model wants float32, and a .npy cut short: one clear error each.
argmax=/usr/share/libonnx-testdata/data/node/test_argmax_default_axis_example/model.onnx
"$fxc" run "$argmax" --output-dir "$work/argmax" >/dev/null || fail "argmax run"
int_npy=$(ls "$work"/argmax/*.npy | head -1)
grep -q "'<i8'" "$int_npy" || fail "ArgMax wrote no int64 output"
"$fxc" run "$model" --input x="$int_npy" --shape x=1,2 2>"$work/err"
[ $? = 1 ] || fail "an int64 input for a float32 one was accepted"
grep -q "is int64, the model declares float32" "$work/err" || fail "unclear dtype error: $(cat "$work/err")"
head -c 100 "$work/a/out0.npy" >"$work/short.npy"
"$fxc" run "$model" --input x="$work/short.npy" 2>"$work/err"
[ $? = 1 ] || fail "a truncated .npy was accepted"
[ "$(wc -l <"$work/err")" = 1 ] || fail "truncated .npy: not one error line: $(cat "$work/err")"
# Random inputs of every integer type ONNX's tests declare (zeros, as for int64).
for t in test_max_int16 test_max_uint16 test_max_uint32; do
  "$fxc" run "/usr/share/libonnx-testdata/data/node/$t/model.onnx" | grep -Eq "^result: u?int(16|32) \[3\]  min 0  mean 0  max 0$" ||
    fail "random inputs for $t"
done
# Both backends give the same outputs (oneDNN vs the reference loops) on a real CNN.
for backend in cpu reference; do
  "$fxc" run testdata/models/resnet18_narrow.onnx --backend "$backend" --output-dir "$work/$backend" \
    >"$work/$backend.txt" || fail "--backend $backend"
done
# oneDNN against the reference loops, every element (independent implementations).
"$compare" "$work/cpu/output.npy" "$work/reference/output.npy" 1e-5 1e-4 >"$work/cmp.txt" ||
  fail "the cpu and reference backends differ: $(cat "$work/cmp.txt")"
"$fxc" run testdata/models/resnet18_narrow.onnx --threads 1 | cmp -s - "$work/cpu.txt" ||
  fail "--threads 1 changed the result"
# Output files by name: "a:b" (relu) and "a_b" (neg). a_b.npy holds the output named a_b; the
# cleaned "a:b" yields it and is a_b_1.npy (it took a_b.npy when it came first).
f32npy() {  # FILE SHAPE VALUES...: float32 .npy
  perl -e 'my ($f, $s, @v) = @ARGV; my $h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: $s, }";
    $h .= " " while (10 + length($h) + 1) % 64; open(my $o, ">:raw", $f) or die;
    print $o "\x93NUMPY\x01\x00", pack("S<", length($h) + 1), $h, "\n", pack("f<*", @v);' "$@"
}
f32npy "$work/x.npy" '(2, 2)' 1 -2 3 -4
f32npy "$work/neg.npy" '(2, 2)' -1 2 -3 4
f32npy "$work/relu.npy" '(2, 2)' 1 0 3 0
"$fxc" run -q testdata/models/soundness/output_names_that_clash.onnx --input x="$work/x.npy" \
  --output-dir "$work/names" || fail "run with clashing output names"
"$compare" "$work/names/a_b.npy" "$work/neg.npy" 0 0 >/dev/null || fail "a_b.npy is not output a_b"
"$compare" "$work/names/a_b_1.npy" "$work/relu.npy" 0 0 >/dev/null || fail "a_b_1.npy is not a:b"
# uint64 in .npy files: a Cast to uint64 is written as '<u8' with its values (1, 7, 3e9), and
# read back as uint64 (the model's z = x).
model=testdata/models/soundness/uint64_io.onnx
"$fxc" run -q "$model" --output-dir "$work/u64" >/dev/null || fail "uint64 run"
head -c 64 "$work/u64/y.npy" | grep -aq "'descr': '<u8'" || fail "uint64 output not written as <u8"
[ "$(tail -c 24 "$work/u64/y.npy" | od -An -tu8 | xargs)" = "1 7 3000000000" ] ||
  fail "uint64 output values: $(tail -c 24 "$work/u64/y.npy" | od -An -tu8)"
"$fxc" run -q "$model" --input x="$work/u64/y.npy" --output-dir "$work/u64b" >/dev/null ||
  fail "a uint64 file as a uint64 input"
cmp -s "$work/u64/y.npy" "$work/u64b/z.npy" || fail "uint64 input not read back as written"
echo ok
