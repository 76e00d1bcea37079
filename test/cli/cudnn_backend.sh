#!/usr/bin/env bash
# --backend cudnn and auto as a user sees them, on whatever machine runs the tests. Without a
# usable CUDA device: `--backend cudnn` is one error line "no CUDA device: <reason>", exit 1, and
# `--backend auto` runs on the CPU with the CPU's results. With one: resnet18, mobilenet and squeezenet
# (fused) run on cuDNN in fp32, tf32 and fp16 and agree with the CPU element-wise, and so do
# resnet18 and mobilenet_v2 quantized with both presets (the backend-ops and int8 unit tests cover
# kernels).
#   cudnn_backend.sh FXC NPY_COMPARE
set -u
fxc=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
model=testdata/models/resnet18_narrow.onnx
"$fxc" run "$model" >"$work/cpu.txt" || fail "cpu run"
"$fxc" run "$model" --backend cudnn >"$work/gpu.txt" 2>"$work/err"
rc=$?
if [ "$rc" = 0 ]; then
  echo "a CUDA device is usable: comparing cudnn with cpu"
  for m in resnet18_narrow mobilenet_v2_narrow mobilenet_v3_small_narrow squeezenet1_1_narrow; do
    "$fxc" run testdata/models/$m.onnx --output-dir "$work/cpu_$m" >/dev/null || fail "$m cpu"
    "$fxc" fuse -q testdata/models/$m.onnx --pass conv-bn --pass conv-add-relu --pass conv-relu \
      -o "$work/$m.onnx" || fail "$m fuse"
    for precision in fp32 tf32 fp16; do
      "$fxc" run "$work/$m.onnx" --backend cudnn --precision "$precision" -v \
        --output-dir "$work/gpu_${m}_$precision" >"$work/gpu.txt" 2>"$work/gpu.err" ||
        fail "$m cudnn $precision: $(cat "$work/gpu.err")"
      # The fused model on the GPU against the model as written on the CPU, element by element
      # (outputs span about ±0.3): fp32 within 1e-5 + 1e-4·|cpu|; tf32 and fp16 round operands to
      # 10 mantissa bits, within 5e-3 (under 2% of the range).
      atol=1e-5 rtol=1e-4
      [ "$precision" != fp32 ] && atol=5e-3 rtol=0
      "$compare" "$work/gpu_${m}_$precision/output.npy" "$work/cpu_$m/output.npy" "$atol" "$rtol" ||
        fail "$m cudnn $precision differs from cpu"
    done
  done
  # Quantized (both presets): the integer graph quant-lower makes, its convolutions on cuDNN's
  # int8 one, against the same graph on the CPU (oneDNN rescales in float, the GPU in double: an
  # output step apart at a rounding tie, which later layers carry; within 5e-3 of outputs that
  # span about ±0.3).
  for m in resnet18_narrow mobilenet_v2_narrow; do
    for preset in trt ort-cpu; do
      q=$work/$m.$preset.onnx
      "$fxc" quantize -q testdata/models/$m.onnx --preset $preset --calibration random:8 -o "$q" ||
        fail "$m quantize $preset"
      "$fxc" run "$q" --output-dir "$work/cpu_$m.$preset" >/dev/null || fail "$m $preset cpu"
      "$fxc" run "$q" --backend cudnn --output-dir "$work/gpu_$m.$preset" >/dev/null 2>"$work/gpu.err" ||
        fail "$m $preset cudnn: $(cat "$work/gpu.err")"
      "$compare" "$work/gpu_$m.$preset/output.npy" "$work/cpu_$m.$preset/output.npy" 5e-3 0 ||
        fail "$m $preset: the integer run on cudnn differs from cpu"
    done
  done
  exit 0
fi
[ "$rc" = 1 ] || fail "--backend cudnn without a device: exit $rc, expected 1"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one error line: $(cat "$work/err")"
grep -q '^fxc: error: no CUDA device: ' "$work/err" || fail "unclear error: $(cat "$work/err")"
[ ! -s "$work/gpu.txt" ] || fail "output on stdout despite the error"
"$fxc" run "$model" --backend auto >"$work/auto.txt" || fail "--backend auto"
cmp -s "$work/cpu.txt" "$work/auto.txt" || fail "--backend auto did not run on the CPU"
"$fxc" bench "$model" --backend auto --runs 2 --warmup 0 >/dev/null 2>&1 || fail "bench --backend auto"
"$fxc" profile "$model" --backend auto --runs 1 >/dev/null 2>&1 || fail "profile --backend auto"
echo "no usable CUDA device ($(sed 's/^fxc: error: no CUDA device: //' "$work/err")): cudnn refused, auto ran on the CPU"
