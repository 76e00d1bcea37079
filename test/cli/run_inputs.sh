#!/usr/bin/env bash
# --input as a user sees it, on testdata/models/dynamic_batch.onnx (x float32 [N, 4] and ids int64
# [N]; y = relu(x @ W + b), z = ids + 1 with W, b small exact numbers): the data's shape fills
# the symbolic batch; outputs equal values worked by hand; float64 and float16 files convert when
# no value changes, int32 ids widen, Fortran-ordered arrays are read in C order; what does not
# fit is refused by name with the declared shape quoted; bench and profile take --input too; a
# model's float16 inputs and outputs are read, drawn and written as float16.
#   run_inputs.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
model=testdata/models/dynamic_batch.onnx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# npy FILE DESCR SHAPE FORTRAN VALUES...: a .npy file (perl, part of every Debian system).
npy() {
  perl -e '
    my ($file, $descr, $shape, $fortran, @values) = @ARGV;
    my %pack = ("<f4" => "f<", "<f8" => "d<", "<i8" => "q<", "<i4" => "l<");
    my $data;
    if ($descr eq "<f2") {  # exact halves only: sign, exponent, 10-bit mantissa
      for my $v (@values) {
        my $bits = unpack("L<", pack("f<", $v));
        my $e = (($bits >> 23) & 255) - 127 + 15;
        $data .= pack("S<", $v == 0 ? 0 : (($bits >> 16) & 0x8000) | ($e << 10) | (($bits >> 13) & 0x3ff));
      }
    } else {
      $data = pack("$pack{$descr}*", @values);
    }
    my $header = "{\x27descr\x27: \x27$descr\x27, \x27fortran_order\x27: $fortran, \x27shape\x27: $shape, }";
    $header .= " " while (10 + length($header) + 1) % 64;
    open(my $out, ">:raw", $file) or die;
    print $out "\x93NUMPY\x01\x00", pack("S<", length($header) + 1), $header, "\n", $data;
  ' "$@"
}
npy "$work/x.npy" '<f4' '(2, 4)' False 1 2 3 4 -1 0 0 0
npy "$work/ids.npy" '<i8' '(2,)' False 3 7
npy "$work/want_y.npy" '<f4' '(2, 3)' False 5 6.5 6 0 0.5 0
npy "$work/want_z.npy" '<i8' '(2,)' False 4 8
both="--input x=$work/x.npy --input ids=$work/ids.npy"

check_outputs() {  # LABEL DIR: y and z exactly as worked by hand
  "$compare" "$2/y.npy" "$work/want_y.npy" 0 0 >/dev/null || fail "$1: y differs from relu(x @ W + b)"
  "$compare" "$2/z.npy" "$work/want_z.npy" 0 0 >/dev/null || fail "$1: z differs from ids + 1"
}
"$fxc" run -q "$model" $both --output-dir "$work/out" >/dev/null || fail "run with both inputs"
check_outputs "float32, int64" "$work/out"

# Lossless conversions, said at -v.
npy "$work/x64.npy" '<f8' '(2, 4)' False 1 2 3 4 -1 0 0 0
npy "$work/x16.npy" '<f2' '(2, 4)' False 1 2 3 4 -1 0 0 0
npy "$work/ids32.npy" '<i4' '(2,)' False 3 7
# Column-major: the same 2×4 array stored column by column.
npy "$work/xf.npy" '<f4' '(2, 4)' True 1 -1 2 0 3 0 4 0
for case in "x64 ids" "x16 ids" "x ids32" "xf ids"; do
  set -- $case
  "$fxc" run -v "$model" --input x=$work/$1.npy --input ids=$work/$2.npy --output-dir "$work/$1$2" \
    >/dev/null 2>"$work/err" || fail "$case: $(cat "$work/err")"
  check_outputs "$case" "$work/$1$2"
done
"$fxc" run -v "$model" --input x=$work/x64.npy --input ids=$work/ids.npy 2>&1 >/dev/null |
  grep -q "float64 converted to float32 without loss" || fail "-v does not say that float64 was converted"
"$fxc" run -v "$model" --input x=$work/xf.npy --input ids=$work/ids.npy 2>&1 >/dev/null |
  grep -q "Fortran-ordered" || fail "-v does not say that the array was Fortran-ordered"

# Refusals: one line, exit 1, naming the problem.
refused() {  # EXPECTED_MESSAGE ARGS...
  local want=$1
  shift
  "$fxc" run "$model" "$@" >"$work/out.txt" 2>"$work/err"
  local rc=$?
  [ $rc = 1 ] || fail "$*: exit $rc, expected 1 ($(cat "$work/err"))"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$*: not one error line: $(cat "$work/err")"
  grep -qF -- "$want" "$work/err" || fail "$*: expected '$want', got: $(cat "$work/err")"
  [ ! -s "$work/out.txt" ] || fail "$*: output despite the error"
}
npy "$work/x01.npy" '<f8' '(2, 4)' False 0.1 2 3 4 -1 0 0 0
refused "input x is float64 with values float32 cannot hold exactly" --input x=$work/x01.npy --input ids=$work/ids.npy
npy "$work/xint.npy" '<i8' '(2, 4)' False 1 2 3 4 -1 0 0 0
refused "input x is int64, the model declares float32" --input x=$work/xint.npy --input ids=$work/ids.npy
npy "$work/idsf.npy" '<f4' '(2,)' False 3 7
refused "input ids is float32, the model declares int64" --input x=$work/x.npy --input ids=$work/idsf.npy
refused "input x has shape [2, 4], the model declares [4 (--batch), 4]" --batch 4 $both
npy "$work/x3.npy" '<f4' '(2, 3)' False 1 2 3 4 5 6
refused "input x has shape [2, 3], the model declares [N, 4]" --input x=$work/x3.npy --input ids=$work/ids.npy
refused "has the symbolic dimension 'N'" --input x=$work/x.npy
"$fxc" run testdata/models/resnet18_narrow.onnx --input input=$work/x.npy >/dev/null 2>"$work/err"
grep -qF "input input has shape [2, 4], the model declares [1, 3, 64, 64]" "$work/err" ||
  fail "a fixed-shape model: $(cat "$work/err")"

# trace --shapes --batch infers at that batch but writes back the model's declared inputs.
"$fxc" trace "$model" --shapes --batch 4 -o "$work/traced.onnx" >/dev/null || fail "trace --shapes --batch -o"
"$fxc" trace "$work/traced.onnx" --shapes | grep -q '^placeholder  *x  *x  *()  *{}  *\[N, 4\]' ||
  fail "trace --batch changed the model's declared input"

# float16 at a model's edges (testdata/models/float16_io.onnx: x float16, z = float(x) * [3, 0.1,
# 1, 1], y = float16(z)): y is written as float16 and z as float32, each equal to the value worked
# by hand; a float32 file whose values float16 cannot hold is refused; seeded random inputs are
# float16 values, saved as float16, and replay bit for bit. Before, y was written as float32, the
# random x held values no float16 input can, and a float32 0.1 ran as 0.1.
half=testdata/models/float16_io.onnx
npy "$work/h_x.npy" '<f2' '(2, 4)' False 1 2 3 4 -1 0 0.5 0.25
npy "$work/h_y.npy" '<f2' '(2, 4)' False 3 0.199951171875 3 4 -3 0 0.5 0.25
npy "$work/h_z.npy" '<f4' '(2, 4)' False 3 0.2 3 4 -3 0 0.5 0.25
"$fxc" run "$half" --input x="$work/h_x.npy" --output-dir "$work/h" >"$work/h.txt" 2>/dev/null ||
  fail "float16_io: run"
grep -q "^y: float16 \[2, 4\]" "$work/h.txt" && grep -q "^z: float32 \[2, 4\]" "$work/h.txt" ||
  fail "float16_io: the printed dtypes: $(cat "$work/h.txt")"
head -c 64 "$work/h/y.npy" | grep -q "'descr': '<f2'" || fail "float16_io: y.npy is not float16"
head -c 64 "$work/h/z.npy" | grep -q "'descr': '<f4'" || fail "float16_io: z.npy is not float32"
"$compare" "$work/h/y.npy" "$work/h_y.npy" 0 0 >"$work/cmp.txt" || fail "float16_io: y: $(cat "$work/cmp.txt")"
"$compare" "$work/h/z.npy" "$work/h_z.npy" 0 0 >"$work/cmp.txt" || fail "float16_io: z: $(cat "$work/cmp.txt")"
npy "$work/h_x32.npy" '<f4' '(2, 4)' False 1 2 3 4 -1 0 0.1 0.25
"$fxc" run "$half" --input x="$work/h_x32.npy" >/dev/null 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
  grep -qF "input x is float32 with the value 0.100000001, which float16 cannot hold exactly" "$work/err" ||
  fail "float16_io: a float32 0.1 for a float16 input: $(cat "$work/err")"
"$fxc" run -q "$half" --seed 5 --save-inputs "$work/h_saved" --output-dir "$work/h_r1" >/dev/null ||
  fail "float16_io: --save-inputs"
head -c 64 "$work/h_saved/x.npy" | grep -q "'descr': '<f2'" || fail "float16_io: the saved x is not float16"
"$fxc" run -q "$half" --input x="$work/h_saved/x.npy" --output-dir "$work/h_r2" >/dev/null ||
  fail "float16_io: replay of the saved input"
for f in y z; do
  "$compare" "$work/h_r2/$f.npy" "$work/h_r1/$f.npy" 0 0 >"$work/cmp.txt" ||
    fail "float16_io: replayed $f differs: $(cat "$work/cmp.txt")"
done

# bench and profile take the same inputs.
"$fxc" bench "$model" $both --runs 1 --warmup 0 >/dev/null 2>"$work/err" || fail "bench --input: $(cat "$work/err")"
"$fxc" profile "$model" $both --runs 1 >/dev/null 2>"$work/err" || fail "profile --input: $(cat "$work/err")"
echo ok
