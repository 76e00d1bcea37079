#!/usr/bin/env bash
# fxc's main job on a bundled model: trace torchvision's resnet18 (exported by torch.onnx, at a
# sixteenth of its width so that it fits in the repository), show it as torch.fx would, fold its
# BatchNorms into the convolutions (checked numerically), write the fused model as ONNX, then run,
# profile and benchmark it against the unfused model (--backend auto: cuDNN on a GPU machine, else
# oneDNN on the CPU), and finally fuse the ReLUs and residual adds into the convolutions too, and
# quantize it to int8 (QDQ) and run that on integer kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh build
model=testdata/models/resnet18_narrow.onnx
out=build/demo
mkdir -p "$out"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
step ./build/fxc trace "$model" --print-tabular
step ./build/fxc trace "$model" --code
step ./build/fxc passes
step ./build/fxc fuse "$model" --pass conv-bn --pass dce --verify -o "$out/resnet18_fused.onnx" --check
step ./build/fxc trace "$out/resnet18_fused.onnx" --print-tabular
step ./build/fxc trace "$out/resnet18_fused.onnx" --code
step ./build/fxc lint "$model" "$out/resnet18_fused.onnx"
# The seed's finale: run the fused model, profile it, and time fused against unfused.
# --backend auto: cuDNN on a machine with a usable CUDA device, the CPU (oneDNN) elsewhere.
step ./build/fxc run "$out/resnet18_fused.onnx" --backend auto --output-dir "$out/outputs"
step ./build/fxc profile "$out/resnet18_fused.onnx" --backend auto --sort --runs 5
step ./build/fxc bench "$model" --backend auto --pass conv-bn --pass dce --batch 4
# Conv + ReLU and the residual blocks' Conv + Add + ReLU as single fused convolutions.
step ./build/fxc fuse "$model" --pass conv-bn --pass conv-add-relu --pass conv-relu --verify --code
step ./build/fxc bench "$model" --backend auto --pass conv-bn --pass conv-add-relu --pass conv-relu --batch 4
# The founding document's purpose: quantization. QDQ int8 for TensorRT, with its accuracy report;
# then for ONNX Runtime's CPU layout, timed as float, as Q/DQ and on integer kernels (fxc run
# lowers a QDQ model to integer convolutions and adds: -v shows the execution pipeline).
step ./build/fxc quantize "$model" --preset trt --calibration random:32 --report \
  -o "$out/resnet18_int8.onnx" --check
step ./build/fxc quantize "$model" --preset ort-cpu --bench --threads 1 \
  -o "$out/resnet18_uint8.onnx" --check
step ./build/fxc run "$out/resnet18_int8.onnx"
