#!/usr/bin/env bash
# Every committed model on cuDNN (fp32) against the CPU on the same seeded inputs, element by
# element within 1e-4 + 1e-3·|cpu| (CPU fallbacks and the copies between them included), then the
# outputs PyTorch recorded (testdata/recorded) on cuDNN. Without a usable CUDA device: exit 77,
# which ctest shows as skipped. MODEL... adds models of its own (bench_gpu.sh's zoo models).
#   cudnn_models.sh FXC NPY_COMPARE [MODEL...]
set -u
fxc=$1
compare=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$fxc" run -q testdata/models/seed_three_adds.onnx --backend cudnn >/dev/null 2>"$work/err"; then
  echo "skipped: $(cat "$work/err")"
  exit 77
fi
status=0
for m in testdata/models/*.onnx testdata/models/codegen/*.onnx testdata/models/soundness/*.onnx "$@"; do
  name=$(basename "$m" .onnx)
  rm -rf "$work/cpu" "$work/gpu"
  if ! "$fxc" run -q "$m" --output-dir "$work/cpu" >/dev/null 2>"$work/err"; then
    echo "  $name: not run on the CPU either ($(head -c 150 "$work/err"))"
    continue
  fi
  if ! "$fxc" run "$m" --backend cudnn -v --output-dir "$work/gpu" >/dev/null 2>"$work/err"; then
    echo "  $name: FAIL on cudnn: $(grep -v 'runs on the CPU' "$work/err" | tail -2)"
    status=1
    continue
  fi
  fallbacks=$(grep -c 'runs on the CPU' "$work/err")
  outputs=0 bad=0
  for want in "$work"/cpu/*.npy; do
    outputs=$((outputs + 1))
    "$compare" "$work/gpu/$(basename "$want")" "$want" 1e-4 1e-3 >"$work/cmp" 2>&1 ||
      { bad=$((bad + 1)); sed 's/^/    /' "$work/cmp" | head -4; }
  done
  if [ $bad = 0 ]; then echo "  $name: ok, $outputs outputs, $fallbacks nodes on the CPU"; else
    echo "  $name: FAIL, $bad of $outputs outputs differ from the CPU"
    status=1
  fi
done
for name in transformer_encoder_layer transformer_encoder_layer_unfolded transformer_decoder_layer \
  lstm_bidirectional gru_bidirectional resnet18_narrow mobilenet_v2_narrow mobilenet_v3_small_narrow \
  squeezenet1_1_narrow; do
  if bash test/cli/recorded.sh "$fxc" "$compare" "$name" --backend cudnn >"$work/rec" 2>&1; then
    echo "  recorded $name on cudnn: ok (PyTorch's outputs, 1e-5 + 1e-4·|y|)"
  else
    echo "  recorded $name on cudnn: FAIL: $(tail -3 "$work/rec")"
    status=1
  fi
done
exit $status
