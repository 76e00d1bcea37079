#!/usr/bin/env bash
# The QAT loop closed (scripts/qat_example.py) on a narrow resnet18: fxc quantize --qat --codegen
# → the package equals fxc's QAT model → PyTorch fine-tunes it → torch.onnx exports it → fxc
# quantize --convert → fxc run agrees with the fine-tuned module. Skipped (exit 77) without torch.
#   qat_loop.sh FXC
set -u
fxc=$1
python=
for candidate in "${FXC_PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import torch, numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "SKIPPED: no python3 with torch and numpy (set FXC_PYTHON); the QAT loop is not run"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -W ignore scripts/qat_example.py "$fxc" testdata/models/resnet18_narrow.onnx "$work/loop"
