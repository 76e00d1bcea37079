#!/usr/bin/env bash
# --backend cudnn and auto as a user sees them, on whatever machine runs the tests. Without a
# usable CUDA device: `--backend cudnn` is one error line "no CUDA device: <reason>", exit 1, and
# `--backend auto` runs on the CPU with the CPU's results. With one: resnet18 and mobilenet (narrow)
# run on cuDNN, fp32 and fp16, and agree with the CPU (the backend-ops unit test covers kernels).
#   cudnn_backend.sh FXC
set -u
fxc=$1
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
    for precision in fp32 tf32 fp16; do
      "$fxc" run testdata/models/$m.onnx --output-dir "$work/cpu_$m" >/dev/null || fail "$m cpu"
      "$fxc" fuse -q testdata/models/$m.onnx --pass conv-bn --pass conv-add-relu --pass conv-relu \
        -o "$work/$m.onnx" || fail "$m fuse"
      "$fxc" run "$work/$m.onnx" --backend cudnn --precision "$precision" -v \
        --output-dir "$work/gpu_$m" >"$work/gpu_$m.txt" 2>"$work/gpu_$m.err" ||
        fail "$m cudnn $precision: $(cat "$work/gpu_$m.err")"
      # Means agree to 1e-3 of the output's scale (fp16: 1e-2).
      tol=1e-3
      [ "$precision" = fp16 ] && tol=1e-2
      paste <("$fxc" run testdata/models/$m.onnx) "$work/gpu_$m.txt" | awk -v tol="$tol" '{
        for (i = 1; i <= NF; i++) if ($i == "max") { if (!a) a = $(i + 1); else b = $(i + 1) }
        d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= tol * (s + 1e-3)) }' ||
        fail "$m cudnn $precision differs from cpu: $(cat "$work/gpu_$m.txt")"
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
