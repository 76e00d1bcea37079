#!/usr/bin/env bash
# --batch and --shape on a model declared with a static batch of 1
# (testdata/models/soundness/static_batch_shape.onnx: y = x.view(x.size(0), -1), batch =
# float(x.size(0))): the run's shapes are those the execution pipeline proves its rewrites from.
# Its const-fold once folded Shape(x) with the declared [1, 3, 4], so that y came out [1, 24]
# and batch 1 under --batch 2. Outputs against values worked by hand, optimized and as written;
# bench and profile run the same graph.
#   run_shapes.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
model=testdata/models/soundness/static_batch_shape.onnx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# npy FILE SHAPE VALUES...: a float32 .npy file (perl, part of every Debian system).
npy() {
  perl -e '
    my ($file, $shape, @values) = @ARGV;
    my $header = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: $shape, }";
    $header .= " " while (10 + length($header) + 1) % 64;
    open(my $out, ">:raw", $file) or die;
    print $out "\x93NUMPY\x01\x00", pack("S<", length($header) + 1), $header, "\n", pack("f<*", @values);
  ' "$@"
}
values=$(seq 0 23)
npy "$work/x.npy" '(2, 3, 4)' $values
npy "$work/want_y.npy" '(2, 12)' $values
npy "$work/want_batch.npy" '()' 2
# The input is input.1 (its placeholder input_1): --shape by either name.
for flags in "--batch 2" "--shape input.1=2,3,4" "--shape input_1=2,3,4"; do
  for level in -O1 -O0; do
    out="$work/out"
    rm -rf "$out"
    # shellcheck disable=SC2086
    "$fxc" run "$model" $flags $level --input "input.1=$work/x.npy" --output-dir "$out" -q ||
      fail "run $flags $level exited $?"
    for name in y batch; do
      "$compare" "$out/$name.npy" "$work/want_$name.npy" 0 0 ||
        fail "run $flags $level: $name differs from the hand-worked value"
    done
  done
  # shellcheck disable=SC2086
  "$fxc" bench "$model" $flags --runs 2 --warmup 0 -q > /dev/null || fail "bench $flags"
  # shellcheck disable=SC2086
  "$fxc" profile "$model" $flags --runs 1 -q > /dev/null || fail "profile $flags"
done
# Random inputs of the run's shape: y is [2, 12].
summary=$("$fxc" run "$model" --batch 2 -q) || fail "run --batch 2 with random inputs"
grep -q '^y: float32 \[2, 12\]' <<< "$summary" || fail "random inputs under --batch 2: $summary"
grep -q '^batch: float32 \[\] .*max 2$' <<< "$summary" || fail "random inputs: $summary"
echo "ok"
