#!/usr/bin/env bash
# Quantized models run on integers: what `fxc run` executes (the execution pipeline's
# quant-lower) against the oracle, the model as written run op by op on the reference kernels.
# - A PyTorch QAT model exported by torch.onnx (testdata/models/qat_torch.onnx: float weights
#   behind Q/DQ, reduced-range activations as Q → Clip → DQ): its three convolutions lowered,
#   every output element within one step of the output's quantization (0.006736, conv3's scale).
# - fxc's own QDQ models (both presets): the lowered model exports with ONNX's checker passing
#   (com.microsoft.QLinearAdd imported), and run as written it computes exactly what `fxc run`
#   computes on the QDQ file, and on the reference integer kernels the same 8-bit activations; what
#   stays in float says why at -v. The trt preset's residual convolutions (no Q after them) run
#   on integers with a float result, written back as DequantizeLinear → Conv → Add → Relu.
# - A tiny DenseNet (ort-cpu): each BatchNorm → ReLU between DQ and Q one lookup table.
#   quant_lower.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
qat=testdata/models/qat_torch.onnx
"$fxc" run -v "$qat" --output-dir "$work/int" 2>"$work/err" >/dev/null || fail "run $qat"
grep -q 'fxc: quant-fold-weights: weights folded 3' "$work/err" || fail "weights not folded: $(cat "$work/err")"
grep -q 'fxc: quant-lower: conv 3$' "$work/err" || fail "convolutions not lowered: $(cat "$work/err")"
"$fxc" run "$qat" --backend reference --output-dir "$work/ref" >/dev/null || fail "run reference"
"$compare" "$work/int/output.npy" "$work/ref/output.npy" 0.00674 0 >/dev/null ||
  fail "the integer run is more than one step from the model as written"
# -O0 runs the graph as written: nothing lowered.
"$fxc" run -v -O0 "$qat" 2>"$work/err" >/dev/null || fail "run -O0"
grep -q 'quant-lower' "$work/err" && fail "-O0 ran the pipeline: $(cat "$work/err")"
# Each model and preset: what quant-lower does (its counts), then the checks below.
# - resnet18, trt: each residual block's Q(relu(conv + DQ(z))) is one integer convolution with
#   the 8-bit addend and the ReLU (fxc.QLinearConvAct, "conv add"); the last block, whose sum
#   goes to the average pool unquantized, runs on integers with a float result ("conv to
#   float"), and the pool's Q says why it stays float. Its int8 outputs' zero point is 0, so a
#   ReLU before a Q clips where saturation does not: the convolution applies it. QLinearConvAct
#   is written back as DequantizeLinear → Conv [→ Add of DequantizeLinear(z)] → Relu →
#   QuantizeLinear, which lowers again ("relowers conv").
# - densenet (ort-cpu): DenseNet's BatchNorm → ReLU after each concatenation of dequantized
#   values is one lookup table per layer (the concatenation made on the 8-bit values), written
#   back as Cast → Add → Gather.
# - resnet18 and densenet (ort-cpu): the global average pool between DQ and Q runs on the 8-bit
#   values (com.microsoft.QLinearGlobalAveragePool, written as it is).
# - mobilenet_v3 (ort-cpu): each convolution with a Hardswish before its Q one
#   fxc.QLinearConvAct, written back as DequantizeLinear → Conv → the activation's ops →
#   QuantizeLinear; at opset 13 its Hardswish is written as HardSigmoid · x, which the pipeline
#   does not fuse again ("close": the written model runs another, float, path). The ort-cpu
#   preset quantizes both operands of each squeeze-excitation product: com.microsoft.QLinearMul.
# - mobilenet_v2 (trt): each ReLU6 before a Q is a two-sided clamp in fxc.QLinearConvAct (its
#   bounds attributes), written back as Clip with the bounds as inputs (opset 11 on; as
#   attributes, --check refused the model and ONNX Runtime would not load it).
# - decoder (ort-cpu): its transposed convolutions (ReLU after each) are fxc.QLinearConvTranspose,
#   written back as DequantizeLinear → ConvTranspose → QuantizeLinear: the written model's
#   convolutions lower again ("relowers conv").
# Fields: model, preset, exact or close, what the written model lowers again (none or conv),
# the counts.
cases=(
  "resnet18_narrow trt exact conv max-pool 1, data movement 1, conv 12, conv add 7, refused 1, conv to float 1, matmul to float 1"
  "resnet18_narrow ort-cpu exact none max-pool 1, data movement 1, requantize 1, conv 20, add 8, average pool 1, matmul to float 1"
  "densenet_tiny ort-cpu exact none max-pool 1, data movement 1, requantize 1, conv 10, lookup 6, average pool 1, matmul to float 1"
  "mobilenet_v3_small_narrow ort-cpu close conv data movement 1, conv 52, average pool 10, mul 9, add 6, refused 1, matmul to float 2"
  "decoder_tiny ort-cpu exact conv conv 4, conv to float 1"
  "mobilenet_v2_narrow trt exact conv data movement 1, conv 41, refused 11, conv add 5, conv to float 6, matmul to float 1"
)
for case in "${cases[@]}"; do
  read -r model preset exact relowers expected <<<"$case"
  name="$model $preset"
  "$fxc" quantize -q "testdata/models/$model.onnx" --preset "$preset" -o "$work/q.onnx" ||
    fail "$name: quantize"
  "$fxc" fuse -v "$work/q.onnx" --pass quant-lower -o "$work/low.onnx" --check 2>"$work/err" ||
    fail "$name: quant-lower -o --check: $(cat "$work/err")"
  grep -q "quant-lower: $expected\$" "$work/err" || fail "$name: $(cat "$work/err")"
  if [ "$preset" = trt ]; then
    grep -q 'stays in float: the pooled value is not dequantized' "$work/err" ||
      fail "trt: no reason for the average pool left in float: $(cat "$work/err")"
  fi
  "$fxc" run "$work/q.onnx" --output-dir "$work/a" >/dev/null || fail "$name: run"
  # The written lowered model runs through the same pipeline and finds nothing left to lower but
  # the float-result convolutions, which ONNX has no op for: they are written as their QDQ ops.
  # (The classifier is com.microsoft.MatMulIntegerToFloat, ONNX Runtime's op, written as it is.)
  # fxc.QLinearConvAct and QLinearConvTranspose are written as their QDQ ops too: where the
  # activation is one op (MobileNet-V3's Hardsigmoid) or none, the convolution lowers again.
  "$fxc" run -v "$work/low.onnx" --output-dir "$work/b" 2>"$work/err" >/dev/null ||
    fail "$name: run lowered"
  again='conv|add|mul|max-pool|data movement|requantize|lookup'
  [ "$relowers" = conv ] && again=${again#conv|}
  grep -Eq "fxc: quant-lower: (.*, )?($again) [0-9]" "$work/err" &&
    fail "$name: the written lowered model lowered again: $(grep quant-lower "$work/err")"
  if [ "$exact" = exact ]; then
    "$compare" "$work/a/output.npy" "$work/b/output.npy" 0 0 >/dev/null ||
      fail "$name: the lowered model written and read back computes another function"
  fi
  # The integer kernels (oneDNN's, the 8-bit loops) against the reference integer kernels (ONNX's
  # arithmetic in plain loops): the same 8-bit activations; only the float head (average pooling,
  # the classifier) rounds differently. One unit off anywhere would show as 1e-3.
  "$fxc" run --backend reference "$work/low.onnx" --output-dir "$work/r" >/dev/null ||
    fail "$name: run lowered on the reference kernels"
  "$compare" "$work/a/output.npy" "$work/r/output.npy" 1e-6 0 >/dev/null ||
    fail "$name: the integer kernels differ from the reference integer kernels"
  # What export wrote for each lowered op, run as written op by op, against the lowered ops'
  # own reference kernels.
  "$fxc" run -O0 --backend reference "$work/low.onnx" --output-dir "$work/w" >/dev/null ||
    fail "$name: run the written lowered model as written"
  "$compare" "$work/w/output.npy" "$work/r/output.npy" 1e-6 0 >/dev/null ||
    fail "$name: the written ops compute another function than the lowered ones"
done
echo ok
