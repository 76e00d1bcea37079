#!/usr/bin/env bash
# fxc quantize end to end: both presets write QDQ models that pass ONNX's checker, run in fxc and
# stay close to the float model; the accuracy targets (trt, per-channel int8, 32 random
# calibration samples, MinMax: output SQNR >= 30 dB and cosine >= 0.999 on held-out inputs;
# per-tensor weights never better, 1 dB worse on mobilenet_v2); a QAT model, and it converted with
# --convert, compute what the PTQ model computes, element for element (tolerance 0); a directory
# of .npy files calibrates.
# A grouped ConvTranspose quantizes with ort-cpu's int32 bias (its scales per output channel
# c = s_in · s_w[c mod Cout/group]) to a model that runs and stays near the float model, element by
# element; a model whose SQNR falls below --min-sqnr is not written.
#   quantize.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
json_field() {  # FILE EXPR: the value of outputs[0].EXPR in a --format json report
  sed -n "s/.*\"$2\": \\([-0-9.e]*\\).*/\\1/p" "$1" | head -1
}
for model in resnet18_narrow mobilenet_v2_narrow; do
  src=testdata/models/$model.onnx
  for preset in trt ort-cpu; do
    "$fxc" quantize -q "$src" --preset "$preset" -o "$work/$preset.onnx" --check ||
      fail "$model $preset: quantize"
    "$fxc" run "$work/$preset.onnx" --output-dir "$work/$preset" >/dev/null || fail "$model $preset: run"
    "$fxc" lint "$work/$preset.onnx" >/dev/null || fail "$model $preset: lint"
  done
  # Accuracy: per-channel meets the targets; per-tensor is worse.
  "$fxc" quantize -q "$src" --preset trt --calibration random:32 --format json >"$work/pc.json" ||
    fail "$model: report"
  "$fxc" quantize -q "$src" --preset trt --calibration random:32 --per-tensor --format json \
    >"$work/pt.json" || fail "$model: per-tensor report"
  grep -q '"outputs"' "$work/pc.json" || fail "$model: no outputs in the report"
  sqnr=$(sed -n '/^  "outputs"/,$p' "$work/pc.json" | json_field /dev/stdin sqnr_db)
  cosine=$(sed -n '/^  "outputs"/,$p' "$work/pc.json" | json_field /dev/stdin cosine)
  sqnr_pt=$(sed -n '/^  "outputs"/,$p' "$work/pt.json" | json_field /dev/stdin sqnr_db)
  awk -v s="$sqnr" -v c="$cosine" 'BEGIN { exit !(s >= 30 && c >= 0.999) }' ||
    fail "$model: SQNR $sqnr dB, cosine $cosine (targets: >= 30 dB, >= 0.999)"
  # Per-channel weight scales: never worse; on mobilenet_v2's depthwise convolutions (channel
  # ranges far apart) at least 1 dB better (measured: 2.25 dB; resnet18: 0.29 dB).
  margin=0
  [ "$model" = mobilenet_v2_narrow ] && margin=1
  awk -v a="$sqnr" -v b="$sqnr_pt" -v m="$margin" 'BEGIN { exit !(a - b >= m) }' ||
    fail "$model: per-channel SQNR $sqnr dB is not $margin dB above per-tensor $sqnr_pt dB"
  echo "$model: trt per-channel SQNR $sqnr dB, cosine $cosine; per-tensor $sqnr_pt dB"
  # The integer run (what fxc run executes: quant-lower's integer kernels) keeps the targets, and
  # stays within 1 dB of the Q/DQ model run in float; it lowered convolutions.
  for preset in trt ort-cpu; do
    "$fxc" quantize -q "$src" --preset "$preset" --format json >"$work/i.json" ||
      fail "$model $preset: report"
    q=$(sed -n '/^  "outputs"/,$p' "$work/i.json" | json_field /dev/stdin sqnr_db)
    i=$(sed -n '/"integer"/,$p' "$work/i.json" | json_field /dev/stdin sqnr_db)
    convs=$(sed -n '/"lowered"/,$p' "$work/i.json" | json_field /dev/stdin conv)
    awk -v i="$i" -v q="$q" -v c="$convs" 'BEGIN { exit !(i >= 30 && i >= q - 1 && c >= 1) }' ||
      fail "$model $preset: integer run SQNR $i dB (Q/DQ run $q dB), $convs convolutions lowered"
    echo "$model $preset: integer run SQNR $i dB (Q/DQ in float $q dB), $convs convolutions lowered"
  done
  # QAT: float weights behind fake-quantize; --convert folds them into what PTQ writes.
  "$fxc" quantize -q "$src" --qat -o "$work/qat.onnx" --check || fail "$model: --qat"
  "$fxc" quantize -q "$work/qat.onnx" --convert -o "$work/converted.onnx" --check ||
    fail "$model: --convert"
  # The same arithmetic: every output element equal (tolerance 0).
  for variant in converted qat; do
    "$fxc" run "$work/$variant.onnx" --output-dir "$work/$variant" >/dev/null || fail "$model: run $variant"
    "$compare" "$work/$variant/output.npy" "$work/trt/output.npy" 0 0 ||
      fail "$model: the $variant QAT model differs from the PTQ model"
  done
done
# The same, pass by pass through fxc fuse.
"$fxc" fuse -q testdata/models/resnet18_narrow.onnx --pass conv-bn --pass quant-observe:preset=ort-cpu \
  --pass quant-calibrate:data=random:4 --pass quant-convert:preset=ort-cpu -o "$work/fuse.onnx" --check ||
  fail "the passes one by one"
"$fxc" run "$work/fuse.onnx" >/dev/null || fail "run the pass-by-pass model"
# A directory of .npy files (zeros here: CI has no numpy) calibrates a single-input model.
npy() {  # FILE DESCR SHAPE BYTES
  local header="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
  while [ $(( (10 + ${#header} + 1) % 64 )) -ne 0 ]; do header="$header "; done
  { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $(( (${#header} + 1) % 256 )))\\x00"
    printf '%s\n' "$header"; head -c "$4" /dev/zero; } >"$1"
}
mkdir "$work/calib"
npy "$work/calib/a.npy" '<f4' '(1, 3, 64, 64)' $((3 * 64 * 64 * 4))
npy "$work/calib/b.npy" '<f4' '(2, 3, 64, 64)' $((2 * 3 * 64 * 64 * 4))
"$fxc" quantize testdata/models/resnet18_narrow.onnx --calibration "$work/calib" -o "$work/dir.onnx" \
  2>"$work/err" || fail "calibration from a directory: $(cat "$work/err")"
# Three samples (b.npy holds two): one held out for measuring, two calibrate.
grep -q "held out 1 of the 3 calibration samples" "$work/err" && grep -q "calibrate (minmax, 2 samples)" \
  "$work/err" || fail "a batch file is not split, or nothing held out: $(cat "$work/err")"
# One batched .npy file calibrates too.
"$fxc" quantize -q testdata/models/resnet18_narrow.onnx --calibration "$work/calib/b.npy" \
  -o "$work/file.onnx" 2>"$work/err" || fail "calibration from one .npy file: $(cat "$work/err")"
# A symbolic batch (x [N, 3, 8, 8]): the files fix it (the first holds one sample, the next two).
mkdir "$work/calib_dyn"
npy "$work/calib_dyn/a.npy" '<f4' '(1, 3, 8, 8)' $((3 * 8 * 8 * 4))
npy "$work/calib_dyn/b.npy" '<f4' '(2, 3, 8, 8)' $((2 * 3 * 8 * 8 * 4))
"$fxc" quantize testdata/models/dynamic_conv.onnx --calibration "$work/calib_dyn" \
  -o "$work/dyn.onnx" 2>"$work/err" || fail "calibrating a symbolic batch from files: $(cat "$work/err")"
grep -q "calibrate (minmax, 2 samples)" "$work/err" || fail "symbolic batch: $(cat "$work/err")"

# Grouped ConvTranspose (group 2, 6 output channels, 3 weight scales): the int32 bias reads the
# scale of its channel's slice. Before, it read past the 3 scales: the model did not run in fxc and
# ONNX Runtime answered [0.562, -0.011, 0.878] for [-2.296, 1.055, 0.766].
deconv=testdata/models/deconv_linear_bn.onnx
"$fxc" quantize -q "$deconv" --preset ort-cpu -o "$work/deconv.onnx" --check || fail "deconv: quantize"
"$fxc" run -q "$deconv" --output-dir "$work/deconv_float" >/dev/null || fail "deconv: float run"
"$fxc" run -q "$work/deconv.onnx" --output-dir "$work/deconv_int8" >/dev/null ||
  fail "deconv: the quantized model does not run"
# int8 against float, every element: within 0.1 (the outputs are of order 1).
"$compare" "$work/deconv_int8/y.npy" "$work/deconv_float/y.npy" 0.1 0 >"$work/cmp.txt" ||
  fail "deconv: the quantized model is not near the float one: $(cat "$work/cmp.txt")"
# The written model is run again: below the floor, nothing is written, exit 1, one line.
"$fxc" quantize -q "$deconv" --preset ort-cpu -o "$work/floor.onnx" --min-sqnr 200 2>"$work/err"
[ $? = 1 ] || fail "--min-sqnr 200 did not exit 1"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "^fxc: error: $work/floor.onnx: the written model's .* below --min-sqnr 200: not written" "$work/err" ||
  fail "--min-sqnr: $(cat "$work/err")"
# --in-place: the model is named once ("m.onnx: m.onnx: ..." before).
cp "$deconv" "$work/inplace.onnx"
"$fxc" quantize -q "$work/inplace.onnx" --preset ort-cpu --in-place --min-sqnr 200 2>"$work/err"
[ $? = 1 ] && grep -q "^fxc: error: $work/inplace.onnx: the written model's" "$work/err" &&
  cmp -s "$deconv" "$work/inplace.onnx" || fail "--in-place --min-sqnr: $(cat "$work/err")"
[ ! -e "$work/floor.onnx" ] && [ -z "$(find "$work" -name '*.tmp*')" ] ||
  fail "a model below --min-sqnr was left behind"
# Linears without bias on a rank-3 input (testdata/models/linear_3d.onnx): the quantized weights
# go behind DequantizeLinear before a MatMul, never into a Gemm (rank 2 only: ONNX Runtime
# refused the model); the written model stays near the float one, element by element.
"$fxc" quantize -q testdata/models/linear_3d.onnx -o "$work/l3.onnx" --check || fail "linear_3d: quantize"
! grep -qa "Gemm" "$work/l3.onnx" || fail "linear_3d: a Gemm on a rank-3 input was written"
"$fxc" run -q testdata/models/linear_3d.onnx --output-dir "$work/l3_float" >/dev/null || fail "linear_3d: float run"
"$fxc" run -q -O0 "$work/l3.onnx" --output-dir "$work/l3_q" >/dev/null || fail "linear_3d: quantized run"
"$compare" "$work/l3_q/y.npy" "$work/l3_float/y.npy" 0.1 0 >"$work/cmp.txt" ||
  fail "linear_3d: the quantized model is not near the float one: $(cat "$work/cmp.txt")"
# The histogram methods calibrate models that keep their accuracy (the written-model check: SQNR
# of at least 30 dB here on held-out inputs).
for method in percentile entropy; do
  "$fxc" quantize -q testdata/models/resnet18_narrow.onnx --method $method --min-sqnr 30 \
    -o "$work/$method.onnx" || fail "--method $method"
done
echo ok
